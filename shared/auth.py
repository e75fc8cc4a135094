"""Seat tokens: HMAC-signed claims that a bearer may act as one seat of one table.

A token is `<table>.<seat>.<signature>`; the signature covers table and seat with the
server secret, so a token cannot be forged or moved to another seat or table.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

import msgspec


class SeatClaim(msgspec.Struct, frozen=True):
    table: str
    seat: int


class TokenError(Exception):
    pass


def _sign(secret: bytes, table: str, seat: int) -> str:
    mac = hmac.new(secret, f"{table}\x00{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")


def issue(secret: bytes, table: str, seat: int) -> str:
    return f"{table}.{seat}.{_sign(secret, table, seat)}"


def verify(secret: bytes, token: str) -> SeatClaim:
    """Return the claim a token carries, or raise TokenError."""
    parts = token.split(".") if isinstance(token, str) else []
    if len(parts) != 3 or not parts[1].isdigit():
        raise TokenError("malformed seat token")
    table, seat_text, sig = parts
    seat = int(seat_text)
    if not hmac.compare_digest(sig, _sign(secret, table, seat)):
        raise TokenError("seat token signature does not match")
    return SeatClaim(table=table, seat=seat)
