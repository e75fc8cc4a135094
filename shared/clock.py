"""Table clocks, as a pure fold over what the store holds (docs/clocks.md).

A clock is chosen when a table is created: none, real-time (a bank per seat, an increment
after each of the seat's moves, the bank never above its start) or async (each decision
within a number of hours of the seat's turn beginning). Nothing here keeps time: the clock
is derived from server-side timestamps already stored beside the table, so every replica
and every restart computes the same remaining times:

- the log entries: when each was appended (`t`), by whom, and the seats the engine made
  active by it (`a`, written by the append: `engine.active_seats` of the new state);
- the table's clock events (`rh:{t}:clock`): a seat handed to a bot or taken back, a seat
  that ran out (and what happened), each stamped with the log's seq at that moment.

A seat is charged while it is active, played by a person and not ended; several active
seats (a vote, sealed bids) are all charged at once until each has decided. Timestamps
from several replicas may disagree by a little: time never runs backwards in the fold
(each step is measured from the latest time seen).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

ClockKind = Literal["none", "realtime", "async"]
Outcome = Literal["bot", "abandon"]

MAX_BANK_S = 7 * 24 * 3600
MAX_TURN_HOURS = 30 * 24
# A person who takes back a seat that ran out starts again with at least this share of the
# starting bank (or the increment, if larger): zero would end the seat's next turn at once.
RETURN_SHARE = 0.1


class ClockSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True):
    """The clock a table is created with (`clock` in `POST /api/tables`)."""

    kind: Annotated[ClockKind, Meta(description="none, realtime (bank + increment) or async (deadline per turn)")] = "none"
    bank_s: Annotated[int, Meta(ge=0, le=MAX_BANK_S, description="realtime: each seat's starting bank in seconds, "
                                                                  "also the most it can hold")] = 0
    increment_s: Annotated[int, Meta(ge=0, le=24 * 3600, description="realtime: seconds added after each of the "
                                                                    "seat's moves (never above the starting bank)")] = 0
    turn_hours: Annotated[float, Meta(ge=0, le=MAX_TURN_HOURS, description="async: hours a seat has for each decision, "
                                                                           "from its turn beginning")] = 0
    on_timeout: Annotated[Outcome, Meta(description="bot: a bot plays the seat until its player takes it back; "
                                                    "abandon: the table ends with the standings at that point")] = "bot"
    bot_level: Annotated[str, Meta(max_length=32, description="bot level for on_timeout=bot (default heuristic)")] | None = None

    def problem(self) -> str | None:
        """Why this clock cannot be used, or None."""
        if self.kind == "realtime" and self.bank_s < 1:
            return "a realtime clock needs bank_s >= 1"
        if self.kind == "async" and self.turn_hours <= 0:
            return "an async clock needs turn_hours > 0"
        if self.kind != "realtime" and (self.bank_s or self.increment_s):
            return "bank_s and increment_s belong to a realtime clock"
        if self.kind != "async" and self.turn_hours:
            return "turn_hours belongs to an async clock"
        if self.on_timeout != "bot" and self.bot_level is not None:
            return "bot_level belongs to on_timeout=bot"
        return None

    @property
    def bank_ms(self) -> int:
        return self.bank_s * 1000

    @property
    def turn_ms(self) -> int:
        return int(self.turn_hours * 3600 * 1000)


def clock_refusal(spec: ClockSpec, levels: Sequence[str]) -> tuple[str, str] | None:
    """Why a table cannot be given this clock, as (error code, message), or None: the one
    check of `POST /api/tables` and `roundhouse import-18xx --clock`. `levels`: the bot
    levels this server plays."""
    problem = spec.problem()
    if problem:
        return "bad_clock", problem
    if spec.bot_level is not None and spec.bot_level not in levels:
        return "unknown_bot", f"clock: unknown bot level {spec.bot_level!r}; levels are {', '.join(levels)}"
    return None


class ClockRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What a clocked table's meta keeps (field `clock`): the spec and where it started."""

    spec: ClockSpec
    start_ms: int
    active: list[int]  # the seats active at set-up
    bots: list[int]  # the seats played by a bot at set-up


class LogMark(msgspec.Struct, frozen=True):
    """What the clock needs of one log entry."""

    seq: int
    seat: int
    t: int
    active: list[int] | None  # None: an entry written without it (charges nobody after it)
    undo: bool = False  # an undo or redo: not a move, earns no increment


EventKind = Literal["bot", "human", "timeout"]


class ClockEvent(msgspec.Struct, frozen=True):
    """One entry of a table's clock stream, after log entry `seq`."""

    id: str
    seq: int
    seat: int
    kind: EventKind
    t: int
    outcome: str = ""  # timeout: "bot" or "abandon"


class SeatClock(msgspec.Struct, kw_only=True):
    """One seat's clock as the API shows it."""

    seat: int
    remaining_ms: int | None  # None: not limited now (async and not this seat's turn; no clock)
    running: bool  # charged now
    timed_out: bool  # ran out and has not been taken back
    bot: bool  # a bot plays the seat


