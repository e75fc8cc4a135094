"""A lean WebSocket client for the load generator: it reads only the head of each frame.

A load generator with 1 000 sockets receives one full view per socket per action (tens of
KB each). A general client copies and UTF-8 decodes every payload; this one parses frame
headers (RFC 6455, server frames are unmasked), keeps the first HEAD_BYTES of each text
payload and skips the rest, so the load generator's CPU goes to the kernel copy and little
else, leaving the machine's cores to the services under test. It answers pings, and sends
masked text frames (clients must mask).
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
from collections.abc import Callable

HEAD_BYTES = 512  # a frame's head: everything a protocol message carries before its view or patch

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA


def client_frame(opcode: int, payload: bytes) -> bytes:
    """One final, masked client frame."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return header + mask + bytes(b ^ mask[i & 3] for i, b in enumerate(payload))  # small frames only


class HeadSocket(asyncio.Protocol):
    """`on_message(head, size)` gets the first HEAD_BYTES of each text message and its full
    size; `closed` is set when the connection ends."""

    def __init__(self, on_message: Callable[[bytes, int], None]) -> None:
        self.on_message = on_message
        self.transport: asyncio.Transport | None = None
        self.closed = asyncio.Event()
        self.upgraded = asyncio.get_running_loop().create_future()
        self._handshake = b""
        self._buf = bytearray()  # an incomplete frame header, or the start of a control frame
        self._skip = 0  # payload bytes of the current frame still to come
        self._head = bytearray()
        self._size = 0
        self._opcode = 0
        self._control = bytearray()

    @classmethod
    async def connect(cls, host: str, port: int, path: str, on_message: Callable[[bytes, int], None]) -> HeadSocket:
        loop = asyncio.get_running_loop()
        _, proto = await loop.create_connection(lambda: cls(on_message), host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        assert proto.transport is not None
        proto.transport.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        await asyncio.wait_for(proto.upgraded, 30)
        return proto

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.upgraded.done():
            self.upgraded.set_exception(ConnectionError(f"WebSocket handshake failed: {self._handshake[:200]!r}"))
        self.closed.set()

    def send_text(self, text: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(client_frame(OP_TEXT, text))

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(client_frame(OP_CLOSE, struct.pack("!H", 1000)))
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if not self.upgraded.done():
            self._handshake += data
            end = self._handshake.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self._handshake.startswith(b"HTTP/1.1 101"):
                self.upgraded.set_exception(ConnectionError(f"no upgrade: {self._handshake[:200]!r}"))
                assert self.transport is not None
                self.transport.close()
                return
            data, self._handshake = self._handshake[end + 4:], b""
            self.upgraded.set_result(None)
        view = memoryview(data)
        while view:
            if self._skip:
                view = self._payload(view)
            else:
                view = self._header(view)

    def _header(self, view: memoryview) -> memoryview:
        buf = self._buf
        need = 2
        while True:
            if len(buf) < need:
                take = min(len(view), need - len(buf))
                buf += view[:take]
                view = view[take:]
                if len(buf) < need:
                    return view
            if need == 2:
                n = buf[1] & 0x7F
                extra = 2 if n == 126 else 8 if n == 127 else 0
                if extra and len(buf) < 2 + extra:
                    need = 2 + extra
                    continue
            break
        n = buf[1] & 0x7F
        size = struct.unpack("!H", buf[2:4])[0] if n == 126 else struct.unpack("!Q", buf[2:10])[0] if n == 127 else n
        self._opcode = buf[0] & 0x0F
        buf.clear()
        self._head.clear()
        self._control.clear()
        self._size = self._skip = size
        if size == 0:
            self._frame_done()
        return view

    def _payload(self, view: memoryview) -> memoryview:
        take = min(len(view), self._skip)
        chunk = view[:take]
        if self._opcode >= OP_CLOSE:
            self._control += chunk
        elif len(self._head) < HEAD_BYTES:
            self._head += chunk[: HEAD_BYTES - len(self._head)]
        self._skip -= take
        if not self._skip:
            self._frame_done()
        return view[take:]

    def _frame_done(self) -> None:
        op = self._opcode
        if op == OP_TEXT:
            self.on_message(bytes(self._head), self._size)
        elif op == OP_PING and self.transport is not None and not self.transport.is_closing():
            self.transport.write(client_frame(OP_PONG, bytes(self._control)))
        elif op == OP_CLOSE and self.transport is not None:
            self.transport.close()
