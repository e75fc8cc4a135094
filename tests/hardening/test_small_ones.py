"""The smaller holes: a Unicode space in a bearer header, DNS rebinding (foreign Host and
Origin that agree; writes to a Host not allowed), unmasked client WebSocket frames (RFC 6455 §5.1), and refused undos
using up a table's undo allowance."""

from __future__ import annotations

import asyncio
import base64
import json
import os

from shared.config import Config, RateLimit
from shared.store import keys

from .conftest import assert_error, create, read_http

NIM2 = {"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "seed": 0}
TAKE1 = {"type": "take", "count": 1}


def body(seq: int, action: dict, key: str) -> dict:
    return {"expected_seq": seq, "idempotency_key": key, "action": action}


async def test_a_bearer_header_with_a_unicode_space_is_refused(guarded, client):
    created = await create(client)
    table, token = created["table"], created["seats"][0]["token"]
    host, port = await guarded()

    async def submit(header: bytes, key: str) -> tuple[int, dict]:
        reader, writer = await asyncio.open_connection(host, port)
        raw = json.dumps(body(0, TAKE1, key)).encode()
        writer.write(b"POST /api/tables/%s/actions HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
                     b"Authorization: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                     % (table.encode(), host.encode(), port, header, len(raw), raw))
        status, _headers, reply = await asyncio.wait_for(read_http(reader), 5)
        writer.close()
        return status, json.loads(reply)

    nbsp, em_space = "\u00a0".encode(), "\u2003".encode()  # as UTF-8 on the wire
    tok = token.encode()
    for i, header in enumerate((b"Bearer " + tok + nbsp, b"Bearer" + nbsp + tok, b"Bearer " + tok + em_space,
                                b"Bearer " + nbsp + tok)):
        status, reply = await submit(header, f"k{i}")
        assert_error(status, reply, 401, "bad_token")
        assert "ASCII" in reply["error"]["message"], reply
    # ASCII spaces around it are still fine, and the scheme is case-blind.
    status, reply = await submit(b"bearer  " + tok + b" ", "ok")
    assert status == 201, reply


async def test_a_foreign_host_and_origin_that_agree_cannot_write(client):
    """DNS rebinding: a page on evil.example whose name now resolves to this server sends
    Host: evil.example and Origin: http://evil.example. Only addresses and localhost count
    as the page's own host without ROUNDHOUSE_PUBLIC_URL."""
    for host in ("evil.example", "evil.example:8000"):
        resp = await client.post("/api/tables", json=NIM2, headers={"Host": host, "Origin": f"http://{host}"})
        assert_error(resp.status, await resp.json(), 403, "host_not_allowed")
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "192.168.1.20"):
        resp = await client.post("/api/tables", json=NIM2, headers={"Host": host, "Origin": f"http://{host}"})
        assert resp.status == 201, (host, await resp.json())


async def test_a_named_host_is_the_pages_own_through_the_public_url(new_client):
    client = await new_client(public_url="https://rh.example")
    resp = await client.post("/api/tables", json=NIM2, headers={"Host": "rh.example", "Origin": "https://rh.example"})
    assert resp.status == 201, await resp.json()


async def test_writes_addressed_to_a_host_not_allowed_are_refused_whatever_the_origin(new_client, redis_client):
    client = await new_client()
    before = await redis_client.zcard(keys.TABLES)
    for headers in ({"Host": "evil.example"}, {"Host": "EVIL.example.:8000"}, {"Host": "127.0.0.1.evil.example"},
                    {"Host": "evil.example", "Origin": f"http://{client.host}:{client.port}"}):
        resp = await client.post("/api/tables", json=NIM2, headers=headers)
        body = await resp.json()
        assert_error(resp.status, body, 403, "host_not_allowed")
        assert "ROUNDHOUSE_ALLOWED_HOSTS" in body["error"]["message"]
    assert await redis_client.zcard(keys.TABLES) == before
    # Reads are not state-changing: they answer whatever the Host.
    assert (await client.get("/api/tables", headers={"Host": "evil.example"})).status == 200
    # Metrics trust loopback peers, which a rebound page in this machine's browser is.
    resp = await client.get("/api/metrics", headers={"Host": "evil.example"})
    assert_error(resp.status, await resp.json(), 403, "host_not_allowed")
    assert (await client.get("/api/metrics")).status == 200


async def test_allowed_hosts_name_the_deployment(new_client):
    client = await new_client(allowed_hosts=("game", ".example.org"), public_url="https://rh.example")
    for host in ("game:8001", "example.org", "play.example.org", "rh.example", "localhost", "[::1]:8000", "10.1.2.3"):
        resp = await client.post("/api/tables", json=NIM2, headers={"Host": host})
        assert resp.status == 201, (host, await resp.json())
    for host in ("games", "badexample.org", "example.org.evil.example", "rh.example.evil.example"):
        resp = await client.post("/api/tables", json=NIM2, headers={"Host": host})
        assert_error(resp.status, await resp.json(), 403, "host_not_allowed")
    anyone = await new_client(allowed_hosts=("*",))
    assert (await anyone.post("/api/tables", json=NIM2, headers={"Host": "evil.example"})).status == 201
    assert Config.from_env({"ROUNDHOUSE_ALLOWED_HOSTS": " Game, .Example.org. ,"}).allowed_hosts == ("game", ".example.org")


async def _upgrade(host: str, port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection(host, port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


def _frame(payload: bytes, masked: bool) -> bytes:
    assert len(payload) < 126
    if not masked:
        return bytes([0x81, len(payload)]) + payload
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def test_an_unmasked_client_frame_closes_the_socket_with_1002(guarded, client):
    table = (await create(client))["table"]
    host, port = await guarded()
    hello = b'{"type": "hello", "v": 1, "table": "%s"}' % table.encode()
    # Masked: the server answers.
    reader, writer = await _upgrade(host, port)
    writer.write(_frame(hello, masked=True))
    first = await asyncio.wait_for(reader.read(2), 5)
    assert first[0] == 0x81, first  # a text frame: the welcome
    writer.close()
    # Unmasked: a close frame with 1002, then the connection ends; no welcome.
    reader, writer = await _upgrade(host, port)
    writer.write(_frame(hello, masked=False))
    rest = await asyncio.wait_for(reader.read(), 5)
    assert rest[0] == 0x88 and int.from_bytes(rest[2:4], "big") == 1002, rest
    assert b"welcome" not in rest
    writer.close()


async def test_refused_undos_do_not_use_up_the_tables_undo_allowance(new_client):
    client = await new_client(limit_undo=RateLimit(0.01, 2))
    created = await create(client)
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    resp = await client.post(f"/api/tables/{table}/actions", json=body(0, TAKE1, "t0"), headers=auth[0])
    assert resp.status == 201
    # Seat 1 may not undo seat 0's take: refused by the rules, ten times.
    for i in range(10):
        resp = await client.post(f"/api/tables/{table}/actions", json=body(1, {"type": "undo"}, f"x{i}"), headers=auth[1])
        assert_error(resp.status, await resp.json(), 422, "undo_not_allowed")
    # Seat 0's own undo is still allowed.
    resp = await client.post(f"/api/tables/{table}/actions", json=body(1, {"type": "undo"}, "u0"), headers=auth[0])
    assert resp.status == 201, await resp.json()
