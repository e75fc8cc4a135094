"""Table clocks in the game service: each clocked table's fold kept in memory and read on,
the deadline index kept right, and the reply of `GET /api/tables/{t}/clock`.

The fold is never the truth, only a cache of one: it is rebuilt from the log and the clock
stream (shared/store/clock.py) whenever this process has not seen the table, and read on
from where it stopped otherwise, so every replica answers the same (docs/clocks.md).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import msgspec

from shared.clock import ClockEvent, ClockFold, ClockRecord, fold_in
from shared.engine import Engine, Result
from shared.protocol.http import ClockReply, SeatClockInfo
from shared.store import TableSummary
from shared.store.clock import READ_CHUNK, ClockStore
from shared.timesource import now_ms


class TableClock:
    __slots__ = ("record", "fold", "event_id", "pending")

    def __init__(self, record: ClockRecord, seats: int) -> None:
        self.record = record
        self.fold = ClockFold(record, seats)
        self.event_id = "0-0"  # the last clock event read
        self.pending: list[ClockEvent] = []  # read, but after log entries not read yet


class ClockBook:
    """The folds of the clocked tables this process looked at lately (LRU)."""

    def __init__(self, store: ClockStore, capacity: int = 10_000) -> None:
        self.store = store
        self.capacity = max(1, capacity)
        self._clocks: OrderedDict[str, TableClock] = OrderedDict()

    async def current(self, table: str, record: ClockRecord, seats: int) -> TableClock:
        """The table's clock with everything stored so far folded in."""
        clock = self._clocks.get(table)
        if clock is None or clock.record != record:
            clock = TableClock(record, seats)
            self._clocks[table] = clock
            while len(self._clocks) > self.capacity:
                self._clocks.popitem(last=False)
        self._clocks.move_to_end(table)
        while True:
            marks, events = await self.store.read(table, clock.fold.seq, clock.event_id)
            if events:
                clock.event_id = events[-1].id
            clock.pending = fold_in(clock.fold, marks, clock.pending + events)
            if len(marks) < READ_CHUNK:
                return clock

    async def publish(self, table: str, record: ClockRecord, seats: int) -> TableClock:
        """Set the table's deadline in the index from its clock as stored now. Read again
        after the write: if the table moved meanwhile (another replica's move or timeout), the
        write may be stale, so it is made again from the newer position."""
        for _attempt in range(4):
            clock = await self.current(table, record, seats)
            position = (clock.fold.seq, clock.event_id)
            await self.store.set_deadline(table, clock.fold.deadline())
            clock = await self.current(table, record, seats)
            if (clock.fold.seq, clock.event_id) == position:
                return clock
        return clock


def standings(engine: Engine[Any], state: Any, seats: int, reason: str) -> Result:
    """The standings of an unfinished game, for a table that ends early: the title's own
    `standings(state)` when it has one (scores as its end of game would count them now),
    else every seat level."""
    hook = getattr(engine, "standings", None)
    found = hook(state) if hook is not None else None
    if found is None:
        return Result(scores=[0] * seats, ranks=[1] * seats, winners=[], reason=reason)
    return msgspec.structs.replace(found, reason=reason)


def clock_reply(meta: TableSummary, clock: TableClock | None, seq: int) -> ClockReply:
    now = now_ms()
    if clock is None:
        return ClockReply(table=meta.table, kind="none", now_ms=now, seq=seq, seats=[
            SeatClockInfo(seat=i, kind=s.kind, level=s.level, remaining_ms=None, running=False, timed_out=False)
            for i, s in enumerate(meta.seats)])
    fold = clock.fold
    spec = clock.record.spec
    return ClockReply(
        table=meta.table, kind=spec.kind, now_ms=now, seq=fold.seq, spec=spec, deadline_ms=fold.deadline(),
        ended=meta.ended,
        seats=[SeatClockInfo(seat=c.seat, kind=meta.seats[c.seat].kind, level=meta.seats[c.seat].level,
                             remaining_ms=c.remaining_ms, running=c.running, timed_out=c.timed_out)
               for c in fold.seat_clocks(now)])
