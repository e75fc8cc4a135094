"""Table clocks in the store: the clock stream beside each table's log, the deadline index,
and the atomic seat changes a clock depends on (docs/clocks.md).

Per table (`rh:{<table>}:...`, one slot): the log entries carry their time and the seats they
made active; the clock stream holds the seat handovers and timeouts, each with the log's
seq at that moment. `read` returns both in one script, so a fold (shared/clock.py) never
sees an event before the entries it follows. The deadline index is a global sorted set,
sharded like the turn streams (keys.Layout): a hint of when to look at a table next.
"""

from __future__ import annotations

import msgspec

from shared.clock import ClockEvent, LogMark
from shared.engine import Result
from shared.store import keys
from shared.store.due import DueIndex
from shared.store.events import RedisEventStore, _lua, clock_event
from shared.store.models import SeatSpec, UnknownTable

_json = msgspec.json.Encoder()
_ints = msgspec.json.Decoder(list[int])
READ_CHUNK = 2000

# What a guarded change answered (shared/store/seat.lua, abandon.lua).
MOVED, ENDED = -2, -3


class ClockStore:
    def __init__(self, store: RedisEventStore) -> None:
        self.store = store
        self.redis = store.redis
        self.layout = store.layout
        self._read = self.redis.register_script(_lua("clock_read.lua"))
        # The same script text as RedisEventStore's (one cached script on the server).
        self._seat = self.redis.register_script(_lua("position.lua", "seat.lua"))
        self._abandon = self.redis.register_script(_lua("position.lua", "abandon.lua"))
        self.deadlines = DueIndex(self.redis, self.layout, self.layout.deadlines)

    async def read(self, table: str, after_seq: int, after_event: str) -> tuple[list[LogMark], list[ClockEvent]]:
        """Log marks after `after_seq` (at most READ_CHUNK) and every clock event after
        `after_event` ('0-0': from the start), read together."""
        marks_raw, events_raw = await self._read(keys=[keys.log_key(table), keys.clock_key(table)],
                                                 args=[after_seq, after_event, READ_CHUNK])
        marks = []
        for i in range(0, len(marks_raw), 5):
            seq, seat, t, active, undo = marks_raw[i:i + 5]
            marks.append(LogMark(int(seq), int(seat), int(t), _ints.decode(active) if active else None, bool(int(undo))))
        events = []
        for i in range(0, len(events_raw), 2):
            fields = events_raw[i + 1]
            events.append(clock_event(events_raw[i], {fields[j]: fields[j + 1] for j in range(0, len(fields), 2)}))
        return marks, events

    async def set_seat(self, table: str, index: int, seat: SeatSpec, kind: str, t: int, expect_seq: int | None = None,
                       expect_event: str | None = None, outcome: str = "") -> int:
        """Replace seat `index` and log the clock event `kind` with it. Returns the new
        seats_version, MOVED (the log or clock stream moved past `expect_seq`/`expect_event`),
        ENDED, or -1 (no such seat); UnknownTable."""
        table = keys.check_table_id(table)
        done = int(await self._seat(
            keys=[keys.meta_key(table), keys.log_key(table), keys.clock_key(table)],
            args=[index, _json.encode(seat), kind, t, "" if expect_seq is None else expect_seq, expect_event or "",
                  outcome]))
        if done == 0:
            raise UnknownTable(table)
        return done

    async def abandon(self, table: str, seat: int, t: int, standings: Result, expect_seq: int, expect_event: str) -> int:
        """End the table: `seat` ran out. 1 done, MOVED, ENDED; UnknownTable."""
        done = int(await self._abandon(keys=[keys.meta_key(table), keys.log_key(table), keys.clock_key(table)],
                                       args=[expect_seq, expect_event, seat, t, _json.encode(standings)]))
        if done == 0:
            raise UnknownTable(table)
        return done

    # --- the deadline index ------------------------------------------------------------------

    async def set_deadline(self, table: str, at_ms: int | None, only_earlier: bool = False) -> None:
        """Look at `table` again at `at_ms` (None: no seat is charged, forget it)."""
        await self.deadlines.set(table, at_ms, only_earlier)

    async def deadline(self, table: str) -> int | None:
        return await self.deadlines.get(table)

    async def due(self, now_ms: int, count: int = 100) -> list[str]:
        """Clocked tables whose deadline is at or before `now_ms`, earliest first."""
        return await self.deadlines.due(now_ms, count)
