"""Hot tables: the game service's tables kept folded by the table repository (LRU), caught
up from the log on demand.

A request never replays a whole game: a hot table only reads the log entries it has not
folded yet; a cold one is opened by the repository (shared/tables/repository.py): the latest
usable snapshot, then the entries after it, folded in chunks that let other tables run.
Several service replicas may hold the same table: the append script is the arbiter, and a
replica that finds itself behind reads the missing entries. Seat handovers are versioned in
the meta (`seats_version`) and every append returns the version, so a replica whose copy
of the seats is older re-reads them before it announces a turn.
"""

from __future__ import annotations

from typing import Any

from shared.engine import Engine, Result
from shared.store import FINISHED, OPEN, RUNNING, SeatSpec, TableSummary
from shared.tables import EventStore, FoldedTable, Loaded, TableRepository
from shared.timeline import Timeline

from services.game.metrics import GameMetrics


def status_of(engine: Engine[Any], state: Any, seq: int) -> str:
    if engine.result(state) is not None:
        return FINISHED
    return RUNNING if seq else OPEN


class HotTable(FoldedTable):
    """A folded table as the game service serves it: who controls each seat, whether turn
    notices are wanted. Its lock is held from the seq check until the fold: one submit at a
    time per table per process."""

    __slots__ = ("bot_seats", "seats_version", "notify")

    def __init__(self, meta: TableSummary, engine: Engine[Any], timeline: Timeline[Any]) -> None:
        super().__init__(meta, engine, timeline)
        self.bot_seats: frozenset[int] = frozenset()
        self.seats_version = 0
        self.notify = meta.notify  # some seat has turn notices: tell the notifier after each move
        self.set_seats(meta.seats, meta.seats_version)

    @classmethod
    def of(cls, loaded: Loaded) -> HotTable:
        return cls(loaded.meta, loaded.engine, loaded.timeline)

    def set_seats(self, seats: list[SeatSpec], version: int) -> None:
        """Who controls each seat, as of the meta's seats_version (handovers bump it)."""
        self.meta.seats = list(seats)
        self.seats_version = version
        self.bot_seats = frozenset(i for i, s in enumerate(seats) if s.kind == "bot")

    @property
    def bots_only(self) -> bool:
        return len(self.bot_seats) == len(self.meta.seats)

    @property
    def status(self) -> str:
        if self.meta.ended is not None:
            return FINISHED
        return status_of(self.engine, self.timeline.state, self.seq)

    def active_seats(self) -> list[int]:
        if self.meta.ended is not None:
            return []
        return sorted(self.engine.active_seats(self.timeline.state))

    def result(self) -> Result | None:
        """The engine's result, or the standings of a table that ended early (a clock ran out)."""
        return self.meta.ended or self.engine.result(self.timeline.state)


HotTables = TableRepository[HotTable]


def hot_tables(store: EventStore, capacity: int, metrics: GameMetrics) -> HotTables:
    """The game service's repository: `capacity` tables kept, loads and size counted."""
    return TableRepository(store, capacity, HotTable.of, on_load=metrics.table_loads.inc,
                           on_size=metrics.hot_tables.set)