class ClockFold:
    """The clock after the marks and events folded so far (feed it in store order)."""

    def __init__(self, record: ClockRecord, seats: int) -> None:
        self.spec = record.spec
        self.seats = seats
        self.seq = 0
        self.t = record.start_ms
        self.active: set[int] = set(record.active)
        self.human = [i not in record.bots for i in range(seats)]
        self.timed_out = [False] * seats
        self.ended: ClockEvent | None = None
        self.bank = [self.spec.bank_ms] * seats
        self.turn_start = [record.start_ms] * seats
        self.turn_seq = [0] * seats  # the log seq each seat's current turn began after (turn notices)

    @property
    def timed(self) -> bool:
        return self.spec.kind != "none"

    def charged(self, seat: int) -> bool:
        return (self.spec.kind != "none" and self.ended is None and seat in self.active
                and self.human[seat] and not self.timed_out[seat])

    def _advance(self, t: int) -> None:
        if t <= self.t:
            return
        if self.spec.kind == "realtime":
            for seat in range(self.seats):
                if self.charged(seat):
                    self.bank[seat] = max(0, self.bank[seat] - (t - self.t))
        self.t = t

    def entry(self, mark: LogMark) -> None:
        self._advance(mark.t)
        after = set(mark.active or ())
        if self.spec.kind == "realtime" and not mark.undo and 0 <= mark.seat < self.seats:
            self.bank[mark.seat] = min(self.spec.bank_ms, self.bank[mark.seat] + self.spec.increment_s * 1000)
        for seat in after:
            # A turn begins for a seat that was not active, and again after each of its own
            # decisions (18xx turns are several entries: each has the full time).
            if seat not in self.active or seat == mark.seat:
                self.turn_start[seat] = self.t
                self.turn_seq[seat] = mark.seq
        self.active = after
        self.seq = mark.seq

    def event(self, ev: ClockEvent) -> None:
        self._advance(ev.t)
        seat = ev.seat
        if not 0 <= seat < self.seats:
            return
        if ev.kind == "bot":
            self.human[seat] = False
        elif ev.kind == "human":
            self.human[seat] = True
            if self.timed_out[seat]:
                floor = max(int(self.spec.bank_ms * RETURN_SHARE), self.spec.increment_s * 1000)
                self.bank[seat] = min(self.spec.bank_ms, max(self.bank[seat], floor))
            self.timed_out[seat] = False
            self.turn_start[seat] = self.t  # a fresh turn for the returning person
        elif ev.kind == "timeout":
            self.timed_out[seat] = True
            self.bank[seat] = 0
            if ev.outcome == "abandon":
                self.ended = ev
            else:
                self.human[seat] = False

    def remaining(self, seat: int, now: int) -> int | None:
        if self.spec.kind == "realtime":
            left = self.bank[seat]
            if self.charged(seat):
                left -= max(0, now - self.t)
            return max(0, left)
        if self.spec.kind == "async" and self.charged(seat):
            return max(0, self.turn_start[seat] + self.spec.turn_ms - max(now, self.t))
        return None

    def seat_deadline(self, seat: int) -> int | None:
        """When the seat runs out if nothing happens first (ms), or None."""
        if not self.charged(seat):
            return None
        if self.spec.kind == "realtime":
            return self.t + self.bank[seat]
        return self.turn_start[seat] + self.spec.turn_ms

    def deadline(self) -> int | None:
        found = [d for d in (self.seat_deadline(s) for s in range(self.seats)) if d is not None]
        return min(found) if found else None

    def expired(self, now: int) -> list[int]:
        """Seats charged now whose time is up at `now`, earliest first."""
        due = [(d, s) for s in range(self.seats) if (d := self.seat_deadline(s)) is not None and d <= now]
        return [s for _d, s in sorted(due)]

    def seat_clocks(self, now: int) -> list[SeatClock]:
        return [SeatClock(seat=s, remaining_ms=self.remaining(s, now), running=self.charged(s),
                          timed_out=self.timed_out[s], bot=not self.human[s]) for s in range(self.seats)]


def fold_in(fold: ClockFold, marks: list[LogMark], events: list[ClockEvent]) -> list[ClockEvent]:
    """Fold log marks (the entries after `fold.seq`, in order) and clock events (in stream
    order, some perhaps after entries not read yet) into `fold`; an event goes after the
    entry whose seq it names. Returns the events that belong after entries not folded yet."""
    queue = list(events)
    i = 0
    while i < len(queue) and queue[i].seq <= fold.seq:
        fold.event(queue[i])
        i += 1
    for mark in marks:
        if mark.seq <= fold.seq:
            continue
        fold.entry(mark)
        while i < len(queue) and queue[i].seq <= fold.seq:
            fold.event(queue[i])
            i += 1
    return queue[i:]
