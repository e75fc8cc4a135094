"""RFC 6455 §5.1: a client must mask every frame it sends, and a server must close the
connection on an unmasked one. aiohttp's frame reader accepts both, so the bytes a socket
receives pass through `MaskCheck` first: it follows the frame boundaries (headers only; it
never touches a payload) and says when a frame arrives unmasked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_MASKED = 0x80


class MaskCheck:
    """Frame boundaries of a client's byte stream; `feed` is False at the first unmasked frame."""

    __slots__ = ("_head", "_skip")

    def __init__(self) -> None:
        self._head = b""  # the bytes of a frame header read so far
        self._skip = 0  # payload bytes of the current frame still to come

    def feed(self, data: bytes) -> bool:
        i, n = 0, len(data)
        while i < n:
            if self._skip:
                step = min(self._skip, n - i)
                self._skip -= step
                i += step
                continue
            need = self._header_length()
            take = min(need - len(self._head), n - i)
            self._head += data[i:i + take]
            i += take
            if len(self._head) < 2 or len(self._head) < self._header_length():
                continue
            head, self._head = self._head, b""
            if not head[1] & _MASKED:
                return False
            size = head[1] & 0x7F
            if size == 126:
                size = int.from_bytes(head[2:4], "big")
            elif size == 127:
                size = int.from_bytes(head[2:10], "big")
            self._skip = size
        return True

    def _header_length(self) -> int:
        if len(self._head) < 2:
            return 2
        size = self._head[1] & 0x7F
        extended = 2 if size == 126 else 8 if size == 127 else 0
        return 2 + extended + (4 if self._head[1] & _MASKED else 0)


class MaskedOnly:
    """Stands in front of aiohttp's WebSocket reader: feeds it only while every frame so far
    was masked; at the first that is not, calls `refuse` and feeds nothing more."""

    def __init__(self, reader: Any, check: MaskCheck, refuse: Callable[[], None]) -> None:
        self._reader = reader
        self._check = check
        self._refuse = refuse
        self._refused = False

    def feed_data(self, data: bytes) -> tuple[bool, bytes]:
        if self._refused:
            return False, b""
        if not self._check.feed(data):
            self._refused = True
            self._refuse()
            return False, b""
        return self._reader.feed_data(data)

    def feed_eof(self) -> None:
        self._reader.feed_eof()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)
