"""The event store: one Redis stream per table, appended by one atomic Lua script.

The client must be created with `decode_responses=False` (entries carry raw JSON bytes), and
its socket timeout, if any, must exceed the `block_ms` given to `tail`/`tail_many`.
"""

from __future__ import annotations

import asyncio
import os
from importlib.resources import files
from typing import Any, NamedTuple

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

from shared.clock import ClockEvent, ClockRecord
from shared.engine import Result
from shared.store import keys
from shared.store.budget import Budget
from shared.store.connect import is_cluster_client
from shared.store.models import (
    FINISHED,
    OPEN,
    STATUSES,
    AppendOutcome,
    Attention,
    LoggedAction,
    ReplicaAckTimeout,
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
_clock_dec = msgspec.json.Decoder(ClockRecord)
_result_dec = msgspec.json.Decoder(Result)

# Meta hash fields read back by get_meta / list_tables, in this order.
_META_FIELDS = ("table", "title", "options", "seats", "seed", "status", "created_ms", "last_seq", "updated_ms",
                "rules_version", "seats_version", "clock", "ended", "notify")


# ZREM the member only if its score is still the one given (a newer note stays).
_CLEAR_NOTE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""


def _lua(*names: str) -> str:
    """The script in `names` (several: joined, e.g. a helper prepended)."""
    return "\n".join(files("shared.store").joinpath(name).read_text() for name in names)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _entry(entry_id: bytes, fields: dict[bytes, bytes]) -> LoggedAction:
    active = fields.get(b"a")
    return LoggedAction(
        seq=int(entry_id.split(b"-", 1)[0]),
        seat=int(fields[b"seat"]),
        action=fields[b"action"],
        key=fields[b"key"].decode(),
        t_ms=int(fields[b"t"]),
        active=None if active is None else _ints_dec.decode(active),
    )


def clock_event(entry_id: Any, fields: dict[Any, Any]) -> ClockEvent:
    """One entry of a table's clock stream (written by shared/store/seat.lua, abandon.lua)."""
    f = {_text(k): _text(v) for k, v in fields.items()}
    return ClockEvent(_text(entry_id), int(f["seq"]), int(f["seat"]), f["kind"], int(f["t"]),  # type: ignore[arg-type]
                      f.get("outcome", ""))


class Tailed(NamedTuple):
    """What `tail_tables` read: new log entries and new clock events, by table."""

    entries: dict[str, list[LoggedAction]]
    clock: dict[str, list[ClockEvent]]


def _summary(values: list[Any]) -> TableSummary | None:
    if values[0] is None:
        return None
    (table, title, options, seats, seed, status, created_ms, last_seq, updated_ms, rules_version, seats_version,
     clock, ended, notify) = values
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
        clock=None if clock is None else _clock_dec.decode(clock),
        ended=None if ended is None else _result_dec.decode(ended),
        notify=bool(notify),
    )


def _env_int(env: Any, name: str, default: int) -> int:
    text = env.get(name, "")
    if not text:
        return default
    if not text.isdigit():
        raise ValueError(f"{name} must be a whole number >= 0, not {text!r}")
    return int(text)


def default_shards(cluster: bool, env: Any = os.environ) -> int:
    """`ROUNDHOUSE_REDIS_SHARDS`, else 1 on a single Redis and 16 on a cluster."""
    text = env.get("ROUNDHOUSE_REDIS_SHARDS", "")
    if not text:
        return 16 if cluster else 1
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"ROUNDHOUSE_REDIS_SHARDS must be a whole number >= 1, not {text!r}")
    return int(text)


