"""The bot worker: reads the turn stream through a consumer group and plays bot seats.

One worker is one consumer of the group `settings.group` on `rh:turns`; any number run
side by side and Redis hands each turn notice to one of them. For a notice (table, seq,
seats) the worker folds the table's log, checks the table is still at `seq` (else a newer
notice covers the turn: it just acknowledges), computes the move of every bot seat that
must act from that seat's observation (`engine.redact`) in a process pool, and submits through the game service's
command path with `expected_seq` and the idempotency key `bot-<seq>-<seat>`. Whoever
submits a seat's move for a seq, and however often, the log gets it once.

Simultaneous decisions: all the active bot seats are computed together, then submitted
one after the other, each at the seq the previous one produced.

Fairness: tables where a person sits publish to `rh:turns`, bot-only tables to
`rh:turns:bots`; whenever a slot frees the worker reads `rh:turns` first, so a person
waiting for a bot is served before a backlog of bot-only games (at most the moves already
in hand run first).

Lost notices: the game service notes in `rh:announce` that a bot must act before the
append that makes it so, and clears the note once the notice is published. A note older
than `sweep_after_ms` means the service died in between: the sweeper re-announces that
table's turn from the folded log (a duplicate notice is harmless: see above).

Crashes: a notice is acknowledged only once handled. While a worker holds a notice it
re-claims it every `claim_idle_ms / 3` (resetting its idle time), so a live worker keeps
its turns; a dead worker's notices go idle, and every `claim_every_ms` each worker takes
over notices idle for `claim_idle_ms` (XAUTOCLAIM). A turn held by a killed worker is
therefore picked up within claim_idle_ms + claim_every_ms (6 s with the defaults).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import msgspec

from shared.bots import BOT_NAMES, DEFAULT_LEVEL
from shared.engine import RuleError
from shared.store import RedisEventStore, TurnNotice, keys
from shared.store.connect import STORE_ERRORS, AnyRedis
from shared.tables import FoldedTable, LogBroken, TableRepository

from . import compute
from .settings import BotSettings
from .submit import Outcome, Submitted, Submitter

log = logging.getLogger("roundhouse.bot")

# The worker's loops outlive anything one round raises: a loop that ended would stop, for the
# life of the process, what it does for every table (a turn failed once is retried only by
# the claim loop). redis-py's cluster client can raise other than RedisError while it reads
# the slot map again after a failover (e.g. AttributeError on a connection it closed).
_LOOP_BUG = "%s failed (a bug, logged with its traceback; the loop goes on)"

# Claim rounds between two clean-ups of departed consumers.
CLEANUP_EVERY = 60


class WorkerStats(msgspec.Struct):
    notices: int = 0  # turn notices handled (acknowledged)
    claimed: int = 0  # of which taken over from another consumer
    moves: int = 0  # moves the log accepted from this worker
    replayed: int = 0  # moves another submit with the same idempotency key had already logged
    stale: int = 0  # notices for a seq the table had already left
    refused: int = 0  # bot moves the rules refused (then replaced by a random legal move)
    retries: int = 0  # notices left for a later attempt (service or store unavailable)
    dropped: int = 0  # notices given up after settings.max_attempts
    swept: int = 0  # lost turn notices published again by the sweeper


def move_seed(table: str, seq: int, seat: int) -> int:
    """The bot's RNG seed for one decision: the same on every worker, so a turn taken over
    from a crashed worker is decided the same way (with an iteration budget)."""
    digest = hashlib.sha256(f"{table}:{seq}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _key(notice: TurnNotice) -> str:
    """Notices are told apart by stream and entry id (ids may repeat across streams)."""
    return f"{notice.stream} {notice.id}"


def idempotency_key(seq: int, seat: int) -> str:
    return f"bot-{seq}-{seat}"


def new_pool(settings: BotSettings) -> ProcessPoolExecutor:
    # spawn: a clean interpreter per process, safe to start from a running event loop.
    return ProcessPoolExecutor(
        max_workers=settings.processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=compute.init_process,
        initargs=(settings.preload, os.getpid()),
    )


class _TableLocks:
    """One lock per table, dropped once nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    def __call__(self, table: str) -> _TableLocks._Hold:
        return self._Hold(self, table)

    class _Hold:
        def __init__(self, owner: _TableLocks, table: str) -> None:
            self.owner, self.table = owner, table

        async def __aenter__(self) -> None:
            lock, users = self.owner._locks.get(self.table, (asyncio.Lock(), 0))
            self.owner._locks[self.table] = (lock, users + 1)
            await lock.acquire()

        async def __aexit__(self, *exc: object) -> None:
            lock, users = self.owner._locks[self.table]
            lock.release()
            if users == 1:
                del self.owner._locks[self.table]
            else:
                self.owner._locks[self.table] = (lock, users - 1)


