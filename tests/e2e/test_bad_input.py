"""Bad input against the real stack: each gets a clear, specific error and leaves the table's
stream exactly as it was. Ends with a WebSocket client that never reads."""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import time
from typing import Any

import aiohttp
import pytest

from shared.auth import issue

from services.bench.wsclient import OP_TEXT, client_frame

from .stack import SECRET, LiveSocket, Match, new_key, projection_counter, stream_ids

OVERSIZED = 70 * 1024  # over the default 64 KiB max_body


def action_body(expected_seq: int, action: Any) -> dict[str, Any]:
    return {"expected_seq": expected_seq, "idempotency_key": new_key("bad"), "action": action}


# (case id, how the request differs from a good submit, expected status, expected code)
HTTP_CASES = [
    ("malformed_json", dict(data=b'{"expected_seq": 0, "action": {'), 400, "bad_json"),
    ("unknown_action_type", dict(action={"type": "teleport", "to": "Chicago"}), 422, "bad_action"),
    ("field_of_wrong_type", dict(action={"type": "bid", "amount": "lots"}), 422, "bad_action"),
    ("unknown_body_field", dict(extra={"seat": 1}), 422, "bad_request"),
    ("seq_of_wrong_type", dict(seq="latest"), 422, "bad_request"),
    ("another_seats_turn", dict(seat="idle"), 422, "not_your_turn"),
    ("missing_token", dict(token=None), 401, "missing_token"),
    ("garbage_token", dict(token="not-a-token"), 401, "bad_token"),
    ("forged_token", dict(token="forged"), 401, "bad_token"),
    ("token_of_another_table", dict(token="other_table"), 403, "wrong_table"),
    ("stale_seq", dict(seq=-1), 409, "stale_seq"),
    ("future_seq", dict(seq=+5), 409, "stale_seq"),
    ("oversized_body", dict(data=b'{"pad": "' + b"x" * OVERSIZED + b'"}'), 413, "body_too_large"),
    ("table_that_does_not_exist", dict(table="nosuchtable0"), 404, "unknown_table"),
]


@pytest.mark.parametrize("change,status,code", [c[1:] for c in HTTP_CASES], ids=[c[0] for c in HTTP_CASES])
async def test_bad_submit_is_refused_and_changes_nothing(stack, game, change, status, code):
    match = await Match.create(game, 3, seed=31)
    seq = await match.play(turns=3)
    before = await stream_ids(stack.redis_url, match.table)
    active = match.active[0]
    seat = (active + 1) % 3 if change.get("seat") == "idle" else active
    table = change.get("table", match.table)
    tokens = {
        "forged": issue(b"not-the-server-secret", match.table, seat),
        "other_table": (await game.create_table(2, seed=1))["seats"][0]["token"],
    }
    token = change.get("token", issue(SECRET.encode(), table, seat))
    token = tokens.get(token, token)
    expected_seq = seq + change["seq"] if isinstance(change.get("seq"), int) else change.get("seq", seq)
    action = change.get("action") or await match.legal_action(active)
    kwargs: dict[str, Any] = {"data": change["data"]} if "data" in change else {
        "json": {**action_body(expected_seq, action), **change.get("extra", {})}}
    if "data" in change:
        kwargs["headers"] = {"Content-Type": "application/json"}

    reply = await game.request("POST", f"/api/tables/{table}/actions", token=token, **kwargs)

    assert reply.status == status, reply
    assert reply.body["error"]["code"] == code and reply.body["error"]["message"], reply
    if code == "stale_seq":
        assert reply.body["error"]["current_seq"] == seq
    assert await stream_ids(stack.redis_url, match.table) == before
    # ...and the table still takes the right action from the right seat.
    await match.play(turns=1)


async def ws_refusal(http, stack, frames: list[str]) -> tuple[dict[str, Any], int | None]:
    """Send frames on a fresh socket; return the fatal error frame and the close code."""
    async with http.ws_connect(stack.projection.ws_url, max_msg_size=0) as ws:
        for frame in frames:
            await ws.send_str(frame)
        error = await ws.receive_json(timeout=5)
        closing = await ws.receive(timeout=5)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), closing
        return error, ws.close_code


