"""Bad input on the socket: a specific error frame, then a close for fatal ones."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
import time
from typing import Any

import msgspec
import pytest
from aiohttp import WSMsgType

from shared.auth import issue
from shared.games import get_engine
from shared.store import SeatSpec, TableMeta

from .conftest import hub_of, projection_of, token
from .test_feed import hello, recv

TIMEOUT = 5.0


async def expect_fatal(ws, code: str, close_code: int = 1008) -> dict[str, Any]:
    frame = await recv(ws)
    assert frame["type"] == "error" and frame["code"] == code and frame["fatal"] is True, frame
    assert frame["message"]
    closing = await ws.receive(timeout=TIMEOUT)
    assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED), closing
    assert ws.close_code == close_code
    return frame


async def raw_hello(client, text: str | bytes):
    ws = await client.ws_connect("/ws")
    if isinstance(text, bytes):
        await ws.send_bytes(text)
    else:
        await ws.send_str(text)
    return ws


async def test_token_of_another_table_is_refused(client, driver):
    ws = await client.ws_connect("/ws")
    await ws.send_json({"type": "hello", "v": 1, "table": driver.table, "token": token("other-table", 0)})
    await expect_fatal(ws, "wrong_table")


async def test_forged_token_is_refused(client, driver):
    forged = issue(b"not-the-server-secret", driver.table, 0)
    ws = await client.ws_connect("/ws")
    await ws.send_json({"type": "hello", "v": 1, "table": driver.table, "token": forged})
    await expect_fatal(ws, "bad_token")
    tampered = token(driver.table, 0).replace(".0.", ".1.")
    ws = await client.ws_connect("/ws")
    await ws.send_json({"type": "hello", "v": 1, "table": driver.table, "token": tampered})
    await expect_fatal(ws, "bad_token")


async def test_token_for_a_seat_the_table_lacks_is_refused(client, driver):
    ws = await hello(client, driver.table, seat=len(driver.seats))
    await expect_fatal(ws, "bad_token")


async def test_unknown_table(client):
    ws = await hello(client, "no-such-table")
    await expect_fatal(ws, "unknown_table")
    assert hub_of(client).feeds == {}


async def test_table_of_a_title_this_server_lacks(start_app, store):
    client = await start_app(engine_for=get_engine)  # the real registry
    meta = TableMeta(
        table="exotic1", title="no-such-title", options={}, seats=[SeatSpec("a")], seed=1, status="open", created_ms=1
    )
    await store.create_table(meta)
    frame = await expect_fatal(await hello(client, meta.table), "unsupported_title")
    assert "no-such-title" in frame["message"]
    assert hub_of(client).feeds == {}


async def test_malformed_hello_json(client):
    await expect_fatal(await raw_hello(client, '{"type": "hello", "v": 1, "table": '), "bad_hello")


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "ping"}',  # not a hello first
        '{"type": "hello", "table": "x"}',  # no version
        '{"type": "hello", "v": 1, "table": "x", "last_seq": -1}',
        '{"type": "hello", "v": 1, "table": ""}',
        '["hello"]',
    ],
)
async def test_invalid_hello(client, text):
    frame = await expect_fatal(await raw_hello(client, text), "bad_hello")
    assert len(frame["message"]) < 300


async def test_binary_hello_is_refused(client):
    await expect_fatal(await raw_hello(client, b'{"type": "hello"}'), "binary_not_supported")


@pytest.mark.parametrize(
    "text",
    ['{"type": "hello", "v": 2, "table": "x"}', '{"type": "hello", "v": 9, "table": {"new": "shape"}}'],
)
async def test_unsupported_version(client, text):
    frame = await expect_fatal(await raw_hello(client, text), "unsupported_version")
    assert "1" in frame["message"]


async def test_oversized_frame_closes_the_socket(client, driver, cfg):
    ws = await hello(client, driver.table, seat=0)
    assert (await recv(ws))["type"] == "welcome"
    await ws.send_str('{"type": "ping", "id": "' + "x" * cfg.max_body + '"}')
    frame = await recv(ws)
    assert (frame["type"], frame["code"], frame["fatal"]) == ("error", "frame_too_large", True)
    closing = await ws.receive(timeout=TIMEOUT)
    assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
    assert ws.close_code == 1009


async def test_hello_timeout(start_app):
    client = await start_app(hello_timeout=0.2)
    ws = await client.ws_connect("/ws")
    await expect_fatal(ws, "hello_timeout")


async def test_after_hello_bad_messages_are_answered_not_fatal(client, driver):
    ws = await hello(client, driver.table, seat=0)
    await recv(ws)
    await ws.send_str("{not json")
    assert (await recv(ws))["code"] == "bad_message"
    await ws.send_json({"type": "hello", "v": 1, "table": driver.table})
    assert (await recv(ws))["code"] == "duplicate_hello"
    await ws.send_json({"type": "ping", "id": 7})
    assert await recv(ws) == {"type": "pong", "id": 7}
    await driver.play(1)
    assert (await recv(ws))["seq"] == 1  # still subscribed
    assert projection_of(client).metrics.errors["bad_message"] == 1


# --- slow consumers --------------------------------------------------------------------------


def _masked_text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    n = len(payload)
    assert n < 1 << 16
    head = struct.pack("!BB", 0x81, 0x80 | n) if n < 126 else struct.pack("!BBH", 0x81, 0x80 | 126, n)
    return head + mask + body


def _open_non_reading_socket(port: int, table: str) -> socket.socket:
    """A WebSocket client that says hello and then never reads (tiny receive buffer)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)
    assert response.startswith(b"HTTP/1.1 101"), response
    sock.sendall(_masked_text_frame(msgspec.json.encode({"type": "hello", "v": 1, "table": table})))
    return sock


