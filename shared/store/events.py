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
    OPEN,
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
                "rules_version", "seats_version")


# ZREM the member only if its score is still the one given (a newer note stays).
_CLEAR_NOTE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


def _lua(name: str) -> str:
    return files("shared.store").joinpath(name).read_text()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _entry(entry_id: bytes, fields: dict[bytes, bytes]) -> LoggedAction:
    return LoggedAction(
        seq=int(entry_id.split(b"-", 1)[0]),
        seat=int(fields[b"seat"]),
        action=fields[b"action"],
        key=fields[b"key"].decode(),
        t_ms=int(fields[b"t"]),
    )


def _summary(values: list[Any]) -> TableSummary | None:
    if values[0] is None:
        return None
    table, title, options, seats, seed, status, created_ms, last_seq, updated_ms, rules_version, seats_version = values
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
        seats_version=int(seats_version or 0),
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
        self._clear_note = redis.register_script(_CLEAR_NOTE)
        self._reserve = redis.register_script(_lua("reserve.lua"))
        self._release = redis.register_script(_lua("release.lua"))

    # --- tables ---------------------------------------------------------------------------

    async def reserve_open(self, table: str, owner: str, now_ms: int, expires_ms: int, per_owner: int,
                           overall: int) -> str:
        """Count a new unstarted table against the budget: `ok`, or `client` (the address
        holds `per_owner` unstarted tables) / `all` (the store holds `overall`), then nothing
        is reserved. The place is freed by `release_open` or at `expires_ms`."""
        return _text(await self._reserve(
            keys=[keys.PENDING, keys.pending_key(owner), keys.PENDING_OWNERS],
            args=[keys.check_table_id(table), owner, now_ms, expires_ms, per_owner, overall],
        ))

    async def release_open(self, table: str) -> None:
        await self._release(keys=[keys.PENDING, keys.PENDING_OWNERS], args=[table, keys.pending_key("")])

    async def create_table(self, meta: TableMeta, ttl_ms: int = 0) -> None:
        """Store a new table's meta and list it; raises TableExists if the id is taken.

        With `ttl_ms` the table expires unless an action is logged within it (the append
        sets the table's expiry from then on). All or nothing: if a write fails (a full
        Redis), what was written is deleted again - deletes pass a full Redis - and the error
        is raised; a process that dies in between leaves a meta that expires by itself."""
        table = keys.check_table_id(meta.table)
        fields: list[str | bytes] = [
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
        created: Any = await self._create(keys=[keys.meta_key(table)], args=[ttl_ms, *fields])
        if not created:
            raise TableExists(table)
        # Separate commands: `rh:tables` lives in another slot. Listed only once the meta exists.
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zadd(keys.TABLES, {table: meta.created_ms})
                pipe.zadd(keys.status_key(meta.status), {table: meta.created_ms})
                await pipe.execute()
        except BaseException:
            await self._forget(table, meta.status)
            raise

    async def _forget(self, table: str, status: str) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(keys.TABLES, table)
            pipe.zrem(keys.status_key(status), table)
            pipe.unlink(keys.meta_key(table))
            await pipe.execute()

    async def remove_new_table(self, table: str, status: str) -> None:
        """Undo a creation that failed after `create_table` (nothing was logged yet)."""
        await self._forget(table, status)

    async def index_status(self, table: str, created_ms: int, status: str) -> None:
        """Move the table to the listing index of `status` (after the append that changed it).

        Not atomic with the append (another slot): if the process dies in between, the
        table stays in its old index until a listing of that status finds the meta
        disagreeing and moves it (`list_tables`). A table that started leaves the unstarted
        budget (`reserve_open`) here too."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(keys.status_key(status), {table: created_ms})
            for other in STATUSES:
                if other != status:
                    pipe.zrem(keys.status_key(other), table)
            if status != OPEN:
                await self._release(keys=[keys.PENDING, keys.PENDING_OWNERS], args=[table, keys.pending_key("")],
                                    client=pipe)
            await pipe.execute()

    async def build_status_index(self, page: int = 1000) -> int:
        """Index every listed table by status, once per store (tables made before the index
        existed); later calls return at once. Safe to run from several replicas. Returns the
        number of tables indexed."""
        if await self.redis.exists(keys.STATUS_INDEX_BUILT):
            return 0
        done, start = 0, 0
        while True:
            rows: Any = await self.redis.zrange(keys.TABLES, start, start + page - 1, withscores=True)
            if not rows:
                break
            async with self.redis.pipeline(transaction=False) as pipe:
                for table, _score in rows:
                    pipe.hget(keys.meta_key(_text(table)), "status")
                statuses = await pipe.execute()
            async with self.redis.pipeline(transaction=False) as pipe:
                for (table, score), status in zip(rows, statuses):
                    if status is not None and _text(status) in STATUSES:
                        pipe.zadd(keys.status_key(_text(status)), {table: score})
                        done += 1
                await pipe.execute()
            start += len(rows)
        await self.redis.set(keys.STATUS_INDEX_BUILT, b"1")
        return done

    async def get_meta(self, table: str) -> TableSummary | None:
        """The table's meta (a TableSummary: TableMeta plus last_seq), or None."""
        if not keys.TABLE_ID.match(table):
            return None
        values: Any = await self.redis.hmget(keys.meta_key(table), _META_FIELDS)
        return _summary(values)

    async def set_seat(self, table: str, index: int, seat: SeatSpec) -> int:
        """Replace seat `index` of the table's meta (a seat handed to a bot or back), atomically
        with respect to other seat changes. Returns the new seats_version (> 0), or 0 if there
        is no such seat; UnknownTable."""
        done = await self._set_seat(keys=[keys.meta_key(keys.check_table_id(table))],
                                    args=[index, _json.encode(seat)])
        if done == 0:
            raise UnknownTable(table)
        return max(0, int(done))

    async def get_seats(self, table: str) -> tuple[list[SeatSpec], int] | None:
        """The table's seats and seats_version, or None."""
        seats, version = await self.redis.hmget(keys.meta_key(table), ("seats", "seats_version"))
        return None if seats is None else (_seats_dec.decode(seats), int(version or 0))

    async def list_tables(
        self, limit: int = 50, offset: int = 0, status: str | None = None
    ) -> tuple[list[TableSummary], int | None]:
        """Newest first. Returns (tables, next offset or None at the end).

        With `status`, the page is read from that status's index, so the cost is the page's,
        whatever the number of tables; `offset` counts positions in that index. The meta hash
        is the truth: an entry whose meta says otherwise (a process died between an append
        and the index update) is moved to its right index and skipped.
        """
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        found: list[TableSummary] = []
        index = keys.TABLES if status is None else keys.status_key(status)
        while len(found) < limit:
            ids: Any = await self.redis.zrevrange(index, offset, offset + limit - 1)
            if not ids:
                return found, None
            async with self.redis.pipeline(transaction=False) as pipe:
                for table in ids:
                    pipe.hmget(keys.meta_key(_text(table)), _META_FIELDS)
                rows = await pipe.execute()
            moved = 0  # entries that left this index: the positions after them moved up
            for i, row in enumerate(rows):
                summary = _summary(row)
                if summary is None:  # expired (docs/running.md#the-stores-budget): unlisted now
                    await self._unlist(_text(ids[i]))
                    moved += 1
                    continue
                if status and summary.status != status:
                    await self.index_status(summary.table, summary.created_ms, summary.status)
                    moved += 1
                    continue
                found.append(summary)
                if len(found) == limit:
                    return found, offset + i + 1 - moved
            offset += len(ids) - moved
            if len(ids) < limit:
                return found, None
        return found, offset

    async def _unlist(self, table: str) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(keys.TABLES, table)
            for status in STATUSES:
                pipe.zrem(keys.status_key(status), table)
            await pipe.execute()

    async def mark_attention(self, table: str, note: Attention) -> None:
        """Record that the table's log no longer folds (see shared/store/loader.py). The log
        itself is left as it is: nothing is lost, and a fixed engine folds it again."""
        await self.redis.hset(keys.meta_key(table), "attention", _json.encode(note))

    async def get_attention(self, table: str) -> Attention | None:
        raw = await self.redis.hget(keys.meta_key(table), "attention")
        return None if raw is None else msgspec.json.decode(raw, type=Attention)

    # --- the log ------------------------------------------------------------------------------

    async def last_seq(self, table: str) -> int:
        top: Any = await self.redis.xrevrange(keys.log_key(table), count=1)
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
        ttl_ms: int = 0,
    ) -> AppendOutcome:
        """Append `action_json` as seq expected_seq + 1 iff the log ends at `expected_seq` and
        (seat, idem_key) was never used; `reply` is stored with it for retries. One round trip.
        The table's meta and log then expire `ttl_ms` from now (0: never). Raises
        UnknownTable if the table has no meta."""
        result = await self._append(
            keys=[keys.log_key(table), keys.idem_key(table, seat, idem_key), keys.meta_key(table)],
            args=[expected_seq, seat, action_json, idem_key, now_ms, reply, self.idem_ttl_ms, status or "", ttl_ms],
        )
        kind = result[0]
        if kind == b"ok":
            return AppendOutcome("ok", int(result[1]), seats_version=int(result[2]))
        if kind == b"conflict":
            return AppendOutcome("conflict", int(result[1]))
        if kind == b"duplicate":
            return AppendOutcome("duplicate", 0, result[2])
        raise UnknownTable(table)

    async def idem_reply(self, table: str, seat: int, key: str) -> bytes | None:
        reply: Any = await self.redis.get(keys.idem_key(table, seat, key))
        return reply

    async def read(self, table: str, after_seq: int, count: int | None = None) -> list[LoggedAction]:
        """Entries with seq > after_seq, oldest first (at most `count`)."""
        entries: Any = await self.redis.xrange(keys.log_key(table), f"{after_seq + 1}-0", "+", count=count)
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
        streams: Any = {keys.log_key(t): f"{seq}-0" for t, seq in positions.items()}
        reply = await self.redis.xread(streams, block=block_ms)
        out: dict[str, list[LoggedAction]] = {}
        for key, entries in _per_stream(reply):
            out[keys.table_of_log_key(key)] = [_entry(i, f) for i, f in entries]
        return out

    # --- snapshots (a cache: deleting them changes no result) ----------------------------------

    async def save_snapshot(self, table: str, seq: int, blob: bytes, ttl_ms: int = 0) -> None:
        """`ttl_ms`: the table's own expiry, so a snapshot does not outlive its table."""
        await self.redis.set(keys.snap_key(table), str(seq).encode() + b":" + blob, px=ttl_ms or None)

    async def load_snapshot(self, table: str) -> tuple[int, bytes] | None:
        raw: Any = await self.redis.get(keys.snap_key(table))
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

    async def publish_turn(self, table: str, seq: int, seats: list[int], bots_only: bool = False,
                           noted_ms: int | None = None) -> str:
        """Tell bot workers that `seats` of `table` must act at `seq`. Tables where a person
        sits go to the stream read first (keys.TURNS), bot-only ones to keys.TURNS_BOTS.
        With `noted_ms`, the `expect_turn` note is cleared in the same round trip."""
        fields: Any = {"table": table, "seq": seq, "seats": _json.encode(sorted(seats))}
        stream = keys.TURNS_BOTS if bots_only else keys.TURNS
        if noted_ms is None:
            entry_id = await self.redis.xadd(stream, fields, maxlen=self.turns_maxlen, approximate=True)
            return _text(entry_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.xadd(stream, fields, maxlen=self.turns_maxlen, approximate=True)
            await self._clear_note(keys=[keys.ANNOUNCE], args=[table, noted_ms], client=pipe)
            entry_id, _cleared = await pipe.execute()
        return _text(entry_id)

    # --- announcements a crash could lose: rh:announce -------------------------------------

    async def expect_turn(self, table: str, now_ms: int) -> None:
        """Note, before the append that makes it so, that a bot must act at `table`; cleared
        by `turn_announced`. A note older than a grace period is a lost notice (the sweeper)."""
        await self.redis.zadd(keys.ANNOUNCE, {table: now_ms})

    async def turn_announced(self, table: str, noted_ms: int) -> None:
        """Clear the note made at `noted_ms` (a newer note, for a later turn, stays)."""
        await self._clear_note(keys=[keys.ANNOUNCE], args=[table, noted_ms])

    async def overdue_turns(self, older_than_ms: int, count: int = 100) -> list[tuple[str, int]]:
        """(table, noted ms) of notes older than `older_than_ms`, oldest first."""
        rows: Any = await self.redis.zrangebyscore(keys.ANNOUNCE, "-inf", older_than_ms, start=0, num=count, withscores=True)
        return [(_text(t), int(score)) for t, score in rows]

    # --- the turn streams, read by bot workers through a consumer group ---------------------

    async def ensure_turn_group(self, group: str, start: str = "$") -> None:
        """Create the consumer group (and the streams) unless it exists. A new group sees turns
        published from now on (`start="0"`: from the oldest kept)."""
        for stream in keys.TURN_STREAMS:
            try:
                await self.redis.xgroup_create(stream, group, id=start, mkstream=True)
            except aioredis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    async def read_turns(self, group: str, consumer: str, count: int = 10, block_ms: int | None = None,
                         streams: tuple[str, ...] = keys.TURN_STREAMS) -> list[TurnNotice]:
        """New turns for this consumer from `streams` (up to `count` from each); each is
        delivered to one consumer of the group. Tables with a person come first."""
        reply = await self.redis.xreadgroup(group, consumer, {s: ">" for s in streams}, count=count, block=block_ms)
        found = [_turn(i, f, _text(k)) for k, entries in _per_stream(reply) for i, f in entries if f]
        found.sort(key=lambda n: n.stream != keys.TURNS)
        return found

    async def ack_turns(self, group: str, *ids: str, stream: str = keys.TURNS) -> int:
        return await self.redis.xack(stream, group, *ids) if ids else 0

    async def claim_stale_turns(self, group: str, consumer: str, min_idle_ms: int, count: int = 10) -> list[TurnNotice]:
        """Take over turns another consumer read but did not ack within min_idle_ms (it crashed)."""
        found: list[TurnNotice] = []
        for stream in keys.TURN_STREAMS:
            if len(found) >= count:
                break
            try:
                reply = await self.redis.xautoclaim(stream, group, consumer, min_idle_ms, "0-0", count=count - len(found))
            except aioredis.ResponseError as exc:
                if "NOGROUP" in str(exc):
                    continue  # a group made before this stream existed: nothing pending there
                raise
            # XAUTOCLAIM returns [next start id, entries(, deleted ids on Redis 7)]; trimmed entries come back as None.
            found += [_turn(i, f, stream) for i, f in reply[1] if f]
        return found


def _per_stream(reply: Any) -> list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]:
    """XREAD/XREADGROUP replies as (key, entries): RESP2 gives a list of pairs; redis-py over
    RESP3 gives a map whose values wrap the entries in one more list."""
    if not reply:
        return []
    if isinstance(reply, dict):
        return [(k, v[0] if v and isinstance(v[0], list) else v) for k, v in reply.items()]
    return [(k, v) for k, v in reply]


def _turn(entry_id: bytes, fields: dict[bytes, bytes], stream: str) -> TurnNotice:
    return TurnNotice(
        id=_text(entry_id),
        table=fields[b"table"].decode(),
        seq=int(fields[b"seq"]),
        seats=_ints_dec.decode(fields[b"seats"]),
        stream=stream,
    )