@pytest.mark.parametrize(
    "frames,code,close",
    [
        (['{"type": "hello", "v": 1, "table": '], "bad_hello", 1008),
        (['{"type": "hello", "v": 1, "table": "nosuchtable0"}'], "unknown_table", 1008),
        (['{"type": "hello", "v": 1, "table": "TABLE", "token": "FORGED"}'], "bad_token", 1008),
        (['{"type": "hello", "v": 1, "table": "TABLE", "last_seq": "latest"}'], "bad_hello", 1008),
        (['{"type": "hello", "v": 1, "table": "TABLE"}', '{"type": "ping", "pad": "' + "x" * OVERSIZED + '"}'],
         "frame_too_large", 1009),
        (['{"type": "hello", "v": 1, "table": "TABLE", "pad": "' + "x" * OVERSIZED + '"}'], "frame_too_large", 1009),
    ],
    ids=["malformed_hello", "unknown_table", "forged_token", "seq_of_wrong_type", "oversized_frame", "oversized_hello"],
)
async def test_bad_websocket_input_gets_an_error_frame(stack, game, http, frames, code, close):
    match = await Match.create(game, 2, seed=5)
    await match.play(turns=2)
    forged = issue(b"not-the-server-secret", match.table, 0)
    frames = [f.replace("TABLE", match.table).replace("FORGED", forged) for f in frames]
    before = await stream_ids(stack.redis_url, match.table)
    error, close_code = await ws_refusal(http, stack, frames)
    assert error["type"] == "error" and error["code"] == code and error["fatal"] is True, error
    assert close_code == close
    assert await stream_ids(stack.redis_url, match.table) == before


def never_reading_socket(port: int, table: str) -> socket.socket:
    """A WebSocket client that says hello and then never reads: a tiny receive buffer, so
    the server's writes back up after a frame or two."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    sock.sendall(client_frame(OP_TEXT, b'{"type": "hello", "v": 1, "table": "%s"}' % table.encode()))
    return sock


# A ping whose id is as big as a whole view: its pong (the id echoed) is queued for the
# socket like an update used to be, before updates became patches of a few hundred bytes.
BIG_PING = client_frame(OP_TEXT, b'{"type": "ping", "id": "%s"}' % (b"x" * 40_000))


def ping_big(sock: socket.socket) -> None:
    try:
        sock.sendall(BIG_PING)
    except OSError:
        pass  # the server has cut it already


async def dropped_count(http, stack) -> int:
    return await projection_counter(http, stack, "slow_clients_dropped_total")


def read_until_closed(sock: socket.socket, timeout: float) -> bool:
    """Drain what the server sent; True once the server has closed or reset the connection."""
    sock.settimeout(timeout)
    try:
        while sock.recv(1 << 16):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


async def test_client_that_never_reads_is_dropped_without_slowing_the_table(stack, game, http):
    match = await Match.create(game, 4, seed=13)
    await match.play(turns=2)
    watcher = await LiveSocket(http, stack.projection.ws_url, match.table).connect()
    dropped_before = await dropped_count(http, stack)
    slow = never_reading_socket(stack.projection.port, match.table)
    # Play on until the server drops the slow socket. Its writes back up once the kernel's
    # send buffer (up to 4 MiB) is full, and it is dropped after being stuck for the send
    # timeout (2 s here): the last turns before the drop are played while it is stuck.
    # Updates are patches of a few hundred bytes, so the slow client also sends a big ping
    # per turn: its big pong fills that buffer before the game ends.
    delays: list[float] = []
    played_at: list[float] = []
    try:
        while await dropped_count(http, stack) == dropped_before:
            assert match.active and len(delays) < 400, "the slow client was never dropped"
            seat = match.active[0]
            action = await match.legal_action(seat)
            await asyncio.to_thread(ping_big, slow)
            sent = time.perf_counter()
            match.accepted(await game.submit(match.table, match.tokens[seat], match.seq, action))
            await watcher.wait_seq(match.seq, timeout=5)
            delays.append(time.perf_counter() - sent)
            played_at.append(sent)
            await asyncio.sleep(0.02 if len(delays) > 60 else 0)  # keep the game from ending first
        dropped_at = time.perf_counter()
        assert await asyncio.to_thread(read_until_closed, slow, 5.0), "the server did not cut the slow socket"
    finally:
        slow.close()
    assert sum(1 for t in played_at if t > dropped_at - 2.0) >= 10, "not enough turns while it was stuck"
    # Had the table waited for the slow socket, some update would have taken ~2 s.
    assert max(delays) < 1.0, max(delays)
    seq = await match.play(turns=3, watch=False)
    await watcher.wait_seq(seq)
    assert watcher.seqs == list(range(3, seq + 1)) and not watcher.errors
    await watcher.close()
