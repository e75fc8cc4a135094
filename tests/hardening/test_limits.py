"""Every limit: 429 with Retry-After past the per-client rates, the log cap, undo/redo
churn, JSON-only writes, CORS, the header and body timeouts, the connection cap, metrics."""

from __future__ import annotations

import asyncio
import json

import aiohttp

from shared.config import Config, RateLimit
from shared.store import keys

from services.http import guard, limits

from .conftest import assert_error, create, read_http

TAKE1 = {"type": "take", "count": 1}
NIM2 = {"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "seed": 0}


def body(seq: int, action: dict, key: str) -> dict:
    return {"expected_seq": seq, "idempotency_key": key, "action": action}


async def test_table_creation_is_rate_limited_per_client_with_retry_after(new_client, redis_client):
    # Slow refill: three creations on a loaded machine may take seconds, and must not earn a fourth.
    client = await new_client(limit_create=RateLimit(0.01, 3))
    for _ in range(3):
        assert (await client.post("/api/tables", json=NIM2)).status == 201
    before = await redis_client.zcard(keys.TABLES)
    resp = await client.post("/api/tables", json=NIM2)
    assert_error(resp.status, await resp.json(), 429, "rate_limited")
    assert int(resp.headers["Retry-After"]) >= 1
    assert await redis_client.zcard(keys.TABLES) == before
    # Another client address has its own bucket (a proxy's header names it when configured).
    proxied = await new_client(limit_create=RateLimit(0.5, 1), client_ip_header="X-Real-IP")
    for ip in ("10.0.0.1", "10.0.0.2"):
        assert (await proxied.post("/api/tables", json=NIM2, headers={"X-Real-IP": ip})).status == 201
    resp = await proxied.post("/api/tables", json=NIM2, headers={"X-Real-IP": "10.0.0.1"})
    assert resp.status == 429 and resp.headers["Retry-After"] == "2"


async def test_tables_with_only_bots_have_their_own_tighter_limit(new_client):
    client = await new_client(limit_bot_tables=RateLimit(0.01, 2))
    bots = {"title": "nim", "seats": [{"name": "r1", "kind": "bot", "level": "random"},
                                      {"name": "r2", "kind": "bot", "level": "random"}]}
    for _ in range(2):
        assert (await client.post("/api/tables", json=bots)).status == 201
    resp = await client.post("/api/tables", json=bots)
    assert_error(resp.status, await resp.json(), 429, "rate_limited")
    assert int(resp.headers["Retry-After"]) >= 90
    # A table with a person at it is not a bot-only table.
    assert (await client.post("/api/tables", json={**bots, "seats": [{"name": "h"}, bots["seats"][0]]})).status == 201


async def test_handing_every_seat_to_bots_counts_as_a_bot_only_table(new_client, redis_client):
    client = await new_client(limit_bot_tables=RateLimit(0.01, 2))
    tables = [await create(client) for _ in range(3)]

    async def hand_over(created: dict, seat: int):
        return await client.post(f"/api/tables/{created['table']}/seats/{seat}/controller",
                                 json={"kind": "bot", "level": "random"},
                                 headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"})

    for created in tables[:2]:
        assert (await hand_over(created, 0)).status == 200  # a person still sits at seat 1
        assert (await hand_over(created, 1)).status == 200  # now only bots: one of the two
    created = tables[2]
    assert (await hand_over(created, 0)).status == 200
    resp = await hand_over(created, 1)
    assert_error(resp.status, await resp.json(), 429, "rate_limited")
    assert int(resp.headers["Retry-After"]) >= 90
    seats = json.loads(await redis_client.hget(keys.meta_key(created["table"]), "seats"))
    assert [s["kind"] for s in seats] == ["bot", "human"]  # refused: nothing changed
    # Creating a table of bots draws on the same limit.
    resp = await client.post("/api/tables", json={"title": "nim", "seats": [
        {"name": "r1", "kind": "bot", "level": "random"}, {"name": "r2", "kind": "bot", "level": "random"}]})
    assert_error(resp.status, await resp.json(), 429, "rate_limited")


async def test_actions_are_rate_limited_per_client(new_client, redis_client):
    client = await new_client(limit_actions=RateLimit(0.2, 2))
    created = await create(client)
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    for seq in range(2):
        resp = await client.post(f"/api/tables/{table}/actions", json=body(seq, TAKE1, f"a{seq}"),
                                 headers={"Authorization": f"Bearer {tokens[seq % 2]}"})
        assert resp.status == 201
    resp = await client.post(f"/api/tables/{table}/actions", json=body(2, TAKE1, "a2"),
                             headers={"Authorization": f"Bearer {tokens[0]}"})
    assert_error(resp.status, await resp.json(), 429, "rate_limited")
    assert resp.headers["Retry-After"] == "5"
    assert await redis_client.xlen(keys.log_key(table)) == 2


async def test_the_log_has_a_cap(new_client, redis_client):
    client = await new_client(max_log=3)
    created = await create(client)
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    for seq in range(3):
        resp = await client.post(f"/api/tables/{table}/actions", json=body(seq, {"type": "shout", "word": "hi"}, f"s{seq}"),
                                 headers={"Authorization": f"Bearer {tokens[0]}"})
        assert resp.status == 201, await resp.json()
    resp = await client.post(f"/api/tables/{table}/actions", json=body(3, TAKE1, "s3"),
                             headers={"Authorization": f"Bearer {tokens[0]}"})
    assert_error(resp.status, await resp.json(), 409, "log_full")
    assert await redis_client.xlen(keys.log_key(table)) == 3


async def test_undo_redo_churn_per_table_is_capped(new_client, redis_client):
    client = await new_client(limit_undo=RateLimit(0.01, 4))
    created = await create(client)
    table, token = created["table"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert (await client.post(f"/api/tables/{table}/actions", json=body(0, TAKE1, "t"), headers=auth)).status == 201
    seq = 1
    for i in range(4):
        action = {"type": "undo"} if i % 2 == 0 else {"type": "redo"}
        resp = await client.post(f"/api/tables/{table}/actions", json=body(seq, action, f"u{i}"), headers=auth)
        assert resp.status == 201, await resp.json()
        seq += 1
    resp = await client.post(f"/api/tables/{table}/actions", json=body(seq, {"type": "undo"}, "u-more"), headers=auth)
    assert_error(resp.status, await resp.json(), 429, "too_many_undos")
    assert int(resp.headers["Retry-After"]) >= 60
    undo = await client.post(f"/api/tables/{table}/undo", json={"expected_seq": seq, "idempotency_key": "u-more2"},
                             headers=auth)
    assert_error(undo.status, await undo.json(), 429, "too_many_undos")
    assert await redis_client.xlen(keys.log_key(table)) == seq
    # Ordinary play goes on.
    other = created["seats"][1]["token"]
    resp = await client.post(f"/api/tables/{table}/actions", json=body(seq, TAKE1, "t2"),
                             headers={"Authorization": f"Bearer {other}"})
    assert resp.status == 201, await resp.json()


async def test_writes_need_a_json_content_type(client, redis_client):
    before = await redis_client.zcard(keys.TABLES)
    raw = json.dumps(NIM2).encode()
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b", ""):
        resp = await client.post("/api/tables", data=raw, headers={"Content-Type": content_type})
        assert_error(resp.status, await resp.json(), 415, "unsupported_media_type")
    assert await redis_client.zcard(keys.TABLES) == before
    resp = await client.post("/api/tables", data=raw, headers={"Content-Type": "application/json; charset=utf-8"})
    assert resp.status == 201


async def test_cors_is_deliberate(new_client, redis_client):
    client = await new_client()
    before = await redis_client.zcard(keys.TABLES)
    # A page on another site: its JSON write is refused, its preflight too, and no CORS header is sent.
    resp = await client.post("/api/tables", json=NIM2, headers={"Origin": "https://evil.example"})
    assert_error(resp.status, await resp.json(), 403, "cross_origin")
    assert "Access-Control-Allow-Origin" not in resp.headers
    pre = await client.options("/api/tables", headers={"Origin": "https://evil.example",
                                                       "Access-Control-Request-Method": "POST"})
    assert_error(pre.status, await pre.json(), 403, "cross_origin")
    assert await redis_client.zcard(keys.TABLES) == before
    # The same origin (the page this server serves) writes as before.
    same = f"http://{client.server.host}:{client.server.port}"
    assert (await client.post("/api/tables", json=NIM2, headers={"Origin": same})).status == 201
    # A configured origin gets CORS.
    allowed = await new_client(cors_origins=("https://lobby.example",))
    pre = await allowed.options("/api/tables", headers={"Origin": "https://lobby.example",
                                                        "Access-Control-Request-Method": "POST"})
    assert pre.status == 204 and pre.headers["Access-Control-Allow-Origin"] == "https://lobby.example"
    assert "Content-Type" in pre.headers["Access-Control-Allow-Headers"]
    resp = await allowed.post("/api/tables", json=NIM2, headers={"Origin": "https://lobby.example"})
    assert resp.status == 201 and resp.headers["Access-Control-Allow-Origin"] == "https://lobby.example"
    assert "Retry-After" in resp.headers["Access-Control-Expose-Headers"]


async def test_metrics_need_the_token_when_one_is_set(new_client):
    open_ = await new_client()
    for path in ("/api/metrics", "/live/metrics"):
        assert (await open_.get(path)).status == 200  # loopback, no token configured
    client = await new_client(metrics_token="scrape-me")
    for path in ("/api/metrics", "/live/metrics"):
        resp = await client.get(path)
        assert_error(resp.status, await resp.json(), 401, "unauthorized")
        resp = await client.get(path, headers={"Authorization": "Bearer wrong"})
        assert resp.status == 401
        resp = await client.get(path, headers={"Authorization": "Bearer scrape-me"})
        assert resp.status == 200 and "# TYPE" in await resp.text()


async def test_half_sent_headers_are_cut_at_the_header_timeout(guarded):
    host, port = await guarded(header_timeout=0.5)
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    await writer.drain()
    # The server closes the connection: EOF, well before this generous bound.
    assert await asyncio.wait_for(reader.read(), 10) == b""
    writer.close()
    # A whole request on a fresh connection is served.
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    status, _headers, _body = await asyncio.wait_for(read_http(reader), 5)
    assert status == 200
    writer.close()


async def _refusal_after(host: str, port: int) -> float:
    """Seconds from connecting to a 429 too_many_connections and the close."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    reader, writer = await asyncio.open_connection(host, port)
    status, _headers, raw = await asyncio.wait_for(read_http(reader), 10)
    assert_error(status, json.loads(raw), 429, "too_many_connections")
    assert await asyncio.wait_for(reader.read(), 10) == b""
    writer.close()
    return loop.time() - began


async def test_a_connection_over_the_cap_is_held_unread_before_its_429(guarded, monkeypatch):
    """A flood that reconnects at once gets one refusal a second per connection it keeps
    trying; past MAX_HELD_REFUSALS held at once, refusals are answered without waiting."""
    host, port = await guarded(max_connections_per_client=1)
    held = await asyncio.open_connection(host, port)
    assert min(await asyncio.gather(*(_refusal_after(host, port) for _ in range(3)))) >= 0.9 * limits.TARPIT_S
    monkeypatch.setattr(guard, "MAX_HELD_REFUSALS", 0)
    assert await _refusal_after(host, port) < 0.9 * limits.TARPIT_S
    held[1].close()


async def test_a_body_that_stalls_gets_408(guarded):
    host, port = await guarded(body_timeout=0.5)
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"title\"")
    await writer.drain()
    status, headers, raw = await asyncio.wait_for(read_http(reader), 10)
    assert_error(status, json.loads(raw), 408, "request_timeout")
    writer.close()


async def test_connections_per_client_are_capped(guarded):
    host, port = await guarded(max_connections_per_client=3)
    held = [await asyncio.open_connection(host, port) for _ in range(3)]
    reader, writer = await asyncio.open_connection(host, port)
    status, headers, raw = await asyncio.wait_for(read_http(reader), 5)
    assert_error(status, json.loads(raw), 429, "too_many_connections")
    assert headers["retry-after"] == "1"
    assert await asyncio.wait_for(reader.read(), 5) == b""
    writer.close()
    # Closing one frees a place.
    held[0][1].close()
    await held[0][1].wait_closed()
    for _attempt in range(50):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        status, _h, _b = await asyncio.wait_for(read_http(reader), 5)
        writer.close()
        if status == 200:
            break
        await asyncio.sleep(0.05)  # the server has not seen the close yet: poll, bounded
    assert status == 200
    for _r, w in held[1:]:
        w.close()


def test_limits_are_configured_from_the_environment():
    cfg = Config.from_env({"ROUNDHOUSE_LIMIT_CREATE": "2/5", "ROUNDHOUSE_LIMIT_ACTIONS": "off",
                           "ROUNDHOUSE_MAX_LOG": "10", "ROUNDHOUSE_HEADER_TIMEOUT": "2.5",
                           "ROUNDHOUSE_CORS_ORIGINS": "https://a.example/, https://b.example"})
    assert cfg.limit_create == RateLimit(2, 5) and not cfg.limit_actions.enabled
    assert cfg.max_log == 10 and cfg.header_timeout == 2.5
    assert cfg.cors_origins == ("https://a.example", "https://b.example")
    for bad in ({"ROUNDHOUSE_LIMIT_CREATE": "fast"}, {"ROUNDHOUSE_MAX_LOG": "-1"}, {"ROUNDHOUSE_LIMIT_UNDO": "1/0"}):
        try:
            Config.from_env(bad)
        except ValueError as exc:
            assert next(iter(bad)) in str(exc)
        else:
            raise AssertionError(f"{bad} was accepted")


async def test_the_header_timeout_does_not_cut_an_idle_websocket(guarded):
    host, port = await guarded(header_timeout=0.3)
    async with aiohttp.ClientSession() as http:
        async with http.post(f"http://{host}:{port}/api/tables", json={"title": "nim", "seats": [
                {"name": "a"}, {"name": "b"}]}) as resp:
            table = (await resp.json())["table"]
        async with http.ws_connect(f"ws://{host}:{port}/ws") as ws:
            await ws.send_json({"type": "hello", "v": 1, "table": table})
            assert (await ws.receive_json(timeout=5))["type"] == "welcome"
            # Quiet for several header timeouts: a watcher may say nothing for minutes.
            await asyncio.sleep(1.2)
            await ws.send_json({"type": "ping", "id": 1})
            assert await ws.receive_json(timeout=5) == {"type": "pong", "id": 1}