# Pings whose ids add up to a whole view (under this test's 16 KiB frame limit): their pongs
# (the ids echoed) are queued for the socket like an update used to be, before updates
# became patches of a few hundred bytes.
_BIG_PINGS = _masked_text_frame(msgspec.json.encode({"type": "ping", "id": "x" * 12_000})) * 3


def _ping_big(sock: socket.socket) -> None:
    try:
        sock.sendall(_BIG_PINGS)
    except OSError:
        pass  # the server has cut it already


@pytest.mark.parametrize(
    ("max_queue_bytes", "why"),
    [(64 * 1024, "bytes queued"), (1 << 30, "write blocked")],
    ids=["queue-bound", "send-timeout"],
)
async def test_client_that_never_reads_is_dropped_while_others_keep_up(start_app, cfg, driver, caplog, max_queue_bytes, why):
    caplog.set_level("INFO", logger="services.projection.session")
    client = await start_app(max_queue_bytes=max_queue_bytes)
    proj, hub = projection_of(client), hub_of(client)
    good = await hello(client, driver.table)
    assert (await recv(good))["type"] == "welcome"
    await driver.play(1)
    assert (await recv(good))["seq"] == 1
    slow = await asyncio.to_thread(_open_non_reading_socket, client.port, driver.table)
    try:
        for _ in range(100):
            if hub.feeds[driver.table].watcher_count == 2:
                break
            await asyncio.sleep(0.01)
        assert hub.feeds[driver.table].watcher_count == 2

        worst = 0.0
        deadline = time.monotonic() + 20
        while proj.metrics.counts["slow_clients_dropped_total"] == 0:
            assert time.monotonic() < deadline, "the non-reading client was never dropped"
            await asyncio.to_thread(_ping_big, slow)
            await driver.churn()
            started = time.monotonic()
            check = await recv(good)
            worst = max(worst, time.monotonic() - started)
            assert check["seq"] == driver.seq
        # The good socket never waited on the slow one (a stall would be ws_send_timeout).
        assert worst < cfg.ws_send_timeout / 2, worst
        assert hub.feeds[driver.table].watcher_count == 1
        assert why in caplog.text
        for _ in range(100):  # the dropped socket's handler ends too
            if len(hub.sessions) == 1:
                break
            await asyncio.sleep(0.02)
        assert len(hub.sessions) == 1
        await driver.churn()
        assert (await recv(good))["seq"] == driver.seq
    finally:
        slow.close()
