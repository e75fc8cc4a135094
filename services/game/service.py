"""The command side, HTTP-free: create tables, validate actions with the engine, append them.

Submit path (the hot one): hot table -> seq check -> engine check -> one Lua append (which
checks seq and idempotency key atomically) -> fold -> reply: one Redis round trip. Refusals
look up the stored reply first (see `submit`).
"""

from __future__ import annotations

import asyncio
import base64
import copy
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from shared import auth, timesource
from shared.bots import BOT_NAMES, DEFAULT_LEVEL
from shared.clock import ClockRecord, ClockSpec, LogMark, clock_refusal
from shared.config import Config
from shared.engine import Redo, RuleError, Undo, decode_action, encode_action
from shared.failpoints import crash_point
from shared.games import get_engine
from shared.options import resolve_options
from shared.protocol.http import (
    ActionAccepted,
    CreateTable,
    LegalActions,
    SeatControlled,
    SeatGrant,
    SeatInfo,
    Status,
    TableCreated,
    TableDetail,
    TableList,
    TableSummary,
)
from shared.store import FINISHED, OPEN, RedisEventStore, SeatSpec, TableMeta
from shared.store import TableSummary as StoredTable
from shared.store.clock import ENDED, ClockStore
from shared.store.models import SeatKind
from shared.store.notify import NotifyStore
from shared.tables import Snapshot
from shared.timeline import Timeline

from services.game.clock import ClockBook, TableClock
from services.game.metrics import GameMetrics
from services.game.retention import Retention
from services.game.table_budget import TableBudget
from services.game.tables import HotTable, hot_tables
from services.http.errors import ApiError, coded
from services.http.limits import Limiter, retry_after

log = logging.getLogger("roundhouse.game")

_encoder = msgspec.json.Encoder()
# Tables with turn notices are looked at by the notifier right after each move; this is when
# they are looked at if the service dies between the append and saying so.
NOTIFY_GRACE_MS = 2000
# Tables let through between two readings of Redis's memory at most (see _check_room).
MEMORY_SAMPLE = 16


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def new_table_id() -> str:
    # 80 random bits, lowercase base32: safe in URLs, seat tokens and Redis hash tags.
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()


def summary_of(meta: StoredTable) -> dict[str, Any]:
    """The public fields of a table's meta (never the seed)."""
    return dict(
        table=meta.table,
        title=meta.title,
        status=meta.status,
        options=meta.options,
        seats=[SeatInfo(seat=i, name=s.name, kind=s.kind, level=s.level) for i, s in enumerate(meta.seats)],
        last_seq=meta.last_seq,
        created_ms=meta.created_ms,
        updated_ms=meta.updated_ms,
        clock=clock_spec(meta),
    )


def clock_spec(meta: StoredTable) -> ClockSpec | None:
    """The table's clock, or None when it has none."""
    return None if meta.clock is None or meta.clock.spec.kind == "none" else meta.clock.spec


def _checked_clock(spec: ClockSpec | None) -> ClockSpec | None:
    """The table's clock, or None for no clock; ApiError bad_clock."""
    if spec is None or spec.kind == "none":
        return None
    refusal = clock_refusal(spec, BOT_NAMES)
    if refusal:
        raise coded(*refusal)
    return spec


class Submitted(msgspec.Struct, frozen=True):
    body: bytes
    replayed: bool


