"""What handlers of either service answer with, and how they read numbers off a path."""

from __future__ import annotations

import re

import msgspec
from aiohttp import web

_encoder = msgspec.json.Encoder()
# Integers in paths and queries: ASCII digits only (str.isdigit also takes `²` and `٣`), and
# short enough that int() is cheap and never refuses.
UINT = re.compile(r"[0-9]{1,12}", re.ASCII)


def parse_uint(text: str) -> int | None:
    """`text` as a non-negative integer if it is 1-12 ASCII digits, else None."""
    return int(text) if UINT.fullmatch(text) else None


def json_response(body: bytes | msgspec.Struct, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    raw = body if isinstance(body, bytes) else _encoder.encode(body)
    return web.Response(status=status, body=raw, content_type="application/json", headers=headers)
