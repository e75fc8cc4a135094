"""A table's chat in Redis: one stream beside the table's log (`rh:{<table>}:chat`, the
same hash slot), holding chat lines and mute changes in one order, so every replica that
reads it sees a mute take effect at the same line.

A line is stored by one Lua script that also counts the author's lines in a fixed window
(the rate limit holds across replicas); the stream is trimmed to about `CHAT_KEEP` entries.
Mutes are also kept in a hash (`rh:{<table>}:mutes`) so a reader starting cold knows them
without reading the whole stream.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from shared.store import keys

from .connect import AnyRedis

CHAT_KEEP = 1000  # entries kept in a table's chat stream (approximately: MAXLEN ~)
SPECTATORS = "spectators"

_POST = """
local n = redis.call('INCR', KEYS[2])
if n == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
if n > tonumber(ARGV[5]) then return {0, redis.call('PTTL', KEYS[2])} end
local now = redis.call('TIME')
local ms = tostring(tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[6], '*',
  'kind', 'line', 'seat', ARGV[1], 'name', ARGV[2], 'text', ARGV[3], 't', ms)
return {1, id, ms}
"""

_MUTE = """
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'kind', 'mute', 'seat', ARGV[1], 'muted', ARGV[2])
"""

_muted_dec = msgspec.json.Decoder(list[int | str])
_json = msgspec.json.Encoder()

Target = int | str  # a seat, or SPECTATORS


class Line(NamedTuple):
    id: str
    seat: int | None
    name: str
    text: str
    t: int


class MuteChange(NamedTuple):
    id: str
    seat: int
    muted: list[Target]


ChatEvent = Line | MuteChange


class RateLimited(Exception):
    def __init__(self, retry_ms: int) -> None:
        super().__init__(f"rate limited for {retry_ms} ms")
        self.retry_ms = retry_ms


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v


def _event(entry_id: bytes | str, fields: dict[bytes, bytes]) -> ChatEvent | None:
    eid = _text(entry_id)
    kind = fields.get(b"kind")
    if kind == b"line":
        seat = fields[b"seat"]
        return Line(eid, int(seat) if seat else None, _text(fields[b"name"]), _text(fields[b"text"]), int(fields[b"t"]))
    if kind == b"mute":
        return MuteChange(eid, int(fields[b"seat"]), _muted_dec.decode(fields[b"muted"]))
    return None  # a kind this version does not know: skipped, never fatal


class ChatStore:
    def __init__(self, redis: AnyRedis) -> None:
        self.redis = redis
        self._post = redis.register_script(_POST)
        self._mute = redis.register_script(_MUTE)

    async def post(self, table: str, seat: int | None, author: str, name: str, text: str,
                   window_ms: int, limit: int) -> Line:
        """Store a line by `author` (a seat number, or a spectator's address); RateLimited
        when the author already said `limit` lines in this `window_ms`."""
        reply = await self._post(
            keys=[keys.chat_key(table), keys.chat_rate_key(table, author)],
            args=["" if seat is None else str(seat), name, text, window_ms, limit, CHAT_KEEP],
        )
        if int(reply[0]) == 0:
            raise RateLimited(max(0, int(reply[1])))
        return Line(_text(reply[1]), seat, name, text, int(reply[2]))

    async def set_mutes(self, table: str, seat: int, muted: list[Target]) -> str:
        return _text(await self._mute(keys=[keys.chat_key(table), keys.mutes_key(table)],
                                      args=[str(seat), _json.encode(muted), CHAT_KEEP]))

    async def load(self, table: str, count: int) -> tuple[dict[int, list[Target]], list[ChatEvent], str]:
        """(mutes by seat, the last `count` events oldest first, the id to read on from),
        read in one transaction so no change falls between the hash and the stream."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(keys.mutes_key(table))
            pipe.xrevrange(keys.chat_key(table), "+", "-", count=count)
            raw_mutes, raw_entries = await pipe.execute()
        mutes = {int(k): _muted_dec.decode(v) for k, v in raw_mutes.items()}
        events = [e for e in (_event(i, f) for i, f in reversed(raw_entries)) if e is not None]
        last = _text(raw_entries[0][0]) if raw_entries else "0-0"
        return mutes, events, last

    async def tail_many(self, cursors: dict[str, str], block_ms: int) -> dict[str, tuple[list[ChatEvent], str]]:
        """New events of several tables' chats in one blocked XREAD: table -> (events, last id)."""
        reply = await self.redis.xread({keys.chat_key(t): c for t, c in cursors.items()}, block=block_ms)
        out: dict[str, tuple[list[ChatEvent], str]] = {}
        items: Any = reply.items() if isinstance(reply, dict) else (reply or [])
        for key, entries in items:
            if not entries:
                continue
            events = [e for e in (_event(i, f) for i, f in entries) if e is not None]
            out[keys.table_of_key(key)] = (events, _text(entries[-1][0]))
        return out