class GameService:
    def __init__(self, cfg: Config, store: RedisEventStore, metrics: GameMetrics | None = None) -> None:
        self.cfg = cfg
        self.store = store
        self.metrics = metrics or GameMetrics()
        self.tables = hot_tables(store, cfg.hot_tables, self.metrics)
        self.clock_store = ClockStore(store)
        self.clocks = ClockBook(self.clock_store, cfg.hot_tables)
        self.notify_store = NotifyStore(store)
        self._background: set[asyncio.Task[Any]] = set()
        # Undo and redo entries per table (in this process): a seat looping undo/redo would
        # otherwise grow the log without bound while the game stands still.
        self.undo_churn = Limiter(cfg.limit_undo)
        self.budget = TableBudget(cfg, store, self.metrics)
        self.retention = Retention(self)
        self._memory: tuple[int, int] = (0, 0)  # Redis used_memory, maxmemory
        self.watch: Any = None  # the ClockWatch, when the app runs one
        self._memory_at = -1e9
        self._passed = 0  # tables let through since INFO was read

    # --- tables ---------------------------------------------------------------------------------

    def table_ttl_ms(self, status: str) -> int:
        """How long a table is kept after an action that leaves it in `status` (0: forever)."""
        cfg = self.cfg
        ttl = {OPEN: cfg.table_open_ttl, FINISHED: cfg.table_finished_ttl}.get(status, cfg.table_idle_ttl)
        return int(ttl * 1000)

    async def _check_room(self) -> None:
        """Refuse new tables once Redis is within `store_reserve` of its maxmemory, so the
        tables already playing keep room for their moves. INFO is read once a second, after
        every MEMORY_SAMPLE tables this process let through since, and for every table once
        used memory is within twice the reserve: a flood then overshoots by no more than the
        creations in flight, never by a second's worth."""
        reserve = self.cfg.store_reserve
        if reserve <= 0:
            return
        now = time.monotonic()
        used, cap = self._memory
        near = cap and used >= cap * (1.0 - 2 * reserve)
        if near or now - self._memory_at > 1.0 or self._passed >= MEMORY_SAMPLE:
            info = await self.store.redis.info("memory")
            self._memory = (int(info.get("used_memory", 0)), int(info.get("maxmemory", 0)))
            self._memory_at = now
            self._passed = 0
        used, cap = self._memory
        self._passed += 1
        if cap and used >= cap * (1.0 - reserve):
            self.metrics.store_refusals.inc("reserve")
            raise coded("store_full", f"the event store is within {reserve:.0%} of its memory cap: no new tables "
                                      "(moves at existing tables go on); retry later, not at once")

    async def create_table(self, req: CreateTable, owner: str = "local") -> TableCreated:
        """A new table, counted against `owner`'s (a client address) and the store's budget."""
        engine = get_engine(req.title)  # RuleError unknown_title
        n = len(req.seats)
        if not engine.meta.min_players <= n <= engine.meta.max_players:
            raise coded("bad_seats", f"{req.title} seats {engine.meta.min_players}-{engine.meta.max_players} players, not {n}")
        for i, seat in enumerate(req.seats):
            if seat.kind == "human" and seat.level is not None:
                raise coded("bad_seats", f"seat {i} is human: only bot seats have a level")
            if seat.kind == "bot" and seat.level is not None and seat.level not in BOT_NAMES:
                raise coded("unknown_bot", f"seat {i}: unknown bot level {seat.level!r}; levels are {', '.join(BOT_NAMES)}")
        options = resolve_options(engine.meta, req.options)  # RuleError bad_options
        spec = _checked_clock(req.clock)
        seed = req.seed if req.seed is not None else secrets.randbits(63)
        names = [s.name for s in req.seats]
        timeline = Timeline(engine, names, options, seed)  # the title checks option values: RuleError
        created = timesource.now_ms()
        seats = [SeatSpec(s.name, s.kind, s.level) for s in req.seats]
        # Kept for every table, clocked or not: where turns began is what turn notices follow too.
        record = ClockRecord(spec=spec or ClockSpec(), start_ms=created, active=sorted(engine.active_seats(timeline.state)),
                             bots=[i for i, s in enumerate(seats) if s.kind == "bot"])
        await self._check_room()
        ttl = self.table_ttl_ms(OPEN)
        table = new_table_id()
        await self.budget.take_new(table, owner, created, all(s.kind == "bot" for s in seats))
        meta = TableMeta(table=table, title=req.title, options=options, seats=seats,
                         seed=seed, status=OPEN, created_ms=created, rules_version=engine.meta.rules_version,
                         clock=record)
        try:
            # An 80-bit random id is never taken in practice; TableExists would be a bug.
            await self.store.create_table(meta, ttl_ms=ttl, owner=owner)
            stored = StoredTable(**msgspec.structs.asdict(meta), last_seq=0, updated_ms=created)
            hot = HotTable(stored, engine, timeline)
            noted = await self._expect_turn(hot, hot.active_seats())
            await self._announce_turn(hot, noted=noted)
            if record.spec.kind != "none":
                await self.clocks.publish(table, record, len(seats))
        except BaseException:
            # All or nothing (a full Redis, a lost connection): the client is told nothing was made.
            await asyncio.shield(self._undo_creation(table))
            raise
        self.tables.add(hot)
        self.metrics.tables_created.inc()
        grants = []
        for i, s in enumerate(seats):
            token = auth.issue(self.cfg.secret, meta.table, i) if s.kind == "human" else None
            # From the configured public URL, never the request's Host header (which a client
            # chooses); without one the link is relative to wherever the page is served.
            invite = f"{self.cfg.public_url}/#table={meta.table}&token={token}" if token else None
            grants.append(SeatGrant(seat=i, name=s.name, kind=s.kind, level=s.level, token=token, invite_url=invite))
        return TableCreated(table=meta.table, title=meta.title, status="open", seq=0,
                            active_seats=hot.active_seats(), seats=grants)

    async def _undo_creation(self, table: str) -> None:
        try:
            await self.store.remove_new_table(table, OPEN)
            await self.budget.release(table)
        except Exception as exc:  # noqa: BLE001 - the meta expires by itself (table_open_ttl)
            log.warning("could not remove the half-created table %s: %s", table, exc)

    async def list_tables(self, limit: int, offset: int, status: str | None) -> TableList:
        found, nxt = await self.store.list_tables(limit=limit, offset=offset, status=status)
        return TableList(tables=[TableSummary(**summary_of(m)) for m in found], next_offset=nxt)

    async def _current(self, table: str) -> HotTable:
        """The table caught up; for one that may end on time (abandon), its end re-read too:
        another replica's clock watch may have ended it."""
        hot = await self.tables.current(table)
        spec = clock_spec(hot.meta)
        if spec is not None and spec.on_timeout == "abandon" and hot.meta.ended is None:
            fresh = await self.store.get_meta(table)
            if fresh is not None:
                hot.meta.ended = fresh.ended
        return hot

    async def table_detail(self, table: str) -> TableDetail:
        hot = await self._current(table)
        fields = summary_of(hot.meta)
        fields.update(status=hot.status, last_seq=hot.seq)
        return TableDetail(**fields, active_seats=hot.active_seats(), result=hot.result())

    async def table_clock(self, table: str) -> tuple[StoredTable, TableClock | None, int]:
        """The table's meta, its clock as stored now (None: no clock) and its seq."""
        hot = await self.tables.current(table)
        meta = hot.meta
        if meta.clock is None or clock_spec(meta) is None:
            return meta, None, hot.seq
        # Seats and an early end may change on another replica: the meta read on both sides of
        # the clock's, until they agree (a timeout changes the seat and the clock at once).
        for _attempt in range(3):
            before = await self.store.get_meta(table)
            clock = await self.clocks.current(table, meta.clock, len(meta.seats))
            fresh = await self.store.get_meta(table)
            if fresh is None:
                break
            hot.set_seats(fresh.seats, fresh.seats_version)
            meta.ended = fresh.ended
            if before is not None and before.seats_version == fresh.seats_version:
                break
        return meta, clock, hot.seq

    async def seats_changed(self, table: str) -> list[SeatSpec]:
        """Re-read the seats after a handover (this process's copy of the table follows)."""
        fresh = await self.store.get_seats(table)
        if fresh is None:
            return []
        hot = self.tables.peek(table)
        if hot is not None:
            hot.set_seats(*fresh)
        return fresh[0]

    async def legal_actions(self, table: str, seat: int) -> LegalActions:
        hot = await self._current(table)
        if seat >= len(hot.meta.seats):
            raise RuleError("bad_seat", f"seat {seat} does not exist at this table")
        state = hot.timeline.state
        if hot.meta.ended is not None:  # ended on time: nothing more to do
            return LegalActions(table=table, seat=seat, seq=hot.seq, active=False, actions=[], undo=False)
        return LegalActions(
            table=table,
            seat=seat,
            seq=hot.seq,
            active=seat in hot.engine.active_seats(state),
            actions=hot.engine.legal_actions(state, seat),
            undo=hot.timeline.can_undo(seat),
        )

    # --- actions ---------------------------------------------------------------------------------

    async def submit(self, table: str, seat: int, expected_seq: int, key: str, raw_action: bytes) -> Submitted:
        """Validate and append one action; raises ApiError / RuleError / UnknownTable on refusal.

        Nothing is written unless the action is accepted; a retried key gets the first reply.
        The stored reply is looked up only before refusing: a retry of an accepted action is
        either stale (its expected_seq is behind the log) or, on a replica whose copy lags,
        valid again and then answered by the append script from the same record. So the
        accepted path costs one Redis round trip, and no retry is ever refused.
        """
        started = time.perf_counter()
        try:
            return await self._submit(table, seat, expected_seq, key, raw_action)
        except (ApiError, RuleError) as refusal:
            stored = await self.store.idem_reply(table, seat, key)
            if stored is not None:
                self.metrics.replays.inc()
                return Submitted(stored, True)
            if isinstance(refusal, RuleError):
                self.metrics.rule_errors.inc(refusal.code)
            elif refusal.code == "stale_seq":
                self.metrics.conflicts.inc()
            raise
        finally:
            self.metrics.submit_seconds.observe(time.perf_counter() - started)

    async def _submit(self, table: str, seat: int, expected_seq: int, key: str, raw_action: bytes) -> Submitted:
        hot = await self.tables.get(table)
        try:
            action = decode_action(hot.engine, raw_action)
        except RecursionError:
            raise coded("bad_json", "action: JSON nested too deeply") from None
        except RuleError as exc:
            if exc.code == "bad_json":
                raise coded("bad_json", f"action: {exc.message}") from None
            raise
        async with hot.lock:
            if expected_seq > hot.seq:
                await self.tables.catch_up(hot)  # another replica appended: read just the gap
            if expected_seq != hot.seq:
                raise coded("stale_seq", f"the table is at seq {hot.seq}, not {expected_seq}", hot.seq)
            if hot.seq >= self.cfg.max_log > 0:
                raise coded("log_full", f"the table's log holds {hot.seq} entries, the most this server keeps")
            if hot.meta.ended is not None:
                raise coded("table_ended", "the table has ended: a seat ran out of time")
            pending = hot.timeline.check(seat, action)
            if isinstance(action, (Undo, Redo)):
                # Only an undo the rules accept counts: refused ones write nothing, and must
                # not use up the allowance the table's other seats share.
                wait = self.undo_churn.take(table)
                if wait:
                    raise coded("too_many_undos", f"this table undid and redid too often; retry in {wait:.1f}s",
                                retry_after=retry_after(wait))
            new_state = pending.state
            engine = hot.engine
            seq = expected_seq + 1
            status_before = hot.status
            result = engine.result(new_state)
            status: Status = "finished" if result is not None else "running"
            active = sorted(engine.active_seats(new_state))
            reply = _encoder.encode(ActionAccepted(
                table=table, seq=seq, seat=seat, status=status, active_seats=active, result=result
            ))
            t = timesource.now_ms()
            clock = await self._clock_before(hot, seat, seq, t, active, isinstance(action, (Undo, Redo)))
            # Before the append: if the service dies between it and the turn notice, the note
            # is how the bot worker's sweeper finds the turn (shared/store/keys.py ANNOUNCE).
            noted = await self._expect_turn(hot, active)
            if hot.notify:  # before the append: a crash right after it still gets its notices looked at
                await self.notify_store.look_at(table, t + NOTIFY_GRACE_MS, only_earlier=True)
            started = time.perf_counter()
            outcome = await self.store.append(
                table, expected_seq, seat, encode_action(action), key, reply, t,
                status if status != status_before else None, self.table_ttl_ms(status),
                active=active,
            )
            self.metrics.append_seconds.observe(time.perf_counter() - started)
            if outcome.status != "ok" and noted is not None:
                await self.store.turn_announced(table, noted)  # nothing was appended: no turn
            if outcome.status == "duplicate":
                self.metrics.replays.inc()
                return Submitted(outcome.reply or b"", True)
            if outcome.status == "conflict":
                await self.tables.catch_up(hot)
                raise coded("stale_seq", f"the table is at seq {outcome.seq}, not {expected_seq}", outcome.seq)
            if outcome.status == "ended":
                ended = await self.store.get_meta(table)
                hot.meta.ended = ended.ended if ended is not None else hot.meta.ended
                raise coded("table_ended", "the table has ended: a seat ran out of time")
            if outcome.seats_version != hot.seats_version:
                # A seat changed hands through another replica since this copy was loaded.
                fresh = await self.store.get_seats(table)
                if fresh is not None:
                    hot.set_seats(*fresh)
                hot.notify = await self.store.notify_flag(table)
            crash_point("crash_after_append")  # test-only (shared/failpoints.py): appended, reply not yet written
            hot.timeline.commit(pending)
            status_changed = status != status_before
            self.metrics.accepted.inc()
            snapshot = self._snapshot_due(hot)
        if snapshot is not None:
            self._spawn(self.tables.save_snapshot(snapshot, self.table_ttl_ms(status)))
        if status_changed:
            await self.store.index_status(table, hot.meta.created_ms, status)
            if status_before == OPEN:
                await self.budget.started(table, t)
            await self.retention.moved(table, status, t)
        await self._announce_turn(hot, seq, active, noted)
        if clock is not None and hot.meta.clock is not None:
            await self.clocks.publish(table, hot.meta.clock, len(hot.meta.seats))
        if hot.notify:
            await self.notify_store.look_at(table, timesource.now_ms(), only_earlier=True)
        return Submitted(reply, False)

    async def set_controller(self, table: str, seat: int, kind: SeatKind, level: str | None, client: str,
                             admit_bot_table: Callable[[], Awaitable[None]]) -> SeatControlled:
        """Hand `seat` to a bot (`kind="bot"`, at `level` or the default) or back to a person.

        A handover that leaves only bots at an unfinished table takes from the same limits as
        creating a table of bots: `admit_bot_table` (the caller's per-client rate,
        ROUNDHOUSE_LIMIT_BOT_TABLES, and all clients', ROUNDHOUSE_LIMIT_BOT_TABLES_ALL) and a place in the bot-only budget of the address that
        created the table (services/game/table_budget.py): what counts is what the table is,
        not the route that made it so. A person taking a seat back gives the place back.

        The change is written to the table's meta (the bot worker reads it before every move)
        and, when the seat must act now and became a bot, a turn notice goes out at once. It
        bumps the meta's `seats_version`; every append returns it, so another replica holding
        the table re-reads the seats at its next append, before it announces a turn.
        """
        if kind == "human" and level is not None:
            raise coded("bad_request", "only a bot has a level")
        level = (level or DEFAULT_LEVEL) if kind == "bot" else None
        if level is not None and level not in BOT_NAMES:
            raise coded("unknown_bot", f"unknown bot level {level!r}; levels are {', '.join(BOT_NAMES)}")
        hot = await self.tables.current(table)  # UnknownTable: 404
        seats = hot.meta.seats
        if seat >= len(seats):
            raise RuleError("bad_seat", f"seat {seat} does not exist at this table")
        spec = SeatSpec(seats[seat].name, kind, level)
        others_bots = all(s.kind == "bot" for i, s in enumerate(seats) if i != seat)
        if kind == "bot" and others_bots and seats[seat].kind != "bot" and hot.result() is None:
            # This handover makes a table where only bots sit: the same limits as creating one.
            await admit_bot_table()
            verdict = await self.budget.only_bots(table, client, timesource.now_ms())
            if verdict != "ok":
                raise self.budget.bot_refusal(verdict)
        active = hot.active_seats()
        noted = None
        if kind == "bot" and seat in active:
            noted = now_ms()
            await self.store.expect_turn(table, noted)
        if hot.meta.clock is None:  # a table made before clocks
            version = await self.store.set_seat(table, seat, spec)
        else:  # with the clock event, in one script: the clock knows who played the seat when
            version = await self.clock_store.set_seat(table, seat, spec, kind, timesource.now_ms())
            if version == ENDED:
                await self.budget.a_person_sits(table)  # ended: it holds no bot-only place either
                raise coded("table_ended", "the table has ended: a seat ran out of time")
        if kind == "human" and others_bots:
            await self.budget.a_person_sits(table)
        fresh = await self.store.get_seats(table)  # other seats may have changed elsewhere too
        if fresh is not None:
            hot.set_seats(*fresh)
        else:
            changed = list(hot.meta.seats)
            changed[seat] = spec
            hot.set_seats(changed, version)
        if noted is not None:
            await self.store.publish_turn(table, hot.seq, [seat], bots_only=hot.bots_only, noted_ms=noted)
        if hot.meta.clock is not None and hot.meta.clock.spec.kind != "none":
            await self.clocks.publish(table, hot.meta.clock, len(hot.meta.seats))
        return SeatControlled(table=table, seat=seat, name=spec.name, kind=spec.kind, level=spec.level,
                              seq=hot.seq, active_seats=active)

    async def _clock_before(self, hot: HotTable, seat: int, seq: int, t: int, active: list[int],
                            undo: bool) -> TableClock | None:
        """For a clocked table, before its append: refuse a seat whose time is up (the clock
        watch carries out the outcome), and move the table's deadline earlier to where this
        move puts it, so a crash right after the append never leaves a later one standing."""
        record = hot.meta.clock
        if record is None or clock_spec(hot.meta) is None:
            return None
        clock = await self.clocks.current(hot.table, record, len(hot.meta.seats))
        fold = clock.fold
        if fold.charged(seat) and fold.remaining(seat, t) == 0:
            self.clock_due(hot.table)
            raise coded("out_of_time", f"seat {seat} has run out of time")
        after = copy.deepcopy(fold)
        after.entry(LogMark(seq, seat, t, active, undo))
        deadline = after.deadline()
        if deadline is not None:
            await self.clock_store.set_deadline(hot.table, deadline, only_earlier=True)
        return clock

    def clock_due(self, table: str) -> None:
        """Ask the clock watch to look at `table` now (set by the app: services/game/clock_watch.py)."""
        if self.watch is not None:
            self._spawn(self.watch.examine(table))

    def _snapshot_due(self, hot: HotTable) -> Snapshot | None:
        every = self.cfg.snapshot_every
        if every <= 0 or hot.seq % every:
            return None
        return self.tables.snapshot(hot.table, hot.timeline)  # now: the timeline moves on after the lock

    async def _expect_turn(self, hot: HotTable, active: list[int]) -> int | None:
        """Note that a bot must act next (before the write that makes it so); the note's time."""
        if not any(s in hot.bot_seats for s in active):
            return None
        noted = now_ms()
        await self.store.expect_turn(hot.table, noted)
        return noted

    async def _announce_turn(self, hot: HotTable, seq: int | None = None, active: list[int] | None = None,
                             noted: int | None = None) -> None:
        """Tell bot workers when a bot seat must act. Awaited, not spawned: a lost notice
        would leave a bot seat silent (and the note left behind lets the sweeper find it)."""
        seats = [s for s in (active if active is not None else hot.active_seats()) if s in hot.bot_seats]
        if seats:
            await self.store.publish_turn(hot.table, hot.seq if seq is None else seq, seats, bots_only=hot.bots_only,
                                          noted_ms=noted)
        elif noted is not None:
            await self.store.turn_announced(hot.table, noted)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("snapshot write failed: %s", task.exception())

    async def drain(self) -> None:
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
