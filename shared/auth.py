"""Seat tokens: HMAC-signed claims that a bearer may act as one seat of one table.

A token is `<table>.<seat>.<signature>`; the signature covers table and seat with the
server secret, so a token cannot be forged or moved to another seat or table.

Only the canonical spelling is accepted: the table id as stored, the seat in ASCII digits
without leading zeros (at most 6), the signature as `issue` writes it (32 characters of
unpadded base64url). `T.00.sig` or `T.٠.sig` are not other names for seat 0: they are
malformed, and checking the shape first means nothing odd ever reaches `int()` or the HMAC
comparison.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

import msgspec

# Table ids: the store's alphabet (shared/store/keys.py); seats: 0..999999; signature: 24
# bytes of HMAC-SHA256 in unpadded base64url.
TOKEN = re.compile(r"^([A-Za-z0-9_-]{1,64})\.(0|[1-9][0-9]{0,5})\.([A-Za-z0-9_-]{32})$", re.ASCII)
MAX_TOKEN_LENGTH = 110


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
    if not isinstance(token, str) or len(token) > MAX_TOKEN_LENGTH:
        raise TokenError("malformed seat token")
    # fullmatch, not `$`: `$` also matches before a trailing newline.
    found = TOKEN.fullmatch(token)
    if found is None:
        raise TokenError("malformed seat token")
    table, seat_text, sig = found.groups()
    seat = int(seat_text)
    if not hmac.compare_digest(sig.encode(), _sign(secret, table, seat).encode()):
        raise TokenError("seat token signature does not match")
    return SeatClaim(table=table, seat=seat)
