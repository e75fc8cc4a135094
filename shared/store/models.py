"""Records the event store reads and writes. Every field is plain data (msgspec Structs)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from redis.exceptions import RedisError

from shared.clock import ClockRecord
from shared.engine import Result

SeatKind = Literal["human", "bot"]

# Table lifecycle, kept in the meta hash: `open` until the first action is logged,
# `running` while the game goes on, `finished` once the engine reports a result.
OPEN = "open"
RUNNING = "running"
FINISHED = "finished"
STATUSES = (OPEN, RUNNING, FINISHED)


class SeatSpec(msgspec.Struct, frozen=True):
    name: str
    kind: SeatKind = "human"
    level: str | None = None


class TableMeta(msgspec.Struct, kw_only=True):
    """What a table is: fixed at creation except `status`. `seed` is secret (server side only)."""

    table: str
    title: str
    options: dict[str, Any]
    seats: list[SeatSpec]
    seed: int
    status: str
    created_ms: int
    # The title's rules version the table was created under ("": not recorded, not checked).
    # Tables stored before the field existed read back as "1", the only version there was.
    rules_version: str = ""
    # The table's clock (shared/clock.py), None: no clock.
    clock: ClockRecord | None = None


class TableSummary(TableMeta, kw_only=True):
    """Meta plus where the log stands, for listings."""

    last_seq: int = 0
    updated_ms: int = 0
    # Bumped by every seat handover; the append returns it, so a replica holding the table
    # in memory learns of a handover made through another replica at its next append.
    seats_version: int = 0
    # Set when the table ended outside the rules (a clock ran out with on_timeout=abandon):
    # the standings then, and nothing more is appended.
    ended: Result | None = None
    # Some seat has turn notices set up (services/notify/): the game service then tells the
    # notifier after each move. Changing it bumps seats_version, so every replica learns it.
    notify: bool = False


class LoggedAction(msgspec.Struct, frozen=True):
    """One stream entry. `seq` is the stream id (`<seq>-0`); `action` is the action's JSON bytes."""

    seq: int
    seat: int
    action: bytes
    key: str
    t_ms: int
    # The seats active after this entry, as the appending service computed them (absent in
    # entries written before clocks, and by tools that do not keep clocks).
    active: list[int] | None = None


AppendStatus = Literal["ok", "duplicate", "conflict", "ended"]


class AppendOutcome(msgspec.Struct, frozen=True):
    """`ok`: appended at `seq`. `duplicate`: the idempotency key was used before; `reply` is the
    reply stored then and `seq` is 0. `conflict`: the log had moved on; `seq` is its last seq. `ended`: the table ended (a clock
    ran out: TableSummary.ended), nothing was appended; `seq` is its last seq."""

    status: AppendStatus
    seq: int
    reply: bytes | None = None
    seats_version: int = 0  # with ok: the table's seats_version (see TableSummary)


class TurnNotice(msgspec.Struct, frozen=True):
    """One entry of the global turn stream: at `seq`, these seats of `table` must act.
    `id` is the turn stream's own entry id, needed to acknowledge it."""

    id: str
    table: str
    seq: int
    seats: list[int]
    stream: str = "rh:turns"  # the turn stream it came from (keys.TURN_STREAMS)


class Attention(msgspec.Struct, frozen=True):
    """A table whose log no longer folds: entry `seq` is refused by the rules with `code`."""

    seq: int
    code: str
    message: str
    rules_version: str


class UnknownTable(Exception):
    def __init__(self, table: str) -> None:
        super().__init__(f"no table {table!r}")
        self.table = table


class TableExists(Exception):
    def __init__(self, table: str) -> None:
        super().__init__(f"table {table!r} already exists")
        self.table = table


class ReplicaAckTimeout(RedisError):
    """The append is on the master but fewer replicas than asked confirmed it in time (WAIT):
    a failover now could lose it. A RedisError, so the services answer 503 "retry with the same
    idempotency key"; the retry finds the entry (or, if the failover lost it, appends it again)
    and waits for the replicas again."""

    def __init__(self, table: str, seq: int, acked: int, wanted: int, timeout_ms: int) -> None:
        what = f"seq {seq}" if seq >= 0 else "the earlier append with this key"
        super().__init__(f"table {table!r}: {what} is on the master, but {acked} of {wanted} replica(s) "
                         f"confirmed it within {timeout_ms} ms (ROUNDHOUSE_REDIS_WAIT_REPLICAS)")
        self.table, self.seq, self.acked, self.wanted = table, seq, acked, wanted
