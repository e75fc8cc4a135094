"""The load generator's lean WebSocket client (services/bench/wsclient.py): it must see every
message and its head however TCP splits the bytes, answer pings, and read the real projection."""

from __future__ import annotations

import asyncio
import random
import struct

import msgspec

from services.bench.loadgen import frame_head
from services.bench.wsclient import HEAD_BYTES, OP_PING, OP_PONG, OP_TEXT, HeadSocket

from .stack import Match


def server_frame(opcode: int, payload: bytes) -> bytes:
    """An unmasked server frame, with each of the three length encodings."""
    n = len(payload)
    if n < 126:
        return struct.pack("!BB", 0x80 | opcode, n) + payload
    if n < 1 << 16:
        return struct.pack("!BBH", 0x80 | opcode, 126, n) + payload
    return struct.pack("!BBQ", 0x80 | opcode, 127, n) + payload


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass


def unmask(frame: bytes) -> tuple[int, bytes]:
    opcode, n = frame[0] & 0x0F, frame[1] & 0x7F
    assert frame[1] & 0x80, "client frames must be masked"
    mask, body = frame[2:6], frame[6:6 + n]
    return opcode, bytes(b ^ mask[i % 4] for i, b in enumerate(body))


async def test_heads_of_every_message_however_the_bytes_are_split() -> None:
    messages = [
        b'{"type":"welcome","seq":0,"view":{}}',
        b'{"type":"update","seq":1,"view":' + b'{"pad":"' + b"x" * 1000 + b'"}}',
        b'{"type":"update","seq":2,"view":' + b'{"pad":"' + b"y" * 70_000 + b'"}}',
        b'{"type":"update","seq":3,"seat":0,"action":{"type":"pass"},"t":1,"patch":'
        + b'[{"op":"add","path":"/log/-","value":"' + b"z" * 2_000 + b'"}]}',
        b'{"type":"error","code":"bad_message","message":"no"}',
    ]
    stream = server_frame(OP_TEXT, messages[0]) + server_frame(OP_PING, b"beat") + b"".join(
        server_frame(OP_TEXT, m) for m in messages[1:])
    rng = random.Random(3)
    got: list[tuple[bytes, int]] = []
    for _ in range(20):
        got.clear()
        sock = HeadSocket(lambda head, size: got.append((head, size)))
        sock.transport = transport = Transport()
        sock.upgraded.set_result(None)
        i = 0
        while i < len(stream):
            step = rng.choice((1, 2, 3, 7, 100, 5000, 100_000))
            sock.data_received(stream[i:i + step])
            i += step
        assert [size for _, size in got] == [len(m) for m in messages]
        assert [head for head, _ in got] == [m[:HEAD_BYTES] for m in messages]
        assert [frame_head(h, n).seq for h, n in got] == [0, 1, 2, 3, -1]
        assert [unmask(w) for w in transport.written] == [(OP_PONG, b"beat")]


async def until(condition, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_reads_the_real_projection(stack, game):
    match = await Match.create(game, 2, seed=17)
    await match.play(turns=3)
    heads: list[dict] = []
    sock = await HeadSocket.connect("127.0.0.1", stack.projection.port, "/ws",
                                    lambda head, size: heads.append(msgspec.to_builtins(frame_head(head, size))))
    sock.send_text(msgspec.json.encode({"type": "hello", "v": 1, "table": match.table, "token": match.tokens[1]}))
    await until(lambda: heads)
    seq = await match.play(turns=10, watch=False)
    await until(lambda: heads[-1]["seq"] == seq)
    assert heads[0] == {"type": "welcome", "seq": 3, "code": ""}
    assert [h["seq"] for h in heads[1:]] == list(range(4, seq + 1))
    assert {h["type"] for h in heads[1:]} == {"update"}
    sock.close()
    await asyncio.wait_for(sock.closed.wait(), 5)
