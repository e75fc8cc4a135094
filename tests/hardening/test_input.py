"""Bad input gets a clear 4xx of the documented shape, never a 500 or a dropped socket.

The cases the issue names first, one by one; then a generated fuzz over every endpoint,
query parameter, header and the WebSocket hello (test_fuzz.py).
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from aiohttp import WSMsgType

from shared.auth import issue
from shared.store import keys

from services.game.app import GAME_KEY

from .conftest import SECRET, assert_error, create, read_http

DEEP = 20_000
TAKE1 = {"type": "take", "count": 1}
# Strings int() or str.isdigit() treat as numbers, and numbers int() refuses outright.
ODD_NUMBERS = ["²", "٣", "١٢", "0" * 5000, "9" * 5000, "+1", "-1", " 1", "1 ", "1\n", "0x1", "1_0", "１"]


def deep(n: int = DEEP) -> str:
    return "[" * n + "]" * n


async def test_token_spellings_other_than_the_canonical_one_are_refused(client):
    created = await create(client)
    table = created["table"]
    good = created["seats"][0]["token"]
    sig = good.rsplit(".", 1)[1]
    # (Control characters cannot be sent in a header at all.)
    printable = [n for n in ODD_NUMBERS if n.isprintable()]
    spellings = [f"{table}.{seat}.{sig}" for seat in printable + ["00", "01"]] + [
        " " + good + "x", good.replace(".", ". ", 1), good + ".", f"{table}..{sig}", good.upper(),
        f"{table}.0.{sig}=", f"{table}.0.{sig[:-1]}é", "é" * 100, "." * 5000, good * 20,
    ]
    body = {"expected_seq": 0, "idempotency_key": "k", "action": TAKE1}
    for token in spellings:
        header = f"Bearer {token}"
        if not header.isascii():
            header = header.encode("utf-8").decode("latin-1")  # what arrives when a client sends UTF-8
        for method, path, kw in (("POST", f"/api/tables/{table}/actions", {"json": body}),
                                 ("GET", f"/api/tables/{table}/legal", {})):
            resp = await client.request(method, path, headers={"Authorization": header}, **kw)
            assert_error(resp.status, await resp.json(), 401, "bad_token")
    # The canonical token still works, and nothing was appended meanwhile.
    resp = await client.post(f"/api/tables/{table}/actions", json=body, headers={"Authorization": f"Bearer {good}"})
    assert resp.status == 201, await resp.json()


async def test_websocket_hello_with_a_non_canonical_token_is_refused(client):
    created = await create(client)
    table, sig = created["table"], created["seats"][0]["token"].rsplit(".", 1)[1]
    for seat in ("00", "٠", "0" * 5000):
        async with client.ws_connect("/ws") as ws:
            await ws.send_json({"type": "hello", "v": 1, "table": table, "token": f"{table}.{seat}.{sig}"})
            frame = await ws.receive_json(timeout=5)
            assert frame["type"] == "error" and frame["code"] == "bad_token" and frame["fatal"], frame
            closing = await ws.receive(timeout=5)
            assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED) and ws.close_code == 1008


@pytest.mark.parametrize("name", ["limit", "offset"])
async def test_listing_integers_are_ascii_digits_in_range(client, name):
    for value in ODD_NUMBERS + ["", "abc", "1e3", "10000000000000"]:
        resp = await client.get("/api/tables", params={name: value})
        assert_error(resp.status, await resp.json(), 400, "bad_query")
    assert (await client.get("/api/tables", params={name: "1"})).status == 200


async def test_legal_seat_query_and_controller_path_take_ascii_digits_only(client):
    created = await create(client, [{"name": "a"}, {"name": "b"}])
    table, token = created["table"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for value in ODD_NUMBERS:
        resp = await client.get(f"/api/tables/{table}/legal", params={"seat": value}, headers=auth)
        assert_error(resp.status, await resp.json(), 400, "bad_query")
        if not value.isprintable():
            continue  # a URL cannot carry a raw control character in its path
        resp = await client.post(f"/api/tables/{table}/seats/{value}/controller", json={"kind": "bot"}, headers=auth)
        assert_error(resp.status, await resp.json(), 400, "bad_query")
    resp = await client.post(f"/api/tables/{table}/seats/1/controller", json={"kind": "bot"}, headers=auth)
    assert_error(resp.status, await resp.json(), 403, "wrong_seat")
    assert (await client.get(f"/api/tables/{table}/legal", params={"seat": "0"}, headers=auth)).status == 200


async def test_deeply_nested_json_is_bad_json_everywhere(client, redis_client):
    created = await create(client)
    table, token = created["table"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    before = await redis_client.zcard(keys.TABLES)
    # Where a field holds any JSON (options, the action), the nesting is what is refused;
    # where the schema wants a scalar the type is refused first (422). Never a 500.
    cases = [
        ("/api/tables", '{"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "options": {"x": ' + deep() + "}}",
         400, "bad_json"),
        ("/api/tables", '{"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "options": ' + deep() + "}",
         422, "bad_request"),
        ("/api/tables", deep(), 422, "bad_request"),
        (f"/api/tables/{table}/actions", '{"expected_seq": 0, "idempotency_key": "k", "action": ' + deep() + "}",
         400, "bad_json"),
        (f"/api/tables/{table}/actions",
         '{"expected_seq": 0, "idempotency_key": "k", "action": {"type": "take", "count": ' + deep() + "}}",
         400, "bad_json"),
        (f"/api/tables/{table}/actions",
         '{"expected_seq": 0, "idempotency_key": "k", "action": {"type": "shout", "word": "a", "x": ' + deep() + "}}",
         400, "bad_json"),
        (f"/api/tables/{table}/undo", '{"expected_seq": 0, "idempotency_key": "k", "action_id": ' + deep() + "}",
         422, "bad_request"),
        (f"/api/tables/{table}/seats/0/controller", '{"kind": ' + deep() + "}", 422, "bad_request"),
    ]
    for path, body, status, code in cases:
        resp = await client.post(path, data=body.encode(), headers=auth)
        assert_error(resp.status, await resp.json(), status, code)
    assert await redis_client.zcard(keys.TABLES) == before
    assert await redis_client.xlen(keys.log_key(table)) == 0


@pytest.mark.parametrize("hello", [
    deep(),
    '{"type": "hello", "v": 1, "table": ' + deep() + "}",
    '{"type": "hello", "v": ' + deep() + ', "table": "t"}',
    '{"v": ' + deep() + "}",
])
async def test_deeply_nested_hello_is_a_bad_hello_frame_and_1008(client, hello):
    async with client.ws_connect("/ws") as ws:
        await ws.send_str(hello)
        frame = await ws.receive_json(timeout=5)
        assert frame["type"] == "error" and frame["code"] == "bad_hello" and frame["fatal"], frame
        closing = await ws.receive(timeout=5)
        assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED) and ws.close_code == 1008


async def test_deeply_nested_frame_after_hello_is_a_bad_message(client):
    created = await create(client)
    async with client.ws_connect("/ws") as ws:
        await ws.send_json({"type": "hello", "v": 1, "table": created["table"]})
        assert (await ws.receive_json(timeout=5))["type"] == "welcome"
        await ws.send_str(deep())
        frame = await ws.receive_json(timeout=5)
        assert frame["type"] == "error" and frame["code"] == "bad_message" and not frame["fatal"], frame
        await ws.send_json({"type": "ping", "id": 7})
        assert await ws.receive_json(timeout=5) == {"type": "pong", "id": 7}


async def test_unknown_bot_level_is_refused_at_creation(client, redis_client):
    before = await redis_client.zcard(keys.TABLES)
    for level in ("easy", "MCTS", "", "x" * 32):
        resp = await client.post("/api/tables", json={"title": "nim", "seats": [
            {"name": "a"}, {"name": "b", "kind": "bot", "level": level}]})
        assert_error(resp.status, await resp.json(), 422, "unknown_bot")
    assert await redis_client.zcard(keys.TABLES) == before
    for known in ("random", "heuristic", "mcts", None):
        seat = {"name": "b", "kind": "bot", **({"level": known} if known else {})}
        resp = await client.post("/api/tables", json={"title": "nim", "seats": [{"name": "a"}, seat]})
        assert resp.status == 201, await resp.json()


async def test_refusals_from_aiohttp_itself_are_json(client):
    for method, path, status, code in [
        ("GET", "/api/tables/x/actions", 405, "method_not_allowed"),
        ("PUT", "/api/tables", 405, "method_not_allowed"),
        ("DELETE", "/api/titles", 405, "method_not_allowed"),
        ("GET", "/api/nothing-here", 404, "not_found"),
        ("GET", "/live/nothing", 404, "not_found"),
        ("GET", "/__init__.py", 404, "not_found"),
        ("GET", "/sdk/tests/errors.test.mjs", 404, "not_found"),
        ("POST", "/ws", 405, "method_not_allowed"),
        ("GET", "/ws", 400, "bad_http"),  # not an upgrade
    ]:
        resp = await client.request(method, path)
        assert resp.content_type == "application/json", (method, path)
        assert_error(resp.status, await resp.json(), status, code)
        assert resp.headers.get("X-Request-Id")
    resp = await client.get("/api/tables/x/actions")
    assert "POST" in resp.headers["Allow"]


async def test_an_unexpected_exception_is_a_json_500_with_a_request_id_and_one_log_line(client, caplog):
    async def broken(_table: str):
        raise ZeroDivisionError("a bug")

    client.app[GAME_KEY].service.table_detail = broken
    with caplog.at_level(logging.INFO):
        resp = await client.get("/api/tables/abc")
    body = await resp.json()
    assert_error(resp.status, body, 500, "internal_error")
    rid = body["error"]["request_id"]
    assert rid and rid in body["error"]["message"] and resp.headers["X-Request-Id"] == rid
    logged = [r for r in caplog.records if rid in r.getMessage()]
    assert len(logged) == 1 and logged[0].levelno == logging.ERROR and not logged[0].exc_info
    assert "ZeroDivisionError" in logged[0].getMessage() and "\n" not in logged[0].getMessage()


async def test_parser_refusals_on_a_real_listener_are_json(guarded):
    host, port = await guarded()
    for request in (
        b"GET /api/" + b"x" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # request line too long
        b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"y" * 9000 + b"\r\n\r\n",  # header too long
        b"GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 40,  # TLS to an HTTP port
    ):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(request)
        await writer.drain()
        status, headers, body = await asyncio.wait_for(read_http(reader), 5)
        assert headers["content-type"].startswith("application/json"), (request[:40], headers)
        import json

        assert_error(status, json.loads(body), 400, "bad_http")
        writer.close()


async def test_invite_url_ignores_the_host_header(new_client):
    # A Host writes are taken for (an address; a foreign name is refused: test_small_ones.py).
    client = await new_client()
    resp = await client.post("/api/tables", json={"title": "nim", "seats": [{"name": "a"}, {"name": "b"}]},
                             headers={"Host": "203.0.113.7"})
    created = await resp.json()
    for seat in created["seats"]:
        assert "203.0" not in seat["invite_url"] and seat["invite_url"].startswith("/#table="), seat
    client = await new_client(public_url="https://play.example.org", allowed_hosts=("evil.example",))
    resp = await client.post("/api/tables", json={"title": "nim", "seats": [{"name": "a"}, {"name": "b"}]},
                             headers={"Host": "evil.example"})
    assert all(s["invite_url"].startswith("https://play.example.org/#table=") for s in (await resp.json())["seats"])


def test_secret_tokens_verify_only_with_their_secret():
    token = issue(SECRET, "abc", 3)
    from shared.auth import TokenError, verify

    assert verify(SECRET, token).seat == 3
    with pytest.raises(TokenError):
        verify(b"another-secret-of-enough-length-000", token)
