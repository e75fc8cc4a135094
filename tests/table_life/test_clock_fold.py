"""The clock fold (shared/clock.py) on hand-made logs: what each seat is charged, when."""

from __future__ import annotations

from shared.clock import ClockEvent, ClockFold, ClockRecord, ClockSpec, LogMark, fold_in

REALTIME = ClockSpec(kind="realtime", bank_s=100, increment_s=20)
ASYNC = ClockSpec(kind="async", turn_hours=1, on_timeout="abandon")
HOUR = 3600_000


def fold(spec: ClockSpec, active: list[int], seats: int = 2, bots: list[int] | None = None) -> ClockFold:
    return ClockFold(ClockRecord(spec=spec, start_ms=0, active=active, bots=bots or []), seats)


def test_only_active_human_seats_are_charged_and_increments_stop_at_the_bank():
    f = fold(REALTIME, [0])
    f.entry(LogMark(1, 0, 30_000, [1]))  # seat 0 used 30 s, earns 20 s: 90 s
    assert [f.remaining(s, 30_000) for s in (0, 1)] == [90_000, 100_000]
    f.entry(LogMark(2, 1, 31_000, [0]))  # seat 1 used 1 s, +20 s: capped at 100 s
    assert [f.remaining(s, 41_000) for s in (0, 1)] == [80_000, 100_000]
    assert f.deadline() == 31_000 + 90_000
    assert f.expired(121_000) == [0] and f.expired(120_999) == []


def test_undo_earns_no_increment_and_time_never_runs_backwards():
    f = fold(REALTIME, [0])
    f.entry(LogMark(1, 0, 50_000, [0], undo=True))
    assert f.remaining(0, 50_000) == 50_000
    f.entry(LogMark(2, 0, 40_000, [1]))  # another replica's clock, 10 s behind: counts as no time
    assert f.remaining(0, 50_000) == 70_000 and f.t == 50_000


def test_simultaneous_decisions_charge_every_seat_that_must_still_act():
    f = fold(REALTIME, [0, 1, 2], seats=3)
    f.entry(LogMark(1, 2, 10_000, [0, 1]))  # seat 2 voted after 10 s: the others still charged
    f.entry(LogMark(2, 0, 25_000, [1]))
    assert [f.remaining(s, 40_000) for s in range(3)] == [95_000, 60_000, 100_000]


def test_bot_seats_are_not_charged_and_a_returning_player_gets_a_tenth_of_the_bank():
    f = fold(REALTIME, [0], bots=[1])
    f.entry(LogMark(1, 0, 0, [1]))
    assert not f.charged(1) and f.remaining(1, 500_000) == 100_000
    f = fold(REALTIME, [0])
    fold_in(f, [], [ClockEvent("1-0", 0, 0, "timeout", 100_000, "bot")])
    assert f.timed_out[0] and not f.charged(0) and f.remaining(0, 200_000) == 0
    fold_in(f, [], [ClockEvent("2-0", 0, 0, "human", 300_000)])
    assert f.charged(0) and f.remaining(0, 300_000) == 20_000  # the increment beats a tenth (10 s)


def test_async_deadline_begins_with_the_turn_and_each_own_decision():
    f = fold(ASYNC, [0])
    assert f.seat_deadline(0) == HOUR and f.remaining(1, 0) is None
    f.entry(LogMark(1, 0, HOUR // 2, [0]))  # seat 0 decides and goes on: a full hour again
    assert f.seat_deadline(0) == HOUR // 2 + HOUR
    f.entry(LogMark(2, 0, HOUR, [1]))
    assert f.seat_deadline(1) == 2 * HOUR and not f.charged(0)
    fold_in(f, [], [ClockEvent("1-0", 2, 1, "timeout", 2 * HOUR, "abandon")])
    assert f.ended is not None and f.deadline() is None


def test_events_wait_for_the_log_entry_they_follow():
    f = fold(REALTIME, [0])
    late = ClockEvent("1-0", 1, 1, "bot", 20_000)
    left = fold_in(f, [], [late])  # names seq 1, which is not folded yet
    assert left == [late] and f.human[1]
    assert fold_in(f, [LogMark(1, 0, 10_000, [1])], left) == []
    assert not f.human[1] and not f.charged(1)
