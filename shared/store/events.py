"""The event store: one Redis stream per table, appended by one atomic Lua script.

The client must be created with `decode_responses=False` (entries carry raw JSON bytes), and
its socket timeout, if any, must exceed the `block_ms` given to `tail`/`tail_many`.
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any

import msgspec
import redis.asyncio as aioredis

from shared.store import keys
from shared.store.models import (
    STATUSES,
    AppendOutcome,
    Attention,
    LoggedAction,
    SeatSpec,
    TableExists,
    TableMeta,
    TableSummary,
    TurnNotice,
    UnknownTable,
)

DAY_MS = 24 * 3600 * 1000

_json = msgspec.json.Encoder()
_options_dec = msgspec.json.Decoder(dict[str, Any])
_seats_dec = msgspec.json.Decoder(list[SeatSpec])
_ints_dec = msgspec.json.Decoder(list[int])

# Meta hash fields read back by get_meta / list_tables, in this order.
_META_FIELDS = ("table", "title", "options", "seats", "seed", "status", "created_ms", "last_seq", "updated_ms",
                "rules_version")


def _lua(name: str) -> str:
    return files("shared.store").joinpath(name).read_text()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _entry(entry_id: bytes, fields: dict[bytes, bytes]) -> LoggedAction:
    return LoggedAction(
        seq=int(entry_id.split(b"-", 1)[0]),
        seat=int(fields[b"seat"]),
        action=fields[b"action"],
        key=fields[b"key"].decode(),
        t_ms=int(fields[b"t"]),
    )


def _summary(values: list[bytes | None]) -> TableSummary | None:
    if values[0] is None:
        return None
    table, title, options, seats, seed, status, created_ms, last_seq, updated_ms, rules_version = values
    return TableSummary(
        table=_text(table),
        title=_text(title),
        options=_options_dec.decode(options),
        seats=_seats_dec.decode(seats),
        seed=int(seed),
        status=_text(status),
        created_ms=int(created_ms),
        last_seq=int(last_seq or 0),
        updated_ms=int(updated_ms or 0),
        rules_version=_text(rules_version) if rules_version is not None else "1",
    )


class EventStore:
    def __init__(self, redis: aioredis.Redis, idem_ttl_ms: int = DAY_MS, turns_maxlen: int = 100_000) -> None:
        if redis.connection_pool.connection_kwargs.get("decode_responses"):
            raise ValueError("EventStore needs a Redis client with decode_responses=False")
        self.redis = redis
        self.idem_ttl_ms = idem_ttl_ms
        self.turns_maxlen = turns_maxlen
        # register_script runs EVALSHA and loads the script only on NOSCRIPT (once per server).
        self._append = redis.register_script(_lua("append.lua"))
        self._create = redis.register_script(_lua("create.lua"))
        self._set_seat = redis.register_script(_lua("seat.lua"))

    # --- tables ---------------------------------------------------------------------------

    async def create_table(self, meta: TableMeta) -> None:
        """Store a new table's meta and list it; raises TableExists if the id is taken."""
        table = keys.check_table_id(meta.table)
        fields = [
            "table", table,
            "title", meta.title,
            "options", _json.encode(meta.options),
            "seats", _json.encode(meta.seats),
            "seed", str(meta.seed),
            "status", meta.status,
            "created_ms", str(meta.created_ms),
            "last_seq", "0",
            "updated_ms", str(meta.created_ms),
            "rules_version", meta.rules_version,
        ]
        if not await self._create(keys=[keys.meta_key(table)], args=fields):
            raise TableExists(table)
        # A separate command: `rh:tables` lives in another slot. Listed only once the meta exists.
        await self.redis.zadd(keys.TABLES, {table: meta.created_ms})

    async def get_meta(self, table: str) -> TableSummary | None:
        """The table's meta (a TableSummary: TableMeta plus last_seq), or None."""
        if not keys.TABLE_ID.match(table):
            return None
        return _summary(await self.redis.hmget(keys.meta_key(table), _META_FIELDS))

    async def set_seat(self, table: str, index: int, seat: SeatSpec) -> bool:
        """Replace seat `index` of the table's meta (a seat handed to a bot or back), atomically
        with respect to other seat changes. False if there is no such seat; UnknownTable."""
        done = await self._set_seat(keys=[keys.meta_key(keys.check_table_id(table))],
                                    args=[index, _json.encode(seat)])
        if done == 0:
            raise UnknownTable(table)
        return done == 1

    async def list_tables(
        self, limit: int = 50, offset: int = 0, status: str | None = None
    ) -> tuple[list[TableSummary], int | None]:
        """Newest first. Returns (tables, next offset or None at the end).

        With `status`, the listing is scanned in pages and filtered on the meta hash (the truth),
        so `offset` counts positions in the full listing, not in the filtered one.
        """
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        found: list[TableSummary] = []
        page = max(limit, 100) if status else limit
        while len(found) < limit:
            ids = await self.redis.zrevrange(keys.TABLES, offset, offset + page - 1)
            if not ids:
                return found, None
            async with self.redis.pipeline(transaction=False) as pipe:
                for table in ids:
                    pipe.hmget(keys.meta_key(_text(table)), _META_FIELDS)
                rows = await pipe.execute()
            for i, row in enumerate(rows):
                summary = _summary(row)
                if summary is None or (status and summary.status != status):
                    continue
                found.append(summary)
                if len(found) == limit:
                    return found, offset + i + 1
            offset += len(ids)
            if len(ids) < page:
                return found, None
        return found, offset

    async def mark_attention(self, table: str, note: Attention) -> None:
        """Record that the table's log no longer folds (see shared/store/loader.py). The log
        itself is left as it is: nothing is lost, and a fixed engine folds it again."""
        await self.redis.hset(keys.meta_key(table), "attention", _json.encode(note))

    async def get_attention(self, table: str) -> Attention | None:
        raw = await self.redis.hget(keys.meta_key(table), "attention")
        return None if raw is None else msgspec.json.decode(raw, type=Attention)

    # --- the log ------------------------------------------------------------------------------

    async def last_seq(self, table: str) -> int:
        top = await self.redis.xrevrange(keys.log_key(table), count=1)
        return int(top[0][0].split(b"-", 1)[0]) if top else 0

    async def append(
        self,
        table: str,
        expected_seq: int,
        seat: int,
        action_json: bytes,
        idem_key: str,
        reply: bytes,
        now_ms: int,
        status: str | None = None,
    ) -> AppendOutcome:
        """Append `action_json` as seq expected_seq + 1 iff the log ends at `expected_seq` and
        (seat, idem_key) was never used; `reply` is stored with it for retries. One round trip.
        Raises UnknownTable if the table has no meta."""
        result = await self._append(
            keys=[keys.log_key(table), keys.idem_key(table, seat, idem_key), keys.meta_key(table)],
            args=[expected_seq, seat, action_json, idem_key, now_ms, reply, self.idem_ttl_ms, status or ""],
        )
        kind = result[0]
        if kind == b"ok":
            return AppendOutcome("ok", int(result[1]))
        if kind == b"conflict":
            return AppendOutcome("conflict", int(result[1]))
        if kind == b"duplicate":
            return AppendOutcome("duplicate", 0, result[2])
        raise UnknownTable(table)

    async def idem_reply(self, table: str, seat: int, key: str) -> bytes | None:
        return await self.redis.get(keys.idem_key(table, seat, key))

    async def read(self, table: str, after_seq: int, count: int | None = None) -> list[LoggedAction]:
        """Entries with seq > after_seq, oldest first (at most `count`)."""
        entries = await self.redis.xrange(keys.log_key(table), f"{after_seq + 1}-0", "+", count=count)
        return [_entry(i, f) for i, f in entries]

    async def tail(self, table: str, after_seq: int, block_ms: int) -> list[LoggedAction]:
        """Entries with seq > after_seq; if none yet, wait up to block_ms (> 0) for some; [] on timeout."""
        return (await self.tail_many({table: after_seq}, block_ms)).get(table, [])

    async def tail_many(self, positions: dict[str, int], block_ms: int) -> dict[str, list[LoggedAction]]:
        """`tail` over several tables in one XREAD; only tables with new entries are in the result.

        On Redis Cluster one XREAD may only name keys of one slot, so a caller there groups
        tables per slot (or calls `tail` per table); on a single node any mix works.
        """
        if block_ms <= 0:
            raise ValueError("block_ms must be > 0 (XREAD BLOCK 0 would wait forever)")
        streams = {keys.log_key(t): f"{seq}-0" for t, seq in positions.items()}
        reply = await self.redis.xread(streams, block=block_ms)
        out: dict[str, list[LoggedAction]] = {}
        for key, entries in _per_stream(reply):
            out[keys.table_of_log_key(key)] = [_entry(i, f) for i, f in entries]
        return out

    # --- snapshots (a cache: deleting them changes no result) ----------------------------------

    async def save_snapshot(self, table: str, seq: int, blob: bytes) -> None:
        await self.redis.set(keys.snap_key(table), str(seq).encode() + b":" + blob)

    async def load_snapshot(self, table: str) -> tuple[int, bytes] | None:
        raw = await self.redis.get(keys.snap_key(table))
        if raw is None:
            return None
        seq, _, blob = raw.partition(b":")
        return int(seq), blob

    async def delete_snapshots(self) -> int:
        """Delete every table snapshot (on a cluster, run it against each node). Returns the count."""
        deleted = 0
        batch: list[bytes] = []
        async for key in self.redis.scan_iter(match=keys.SNAP_PATTERN, count=500):
            batch.append(key)
            if len(batch) >= 500:
                deleted += await self.redis.unlink(*batch)
                batch = []
        if batch:
            deleted += await self.redis.unlink(*batch)
        return deleted

    # --- the global turn stream, read by bot workers through a consumer group -------------------

    async def publish_turn(self, table: str, seq: int, seats: list[int]) -> str:
        entry_id = await self.redis.xadd(
            keys.TURNS,
            {"table": table, "seq": seq, "seats": _json.encode(sorted(seats))},
            maxlen=self.turns_maxlen,
            approximate=True,
        )
        return _text(entry_id)

    async def ensure_turn_group(self, group: str, start: str = "$") -> None:
        """Create the consumer group (and the stream) unless it exists. A new group sees turns
        published from now on (`start="0"`: from the oldest kept)."""
        try:
            await self.redis.xgroup_create(keys.TURNS, group, id=start, mkstream=True)
        except aioredis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def read_turns(self, group: str, consumer: str, count: int = 10, block_ms: int | None = None) -> list[TurnNotice]:
        """New turns for this consumer; each is delivered to one consumer of the group."""
        reply = await self.redis.xreadgroup(group, consumer, {keys.TURNS: ">"}, count=count, block=block_ms)
        return [_turn(i, f) for _, entries in _per_stream(reply) for i, f in entries if f]

    async def ack_turns(self, group: str, *ids: str) -> int:
        return await self.redis.xack(keys.TURNS, group, *ids) if ids else 0

    async def claim_stale_turns(self, group: str, consumer: str, min_idle_ms: int, count: int = 10) -> list[TurnNotice]:
        """Take over turns another consumer read but did not ack within min_idle_ms (it crashed)."""
        reply = await self.redis.xautoclaim(keys.TURNS, group, consumer, min_idle_ms, "0-0", count=count)
        # XAUTOCLAIM returns [next start id, entries(, deleted ids on Redis 7)]; trimmed entries come back as None.
        return [_turn(i, f) for i, f in reply[1] if f]


def _per_stream(reply: Any) -> list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]:
    """XREAD/XREADGROUP replies as (key, entries): RESP2 gives a list of pairs; redis-py over
    RESP3 gives a map whose values wrap the entries in one more list."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return [(k, v[0] if v and isinstance(v[0], list) else v) for k, v in reply.items()]
    return [(k, v) for k, v in reply]


def _turn(entry_id: bytes, fields: dict[bytes, bytes]) -> TurnNotice:
    return TurnNotice(
        id=_text(entry_id),
        table=fields[b"table"].decode(),
        seq=int(fields[b"seq"]),
        seats=_ints_dec.decode(fields[b"seats"]),
    )