class BotWorker:
    def __init__(
        self,
        redis: AnyRedis,
        submitter: Submitter,
        settings: BotSettings,
        pool_factory: Callable[[BotSettings], Executor] = new_pool,
    ) -> None:
        self.redis = redis
        self.store = RedisEventStore(redis)
        self.submitter = submitter
        self.settings = settings
        # Tables kept folded by the table repository (snapshots used), LRU.
        self.tables: TableRepository[FoldedTable] = TableRepository(self.store, settings.tables)
        self.stats = WorkerStats()
        self._pool_factory = pool_factory
        self._pool: Executor | None = None
        self._locks = _TableLocks()
        self._running: dict[str, asyncio.Task[None]] = {}
        self._attempts: dict[str, int] = {}
        self._warned: set[tuple[str, int]] = set()
        self._slot = asyncio.Event()
        self._loops: list[asyncio.Task[None]] = []
        self._stopping = False
        self._stopped = asyncio.Event()  # set by stop(): wakes the loops' waits

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Join the group and warm the compute processes; then serve in the background."""
        await self.store.ensure_turn_group(self.settings.group, start=self.settings.group_start)
        self._pool = self._pool_factory(self.settings)
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._pool, compute.ready) for _ in range(self.settings.processes)))
        self._loops = [asyncio.create_task(self._read_loop()), asyncio.create_task(self._claim_loop()),
                       asyncio.create_task(self._heartbeat_loop()), asyncio.create_task(self._sweep_loop())]
        log.info("bot worker %s joined group %s", self.settings.consumer, self.settings.group)

    async def stop(self, grace_s: float = 5.0) -> None:
        """Stop reading, let the turns in hand finish (up to `grace_s`), then shut down.
        Turns still unfinished stay pending and another worker takes them over.

        The read and claim loops are not cancelled mid-command: a turn Redis has delivered
        to (or let this worker claim) is pending under this worker's name, and a reply lost
        to a cancellation would leave it there, unhandled, until another worker claims it.
        They end after their current command (a read blocks block_ms at most), and what
        it brought is handled like any other turn in hand."""
        self._stopping = True
        self._stopped.set()
        self._slot.set()
        reading, others = self._loops[:2], self._loops[2:]
        for task in others:
            task.cancel()
        if reading:  # empty if start() failed before the loops began
            _done, late = await asyncio.wait(reading, timeout=self.settings.block_ms / 1000 + grace_s)
            for task in late:
                task.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        if self._running:
            await asyncio.wait(list(self._running.values()), timeout=grace_s)
        for task in list(self._running.values()):
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)
        await self.store.close()
        await self.submitter.close()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # --- the three loops ------------------------------------------------------------------------

    def _free(self) -> int:
        return self.settings.inflight - len(self._running)

    async def _read_loop(self) -> None:
        while not self._stopping:
            free = self._free()
            if free <= 0:
                self._slot.clear()
                await self._slot.wait()
                continue
            try:
                notices = await self._next_turns(free)
            except STORE_ERRORS as exc:
                log.warning("reading the turn stream failed: %s", exc)
                await asyncio.sleep(1.0)
                continue
            except Exception:  # noqa: BLE001 - see _LOOP_BUG
                log.exception(_LOOP_BUG, "reading the turn stream")
                await asyncio.sleep(1.0)
                continue
            for notice in notices:
                self._spawn(notice, claimed=False)
            if self._stopping:
                return

    async def _next_turns(self, free: int) -> list[TurnNotice]:
        """Up to `free` notices: tables with a person first, then bot-only tables; if neither
        has any, wait for the first of either (one each at most, so `inflight` holds)."""
        s = self.settings
        for stream in keys.TURN_STREAMS:
            notices = await self.store.read_turns(s.group, s.consumer, count=free, streams=(stream,))
            if notices:
                return notices
        return await self.store.read_turns(s.group, s.consumer, count=1, block_ms=s.block_ms)

    async def _claim_loop(self) -> None:
        s = self.settings
        rounds = 0
        while not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), s.claim_every_ms / 1000)
            if self._stopping:
                return
            rounds += 1
            if rounds % CLEANUP_EVERY == 0:
                await self._forget_departed()
            free = self._free()
            if free <= 0:
                continue
            try:
                notices = await self.store.claim_stale_turns(s.group, s.consumer, s.claim_idle_ms, count=free)
            except STORE_ERRORS as exc:
                log.warning("claiming stale turns failed: %s", exc)
                continue
            except Exception:  # noqa: BLE001 - see _LOOP_BUG
                log.exception(_LOOP_BUG, "claiming stale turns")
                continue
            for notice in notices:
                if _key(notice) not in self._running:
                    self._spawn(notice, claimed=True)

    async def _forget_departed(self) -> None:
        """Remove consumers of workers long gone (nothing pending, idle for an hour): every
        restart joins under a new name, and the group's consumer list would only grow."""
        try:
            for stream in self.store.turn_streams():
                for consumer in await self.redis.xinfo_consumers(stream, self.settings.group):
                    name = consumer["name"].decode() if isinstance(consumer["name"], bytes) else consumer["name"]
                    idle = consumer["idle"] > self.settings.forget_after_ms
                    if name != self.settings.consumer and not consumer["pending"] and idle:
                        await self.redis.xgroup_delconsumer(stream, self.settings.group, name)
        except STORE_ERRORS as exc:
            log.warning("cleaning up departed consumers failed: %s", exc)
        except Exception:  # noqa: BLE001 - see _LOOP_BUG
            log.exception(_LOOP_BUG, "cleaning up departed consumers")

    async def _heartbeat_loop(self) -> None:
        """Keep the notices in hand from going idle, so no other worker takes them over."""
        s = self.settings
        while not self._stopping:
            await asyncio.sleep(s.claim_idle_ms / 3000)
            held: dict[str, list[int | bytes | str | memoryview]] = {}
            for key in self._running:
                stream, _, entry_id = key.partition(" ")
                held.setdefault(stream, []).append(entry_id)
            try:
                for stream, ids in held.items():
                    await self.redis.xclaim(stream, s.group, s.consumer, 0, ids, justid=True)
            except STORE_ERRORS as exc:
                log.warning("refreshing held turns failed: %s", exc)
            except Exception:  # noqa: BLE001 - see _LOOP_BUG
                log.exception(_LOOP_BUG, "refreshing held turns")

    async def _sweep_loop(self) -> None:
        """Publish again the turns whose notice was lost (see the module docstring)."""
        s = self.settings
        while not self._stopping:
            await asyncio.sleep(s.sweep_every_ms / 1000)
            try:
                overdue = await self.store.overdue_turns(int(time.time() * 1000) - s.sweep_after_ms)
                for table, noted in overdue:
                    await self._sweep(table, noted)
            except STORE_ERRORS as exc:
                log.warning("sweeping for lost turn notices failed: %s", exc)
            except Exception:  # noqa: BLE001 - see _LOOP_BUG
                log.exception(_LOOP_BUG, "sweeping for lost turn notices")

    async def _sweep(self, table: str, noted: int) -> None:
        async with self._locks(table):
            meta = await self.store.get_meta(table)
            seats: list[int] = []
            if meta is not None:
                try:
                    cached = await self.tables.current(table)
                except (RuleError, LogBroken) as exc:  # nothing a bot can play there
                    log.warning("table %s: not swept: %s", table, exc)
                else:
                    cached.meta = meta
                    active = cached.engine.active_seats(cached.timeline.state)
                    seats = sorted(i for i in active if i < len(meta.seats) and meta.seats[i].kind == "bot")
                    if seats:
                        bots_only = all(seat.kind == "bot" for seat in meta.seats)
                        await self.store.publish_turn(table, cached.seq, seats, bots_only=bots_only)
                        self.stats.swept += 1
                        log.info("table %s: turn notice for seq %d was lost; announced again", table, cached.seq)
            await self.store.turn_announced(table, noted)

    # --- one notice ---------------------------------------------------------------------------

    def _spawn(self, notice: TurnNotice, claimed: bool) -> None:
        self._running[_key(notice)] = asyncio.create_task(self._run(notice, claimed))

    async def _run(self, notice: TurnNotice, claimed: bool) -> None:
        try:
            failed = False  # the turn itself failed (a bug), not the store or the service
            try:
                finished = await self._handle(notice)
            except asyncio.CancelledError:
                raise
            except STORE_ERRORS as exc:
                # Redis restarting or unreachable: expected, and retried; one line, no traceback.
                log.warning("turn %s of table %s: the store is unavailable (%s: %s); will retry",
                            notice.seq, notice.table, type(exc).__name__, " ".join(str(exc).split())[:200])
                finished = False
            except Exception:  # noqa: BLE001 - one bad turn must not stop the worker
                log.exception("turn %s of table %s failed", notice.seq, notice.table)
                finished, failed = False, True
            if not finished and not failed:
                # Unavailable (a Redis failover, a game service restarting): retried for as long
                # as it lasts. Dropping it would leave the table waiting on a bot for good.
                self.stats.retries += 1
                return  # stays pending: claimed again once idle
            if not finished:
                attempts = self._attempts.get(_key(notice), 0) + 1
                self._attempts[_key(notice)] = attempts
                if attempts < self.settings.max_attempts:
                    self.stats.retries += 1
                    return  # stays pending: claimed again once idle
                log.error("giving up turn %s of table %s after %d attempts", notice.seq, notice.table, attempts)
                self.stats.dropped += 1
            self._attempts.pop(_key(notice), None)
            try:
                await self.store.ack_turns(self.settings.group, notice.id, stream=notice.stream)
            except STORE_ERRORS as exc:  # still pending: handled again (as stale) later
                log.warning("acknowledging turn %s of table %s failed: %s", notice.seq, notice.table, exc)
                return
            self.stats.notices += 1
            self.stats.claimed += claimed
        finally:
            self._running.pop(_key(notice), None)
            self._slot.set()

    async def _handle(self, notice: TurnNotice) -> bool:
        """Play the notice's bot seats. True: done with it (ack); False: try again later."""
        async with self._locks(notice.table):
            meta = await self.store.get_meta(notice.table)
            if meta is None:
                return True
            if meta.last_seq != notice.seq:  # moved on (or over): no need to fold the log
                self.stats.stale += 1
                return True
            try:
                table = await self.tables.current(notice.table)
            except RuleError as exc:  # a title this worker does not have: nothing it can play
                log.warning("table %s: %s", notice.table, exc.message)
                return True
            except LogBroken as exc:  # marked for attention by the loader: nothing to play
                log.warning("%s", exc)
                return True
            table.meta = meta  # fresh: a seat may have changed hands since the table was loaded
            if table.seq != notice.seq:
                self.stats.stale += 1
                return True
            active = table.engine.active_seats(table.timeline.state)
            seats = [
                s for s in notice.seats
                if s in active and s < len(table.meta.seats) and table.meta.seats[s].kind == "bot"
            ]
            if not seats:
                return True
            state = table.timeline.state
            engine = table.engine
            views = [compute.encode_observation(engine.redact(state, seat, move_seed(table.table, notice.seq, seat)))
                     for seat in seats]
            moves = await asyncio.gather(*(self._compute(table, seat, view) for seat, view in zip(seats, views)))
            seq = notice.seq
            for seat, view, move in zip(seats, views, moves):
                if not await self._still_a_bot(table.table, seat):
                    break  # handed back to its person while the bot was thinking
                done = await self._submit(table, seat, seq, view, move, first=seq == notice.seq)
                if done.outcome is Outcome.ACCEPTED:
                    if done.replayed:
                        self.stats.replayed += 1
                    else:
                        self.stats.moves += 1
                    seq = done.seq
                    continue
                if done.outcome is Outcome.RETRY:
                    log.warning("table %s seq %d seat %d: %s %s", table.table, seq, seat, done.code, done.message)
                    return False
                break  # stale or refused after another seat moved: a newer notice covers it
            return True

    async def _still_a_bot(self, table: str, seat: int) -> bool:
        meta = await self.store.get_meta(table)
        return meta is not None and seat < len(meta.seats) and meta.seats[seat].kind == "bot"

    async def _submit(self, table: FoldedTable, seat: int, seq: int, view: bytes, move: bytes | None,
                      first: bool) -> Submitted:
        key = idempotency_key(seq, seat)
        if move is not None:
            done = await self.submitter.submit(table.table, seat, seq, key, move)
            if done.outcome is not Outcome.REFUSED or not first:
                return done
            log.warning("table %s seq %d: the %s bot's move was refused (%s: %s); playing a random legal move",
                        table.table, seq, self._level(table, seat), done.code, done.message)
        self.stats.refused += 1
        fallback = await self._call(compute.random_move, table.meta.title, view, seat, move_seed(table.table, seq, seat))
        return await self.submitter.submit(table.table, seat, seq, key, fallback)

    def _level(self, table: FoldedTable, seat: int) -> str:
        level = table.meta.seats[seat].level or DEFAULT_LEVEL
        if level in BOT_NAMES:
            return level
        if (table.table, seat) not in self._warned:
            self._warned.add((table.table, seat))
            log.warning("table %s seat %d: unknown bot level %r, playing %s", table.table, seat, level, DEFAULT_LEVEL)
        return DEFAULT_LEVEL

    async def _compute(self, table: FoldedTable, seat: int, view: bytes) -> bytes | None:
        """The bot's move as action JSON, or None if the bot failed (the caller falls back)."""
        level = self._level(table, seat)
        s = self.settings
        budget_ms, iterations = (s.budget_ms, s.iterations) if level == "mcts" else (None, None)
        try:
            return await self._call(compute.compute_move, table.meta.title, view, seat, level,
                                    move_seed(table.table, table.seq, seat), budget_ms, iterations)
        except BrokenProcessPool:
            raise
        except Exception as exc:  # noqa: BLE001 - a bot failing falls back to a random legal move
            log.warning("table %s seq %d: the %s bot failed: %s", table.table, table.seq, level, exc)
            return None

    async def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        if self._pool is None:
            raise RuntimeError("bot worker not started")
        try:
            return await loop.run_in_executor(self._pool, fn, *args)
        except BrokenProcessPool:
            # A compute process died (killed, out of memory): start a fresh pool, retry the turn later.
            log.error("a bot compute process died; restarting the pool")
            old, self._pool = self._pool, self._pool_factory(self.settings)
            old.shutdown(wait=False, cancel_futures=True)
            raise