class RedisEventStore:
    def __init__(self, redis: Any, idem_ttl_ms: int = DAY_MS, turns_maxlen: int = 100_000,
                 shards: int | None = None, replica_ack: int | None = None, replica_ack_ms: int | None = None) -> None:
        if redis.get_encoder().decode_responses:
            raise ValueError("RedisEventStore needs a Redis client with decode_responses=False")
        self.redis = redis
        self.idem_ttl_ms = idem_ttl_ms
        self.turns_maxlen = turns_maxlen
        self.cluster = is_cluster_client(redis)
        self.layout = keys.Layout(default_shards(self.cluster) if shards is None else shards, tagged=self.cluster)
        # Blocked reads still waiting, kept across calls (see _Blocked): on a cluster one read
        # may name the keys of one slot only, so a multi-table or multi-shard wait is several.
        self._blocked = _Blocked()
        # Acknowledge an append only once this many replicas have it (WAIT), else raise
        # ReplicaAckTimeout after replica_ack_ms. 0: the master's word (and its AOF) suffices.
        self.replica_ack = _env_int(os.environ, "ROUNDHOUSE_REDIS_WAIT_REPLICAS", 0) if replica_ack is None else replica_ack
        self.replica_ack_ms = _env_int(os.environ, "ROUNDHOUSE_REDIS_WAIT_MS", 1000) if replica_ack_ms is None else replica_ack_ms
        # register_script runs EVALSHA and loads the script only on NOSCRIPT (once per server).
        self._append = redis.register_script(_lua("append.lua"))
        self._create = redis.register_script(_lua("create.lua"))
        self._set_seat = redis.register_script(_lua("position.lua", "seat.lua"))
        self._clear_note = redis.register_script(_CLEAR_NOTE)
        self._compact = redis.register_script(_lua("compact.lua"))
        self.pending = Budget(redis, "pending")
        self.held = Budget(redis, "held")
        self.botonly = Budget(redis, "botonly")

    # --- tables ---------------------------------------------------------------------------

    async def reserve_open(self, table: str, owner: str, now_ms: int, expires_ms: int, per_owner: int,
                           overall: int) -> str:
        """Count a new unstarted table against the budget: `ok`, or `client` (the address
        holds `per_owner` unstarted tables) / `all` (the store holds `overall`), then nothing
        is reserved. The place is freed by `release_open` or at `expires_ms`."""
        return await self.pending.reserve(keys.check_table_id(table), owner, now_ms, expires_ms, per_owner, overall)

    async def release_open(self, table: str) -> None:
        await self.pending.release(table)

    async def create_table(self, meta: TableMeta, ttl_ms: int = 0, owner: str = "") -> None:
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
        if meta.clock is not None:
            fields += ["clock", _json.encode(meta.clock)]
        if owner:  # the creating address, for the budgets (owner_of); never in a listing
            fields += ["owner", owner]
        created: Any = await self._create(keys=[keys.meta_key(table)], args=[ttl_ms, *fields])
        if not created:
            raise TableExists(table)
        # Separate commands: `rh:tables` lives in another slot. Listed only once the meta exists.
        shard = self.layout.shard_of(table)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zadd(self.layout.tables(shard), {table: meta.created_ms})
                pipe.zadd(self.layout.status(shard, meta.status), {table: meta.created_ms})
                await pipe.execute()
        except BaseException:
            await self._forget(table, meta.status)
            raise

    async def _forget(self, table: str, status: str) -> None:
        shard = self.layout.shard_of(table)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self.layout.tables(shard), table)
            pipe.zrem(self.layout.status(shard, status), table)
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
        shard = self.layout.shard_of(table)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(self.layout.status(shard, status), {table: created_ms})
            for other in STATUSES:
                if other != status:
                    pipe.zrem(self.layout.status(shard, other), table)
            await pipe.execute()
        # Their own calls: a script cannot run inside a cluster pipeline on a node lacking it.
        if status != OPEN:
            await self.pending.release(table)
        if status == FINISHED:
            await self.held.release(table)
            await self.botonly.release(table)

    async def build_status_index(self, page: int = 1000) -> int:
        """Index every listed table by status, once per store (tables made before the index
        existed); later calls return at once. Safe to run from several replicas. Returns the
        number of tables indexed."""
        done = 0
        for shard in range(self.layout.shards):
            done += await self._build_status_index(shard, page)
        return done

    async def _build_status_index(self, shard: int, page: int) -> int:
        if await self.redis.exists(self.layout.status_built(shard)):
            return 0
        done, start = 0, 0
        while True:
            rows: Any = await self.redis.zrange(self.layout.tables(shard), start, start + page - 1, withscores=True)
            if not rows:
                break
            async with self.redis.pipeline(transaction=False) as pipe:
                for table, _score in rows:
                    pipe.hget(keys.meta_key(_text(table)), "status")
                statuses = await pipe.execute()
            async with self.redis.pipeline(transaction=False) as pipe:
                for (table, score), status in zip(rows, statuses):
                    if status is not None and _text(status) in STATUSES:
                        pipe.zadd(self.layout.status(shard, _text(status)), {table: score})
                        done += 1
                await pipe.execute()
            start += len(rows)
        await self.redis.set(self.layout.status_built(shard), b"1")
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

    async def owner_of(self, table: str) -> str | None:
        """The address that created the table (None: not recorded, or no such table)."""
        owner = await self.redis.hget(keys.meta_key(table), "owner")
        return None if owner is None else _text(owner)

    async def notify_flag(self, table: str) -> bool:
        """Whether some seat of the table has turn notices set up (TableSummary.notify)."""
        return bool(await self.redis.hexists(keys.meta_key(table), "notify"))

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
        if self.layout.shards > 1:
            return await self._list_sharded(limit, offset, status)
        found: list[TableSummary] = []
        index = self.layout.tables(0) if status is None else self.layout.status(0, status)
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

    def _index(self, shard: int, status: str | None) -> str:
        return self.layout.tables(shard) if status is None else self.layout.status(shard, status)

    async def _list_sharded(self, limit: int, offset: int, status: str | None) -> tuple[list[TableSummary], int | None]:
        """`list_tables` over several shards: the first offset + limit of each, merged newest
        first (the order one sorted set would give), so a deep page costs shards × depth."""
        while True:
            async with self.redis.pipeline(transaction=False) as pipe:
                for shard in range(self.layout.shards):
                    pipe.zrevrange(self._index(shard, status), 0, offset + limit - 1, withscores=True)
                replies = await pipe.execute()
            rows = sorted(((score, table) for reply in replies for table, score in reply), reverse=True)
            page = [table for _score, table in rows[offset:offset + limit]]
            if not page:
                return [], None
            async with self.redis.pipeline(transaction=False) as pipe:
                for table in page:
                    pipe.hmget(keys.meta_key(_text(table)), _META_FIELDS)
                summaries = [_summary(row) for row in await pipe.execute()]
            stale = [s for s in summaries if s is not None and status and s.status != status]
            for summary in stale:  # moved to its right index; read the page again without it
                await self.index_status(summary.table, summary.created_ms, summary.status)
            if stale:
                continue
            found = [s for s in summaries if s is not None]
            return found, (offset + len(page) if len(rows) > offset + limit else None)

    async def _unlist(self, table: str) -> None:
        shard = self.layout.shard_of(table)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(self.layout.tables(shard), table)
            for status in STATUSES:
                pipe.zrem(self.layout.status(shard, status), table)
            await pipe.execute()

    async def mark_attention(self, table: str, note: Attention) -> None:
        """Record that the table's log no longer folds (see shared/tables/repository.py). The log
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
        active: list[int] | None = None,
    ) -> AppendOutcome:
        """Append `action_json` as seq expected_seq + 1 iff the log ends at `expected_seq` and
        (seat, idem_key) was never used; `reply` is stored with it for retries. One round trip.
        The table's meta and log then expire `ttl_ms` from now (0: never). `active`: the seats
        active after it, kept in the entry for table clocks. Raises UnknownTable if the table
        has no meta."""
        script_keys = [keys.log_key(table), keys.idem_key(table, seat, idem_key), keys.meta_key(table)]
        args = [expected_seq, seat, action_json, idem_key, now_ms, reply, self.idem_ttl_ms, status or "", ttl_ms,
                "1" if self.replica_ack else "", "" if active is None else _json.encode(sorted(active))]
        if self.replica_ack:
            result = await self._append_acked(table, script_keys, args)
        else:
            result = await self._append(keys=script_keys, args=args)
        kind = result[0]
        if kind == b"ok":
            return AppendOutcome("ok", int(result[1]), seats_version=int(result[2]))
        if kind == b"conflict":
            return AppendOutcome("conflict", int(result[1]))
        if kind == b"duplicate":
            return AppendOutcome("duplicate", 0, result[2])
        if kind == b"ended":
            return AppendOutcome("ended", int(result[1]))
        raise UnknownTable(table)

    async def _append_acked(self, table: str, script_keys: list[str], args: list[Any]) -> Any:
        """The append script, then WAIT on the same connection (a pipeline: WAIT counts the
        writes of its own connection). Raises ReplicaAckTimeout when too few replicas answer."""
        node: dict[str, Any] = {}
        if self.cluster:
            await self.redis.initialize()  # the slot map, read on first use
            node = {"target_nodes": self.redis.get_node_from_key(script_keys[0])}
        for _attempt in range(2):
            async with self.redis.pipeline(transaction=False) as pipe:
                # (execute_command: redis-py's cluster pipeline refuses its evalsha method only)
                pipe.execute_command("EVALSHA", self._append.sha, len(script_keys), *script_keys, *args)
                pipe.execute_command("WAIT", self.replica_ack, self.replica_ack_ms, **node)
                result, acked = await pipe.execute(raise_on_error=False)
            if isinstance(result, NoScriptError):  # not run: load it where it runs and go again
                await self.redis.script_load(self._append.script)
                continue
            for reply in (result, acked):
                if isinstance(reply, Exception):
                    raise reply
            if result[0] in (b"ok", b"duplicate") and int(acked) < self.replica_ack:
                seq = int(result[1]) if result[0] == b"ok" else -1
                raise ReplicaAckTimeout(table, seq, int(acked), self.replica_ack, self.replica_ack_ms)
            return result
        raise NoScriptError("the append script could not be loaded")

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
        return (await self.tail_tables(positions, {}, block_ms)).entries

    async def tail_tables(self, positions: dict[str, int], clocks: dict[str, str], block_ms: int) -> Tailed:
        """`tail_many`, and in the same XREAD the clock streams of the tables in `clocks`
        after the event id given ('0-0': from the start): whatever comes first ends the wait.
        A table's clock stream shares its log's slot, so a cluster's grouping is unchanged."""
        if block_ms <= 0:
            raise ValueError("block_ms must be > 0 (XREAD BLOCK 0 would wait forever)")
        streams = {keys.log_key(t): f"{seq}-0" for t, seq in positions.items()}
        streams.update({keys.clock_key(t): after for t, after in clocks.items()})
        if self.cluster:
            groups: dict[int, dict[str, str]] = {}
            for key, start in streams.items():
                groups.setdefault(_slot(key), {})[key] = start
            reply = await self._read_slots(list(groups.values()), block_ms)
        else:
            reply = _per_stream(await self.redis.xread(streams, block=block_ms))
        out = Tailed({}, {})
        for key, entries in reply:
            table = keys.table_of_key(key)
            if keys.is_clock_key(key):
                out.clock[table] = [clock_event(i, f) for i, f in entries]
            else:
                out.entries[table] = [_entry(i, f) for i, f in entries]
        return out

    async def _read_slots(self, groups: list[dict[str, str]], block_ms: int) -> list[Any]:
        """XREAD over several slots (a cluster): first without blocking, all slots in one
        pipeline (one round trip per node), so every table with news is in the answer as on a
        single node; if none has any, wait for the first slot that gets some."""
        await self.redis.initialize()  # the slot map, read on first use
        async with self.redis.pipeline(transaction=False) as pipe:
            for group in groups:
                pipe.execute_command(*_xread_args(group, None), target_nodes=self._node_of(next(iter(group))))
            ready = [pair for reply in await pipe.execute() for pair in _per_stream(reply)]
        if ready:
            return ready
        return await self._blocked.first(
            {tuple(sorted(g.items())): (lambda g=g: self._on_node(g, _xread_args(g, block_ms))) for g in groups})

    def _node_of(self, key: str) -> Any:
        return self.redis.get_node_from_key(key)

    async def _on_node(self, streams: dict[str, str], args: list[Any]) -> Any:
        """A stream read sent straight to the node of its slot. (redis-py would first ask a node
        which keys the command names, COMMAND GETKEYS, as for every command with movable keys.)"""
        await self.redis.initialize()
        return await self.redis.execute_command(*args, target_nodes=self._node_of(next(iter(streams))))

    async def close(self) -> None:
        """Cancel the blocked reads this store still holds (a cluster's multi-slot waits)."""
        await self._blocked.cancel_all()

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

    async def compact(self, table: str, seq: int, blob: bytes, result: Result, now_ms: int, ttl_ms: int) -> int:
        """Keep only the table's meta (with `result` as its end, unless it has one) and its
        position at `seq` (the snapshot); the log goes (compact.lua). 1 done, 0 no table,
        -2 the log moved past `seq`."""
        table = keys.check_table_id(table)
        others = [keys.clock_key(table), keys.chat_key(table), keys.mutes_key(table), keys.notify_key(table),
                  keys.outbox_key(table)]
        return int(await self._compact(
            keys=[keys.meta_key(table), keys.log_key(table), keys.snap_key(table), *others],
            args=[seq, str(seq).encode() + b":" + blob, _json.encode(result), now_ms, ttl_ms]))

    async def compacted(self, table: str) -> bool:
        return bool(await self.redis.hexists(keys.meta_key(table), "compacted_ms"))

    async def delete_snapshots(self) -> int:
        """Delete every table snapshot (on a cluster, run it against each node), except those of
        compacted tables (their only copy of the final position). Returns the count."""
        deleted = 0
        batch: list[bytes] = []

        async def flush() -> int:
            kept = [await self.compacted(keys.table_of_key(k)) for k in batch]
            gone = [k for k, keep in zip(batch, kept) if not keep]
            return int(await self.redis.unlink(*gone)) if gone else 0

        async for key in self.redis.scan_iter(match=keys.SNAP_PATTERN, count=500):
            batch.append(key)
            if len(batch) >= 500:
                deleted += await flush()
                batch = []
        if batch:
            deleted += await flush()
        return deleted

    # --- the global turn streams, read by bot workers through a consumer group ----------------

    async def publish_turn(self, table: str, seq: int, seats: list[int], bots_only: bool = False,
                           noted_ms: int | None = None) -> str:
        """Tell bot workers that `seats` of `table` must act at `seq`. Tables where a person
        sits go to the stream read first (keys.TURNS), bot-only ones to keys.TURNS_BOTS, of
        the table's shard. With `noted_ms`, the `expect_turn` note is cleared too."""
        fields: Any = {"table": table, "seq": seq, "seats": _json.encode(sorted(seats))}
        shard = self.layout.shard_of(table)
        stream = self.layout.turns(shard, keys.TURNS_BOTS if bots_only else keys.TURNS)
        if noted_ms is None:
            entry_id = await self.redis.xadd(stream, fields, maxlen=self.turns_maxlen, approximate=True)
            return _text(entry_id)
        if self.cluster:  # a cluster pipeline cannot load a script a node lacks: two round trips
            entry_id = await self.redis.xadd(stream, fields, maxlen=self.turns_maxlen, approximate=True)
            await self._clear_note(keys=[self.layout.announce(shard)], args=[table, noted_ms])
            return _text(entry_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.xadd(stream, fields, maxlen=self.turns_maxlen, approximate=True)
            await self._clear_note(keys=[self.layout.announce(shard)], args=[table, noted_ms], client=pipe)
            entry_id, _cleared = await pipe.execute()
        return _text(entry_id)

    # --- announcements a crash could lose: rh:announce -------------------------------------

    async def expect_turn(self, table: str, now_ms: int) -> None:
        """Note, before the append that makes it so, that a bot must act at `table`; cleared
        by `turn_announced`. A note older than a grace period is a lost notice (the sweeper)."""
        await self.redis.zadd(self.layout.announce(self.layout.shard_of(table)), {table: now_ms})

    async def turn_announced(self, table: str, noted_ms: int) -> None:
        """Clear the note made at `noted_ms` (a newer note, for a later turn, stays)."""
        await self._clear_note(keys=[self.layout.announce(self.layout.shard_of(table))], args=[table, noted_ms])

    async def noted_turn(self, table: str) -> int | None:
        """When the table's open note was made (ms), or None."""
        score = await self.redis.zscore(self.layout.announce(self.layout.shard_of(table)), table)
        return None if score is None else int(score)

    async def overdue_turns(self, older_than_ms: int, count: int = 100) -> list[tuple[str, int]]:
        """(table, noted ms) of notes older than `older_than_ms`, oldest first (over every shard)."""
        found: list[tuple[str, int]] = []
        for shard in range(self.layout.shards):
            rows: Any = await self.redis.zrangebyscore(self.layout.announce(shard), "-inf", older_than_ms,
                                                  start=0, num=count, withscores=True)
            found += [(_text(t), int(score)) for t, score in rows]
        found.sort(key=lambda row: row[1])
        return found[:count]

    # --- the turn streams, read by bot workers through a consumer group ---------------------

    def turn_streams(self) -> list[str]:
        """Every turn stream of this store (both kinds, every shard)."""
        return self.layout.turn_streams()

    async def ensure_turn_group(self, group: str, start: str = "$") -> None:
        """Create the consumer group (and the streams) unless it exists. A new group sees turns
        published from now on (`start="0"`: from the oldest kept)."""
        for stream in self.turn_streams():
            try:
                await self.redis.xgroup_create(stream, group, id=start, mkstream=True)
            except aioredis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    async def read_turns(self, group: str, consumer: str, count: int = 10, block_ms: int | None = None,
                         streams: tuple[str, ...] = keys.TURN_STREAMS) -> list[TurnNotice]:
        """New turns for this consumer from the streams of the kinds in `streams` (keys.TURNS,
        keys.TURNS_BOTS), up to `count` from each stream of each shard; each is delivered to
        one consumer of the group. Tables with a person come first."""
        per_shard = [{self.layout.turns(shard, kind): ">" for kind in streams} for shard in range(self.layout.shards)]
        def read(wanted: dict[str, str], block: int | None) -> Any:
            if not self.cluster:
                return self.redis.xreadgroup(group, consumer, wanted, count=count, block=block)
            return self._on_node(wanted, ["XREADGROUP", "GROUP", group, consumer, "COUNT", count,
                                                        *_xread_args(wanted, block)[1:]])

        if len(per_shard) == 1:
            replies = _per_stream(await read(per_shard[0], block_ms))
        elif block_ms is None:
            replies = []
            for wanted in per_shard:
                replies += _per_stream(await read(wanted, None))
        else:
            replies = await self._blocked.first({
                ("turns", group, consumer, count, tuple(w)): (lambda w=w: read(w, block_ms)) for w in per_shard})
        found = [_turn(i, f, _text(k)) for k, entries in replies for i, f in entries if f]
        found.sort(key=lambda n: self.layout.kind_of_stream(n.stream) != keys.TURNS)
        return found

    async def ack_turns(self, group: str, *ids: str, stream: str = keys.TURNS) -> int:
        """Ack notices of `stream` (a TurnNotice's own stream)."""
        return await self.redis.xack(stream, group, *ids) if ids else 0

    async def claim_stale_turns(self, group: str, consumer: str, min_idle_ms: int, count: int = 10) -> list[TurnNotice]:
        """Take over turns another consumer read but did not ack within min_idle_ms (it crashed)."""
        found: list[TurnNotice] = []
        for stream in self.turn_streams():
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


def _xread_args(streams: dict[str, str], block_ms: int | None) -> list[Any]:
    """XREAD [BLOCK ms] STREAMS keys... ids..."""
    block = ["BLOCK", block_ms] if block_ms is not None else []
    return ["XREAD", *block, "STREAMS", *streams.keys(), *streams.values()]


def _slot(key: str) -> int:
    """The Redis Cluster hash slot of `key` (CRC16 of its hash tag)."""
    from redis.crc import key_slot

    return key_slot(key.encode())


class _Blocked:
    """Blocking reads that outlive the call that started them. On a cluster one XREAD names the
    keys of one slot, so a wait over many slots is one read per slot; when the first answers,
    the others are left running (not cancelled: a cancel drops the connection, and a cancelled
    XREADGROUP may already have delivered entries) and are picked up by the next call that asks
    for the same read. A read no longer asked for is cancelled then."""

    def __init__(self) -> None:
        self.tasks: dict[Any, asyncio.Future[Any]] = {}

    async def first(self, reads: dict[Any, Any]) -> list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]:
        for key in [k for k in self.tasks if k not in reads]:
            _drop(self.tasks.pop(key))
        for key, start in reads.items():
            if key not in self.tasks:
                self.tasks[key] = asyncio.ensure_future(start())
        if not self.tasks:
            return []
        await asyncio.wait(list(self.tasks.values()), return_when=asyncio.FIRST_COMPLETED)
        out: list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]] = []
        error: BaseException | None = None
        for key in [k for k, t in self.tasks.items() if t.done()]:
            task = self.tasks.pop(key)
            if task.cancelled():
                continue
            if task.exception() is not None:
                error = error or task.exception()
                continue
            out += _per_stream(task.result())
        if error is not None and not out:
            raise error
        return out

    async def cancel_all(self) -> None:
        tasks = list(self.tasks.values())
        self.tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _drop(task: asyncio.Future[Any]) -> None:
    task.cancel()
    task.add_done_callback(lambda t: t.cancelled() or t.exception())


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
