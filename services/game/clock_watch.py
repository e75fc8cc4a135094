"""The clock watch: every game service replica looks at the clocked tables whose deadline
has come (the deadline index) and carries out the outcome chosen at creation, once.

The index only says when to look. What happens is decided from the table's log and clock
stream as stored (services/game/clock.py), and written by one script that checks the log
and the clock stream are still where the decision was made (shared/store/seat.lua,
abandon.lua): two replicas, or a move that came in time, can never make it happen twice
or wrongly. A restarted service carries on from the index, which lives in Redis.

- `on_timeout=bot`: the seat is handed to a bot of the chosen level (the seat's meta, as
  `POST .../controller` does) and a turn notice goes to the bot workers; the `expect_turn`
  note written first lets their sweeper announce it if this process dies in between. The
  player takes the seat back with that same endpoint, and the clock starts again for them.
  When that would leave only bots at the table and the bot-only budget of the address
  that created it is spent (services/game/table_budget.py), the table is abandoned
  instead: a clock is one more way to make a table of bots, and counts the same.
- `on_timeout=abandon`: the table ends with the standings at that point (the title's
  `standings(state)`, else all level) and nothing more is appended.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, NamedTuple

from shared.bots import DEFAULT_LEVEL
from shared.store import FINISHED, SeatSpec, TableSummary
from shared.store.clock import ENDED
from shared.timesource import now_ms

from services.game.clock import TableClock, standings
from services.game.sweeping import sweep_forever

if TYPE_CHECKING:
    from services.game.service import GameService

log = logging.getLogger("roundhouse.game.clock")


class Position(NamedTuple):
    """Where the log and the clock stream stood when a timeout was decided: the guard of the
    script that carries it out."""

    seq: int
    event_id: str


class ClockWatch:
    def __init__(self, service: GameService, poll_s: float) -> None:
        self.service = service
        self.poll_s = max(0.01, poll_s)
        self.outcomes = 0  # carried out by this process (tests and metrics)

    async def run(self) -> None:
        await sweep_forever(self.sweep, self.poll_s, log, "clock watch")

    async def sweep(self) -> int:
        """Look at every table whose deadline has come; returns how many."""
        due = await self.service.clock_store.due(now_ms())
        for table in due:
            await self.examine(table)
        return len(due)

    async def examine(self, table: str) -> None:
        """Carry out what the table's clock says is due now, then set its next deadline."""
        service = self.service
        for _attempt in range(16):
            meta = await service.store.get_meta(table)
            if (meta is None or meta.clock is None or meta.clock.spec.kind == "none" or meta.ended is not None
                    or meta.status == FINISHED):
                await service.clock_store.set_deadline(table, None)
                return
            clock = await service.clocks.current(table, meta.clock, len(meta.seats))
            # The position the decision is made at, taken now: `clock` is this process's shared
            # cache of the table's clock, which another look reads on while this one awaits, and
            # a guard built from it later would let a second look pass with a stale decision.
            at = Position(clock.fold.seq, clock.event_id)
            expired = clock.fold.expired(now_ms())
            if not expired:
                await service.clocks.publish(table, meta.clock, len(meta.seats))
                return
            await self._time_out(meta, clock, at, expired[0])
        log.warning("clock watch: table %s kept moving; looking again later", table)

    async def _time_out(self, meta: TableSummary, clock: TableClock, at: Position, seat: int) -> None:
        spec = clock.record.spec
        if spec.on_timeout == "abandon":
            await self._abandon(meta, at, seat)
            return
        service = self.service
        table = meta.table
        only_bots = all(s.kind == "bot" for i, s in enumerate(meta.seats) if i != seat)
        if only_bots and await service.budget.only_bots(table, "", now_ms()) != "ok":
            log.info("table %s: seat %d ran out of time and only bots would be left; its creator's bot-only "
                     "tables are at their limit: abandoned", table, seat)
            await self._abandon(meta, at, seat, "no person left at the table")
            return
        bot = SeatSpec(meta.seats[seat].name, "bot", spec.bot_level or DEFAULT_LEVEL)
        noted = time.time_ns() // 1_000_000  # the turn note is on real time (the bot worker's sweeper reads it)
        await service.store.expect_turn(table, noted)
        version = await service.clock_store.set_seat(table, seat, bot, "timeout", now_ms(), expect_seq=at.seq,
                                                     expect_event=at.event_id, outcome="bot")
        if version < 0:  # moved on meanwhile (or ended): decide again from the new position
            await service.store.turn_announced(table, noted)
            if only_bots:
                await service.budget.a_person_sits(table)  # taken back: decided again below
            return
        seats = await service.seats_changed(table)
        self.outcomes += 1
        log.info("table %s: seat %d ran out of time; a bot (%s) plays it", table, seat, bot.level)
        await service.store.publish_turn(table, at.seq, [seat], bots_only=all(s.kind == "bot" for s in seats),
                                         noted_ms=noted)

    async def _abandon(self, meta: TableSummary, at: Position, seat: int, why: str = "") -> None:
        service = self.service
        hot = await service.tables.current(meta.table)
        if hot.seq != at.seq:
            return  # the log moved on: decide again
        name = meta.seats[seat].name
        reason = f"abandoned: {name} ran out of time" + (f"; {why}" if why else "")
        result = standings(hot.engine, hot.timeline.state, len(meta.seats), reason)
        done = await service.clock_store.abandon(meta.table, seat, now_ms(), result, at.seq, at.event_id)
        if done == 1 or done == ENDED:
            hot.meta.ended = (await service.store.get_meta(meta.table) or hot.meta).ended
        if done == 1:
            self.outcomes += 1
            log.info("table %s: seat %d ran out of time; the table is abandoned", meta.table, seat)
            await service.store.index_status(meta.table, meta.created_ms, FINISHED)
            await service.retention.moved(meta.table, FINISHED, now_ms())
