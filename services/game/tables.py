"""Hot tables: each table's Timeline kept in memory (LRU), caught up from the log on demand.

A request never replays a whole game: a hot table only reads the log entries it has not
folded yet; a cold one is opened by the one loader (shared/store/loader.py): the latest
usable snapshot, then the entries after it, folded in chunks that let other tables run.
Several service replicas may hold the same table: the append script is the arbiter, and a
replica that finds itself behind reads the missing entries. Seat handovers are versioned in
the meta (`seats_version`) and every append returns the version, so a replica whose copy
of the seats is older re-reads them before it announces a turn.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from shared.engine import Engine, Result
from shared.store import FINISHED, OPEN, RUNNING, EventStore, SeatSpec, TableSummary
from shared.store.loader import catch_up, open_table
from shared.timeline import Timeline

from services.game.metrics import GameMetrics


def status_of(engine: Engine[Any], state: Any, seq: int) -> str:
    if engine.result(state) is not None:
        return FINISHED
    return RUNNING if seq else OPEN


class HotTable:
    __slots__ = ("meta", "engine", "timeline", "lock", "bot_seats", "seats_version", "notify")

    def __init__(self, meta: TableSummary, engine: Engine[Any], timeline: Timeline[Any]) -> None:
        self.meta = meta
        self.engine = engine
        self.timeline = timeline
        # Held from the seq check until the fold: one submit at a time per table per process.
        self.lock = asyncio.Lock()
        self.bot_seats: frozenset[int] = frozenset()
        self.seats_version = 0
        self.notify = meta.notify  # some seat has turn notices: tell the notifier after each move
        self.set_seats(meta.seats, meta.seats_version)

    def set_seats(self, seats: list[SeatSpec], version: int) -> None:
        """Who controls each seat, as of the meta's seats_version (handovers bump it)."""
        self.meta.seats = list(seats)
        self.seats_version = version
        self.bot_seats = frozenset(i for i, s in enumerate(seats) if s.kind == "bot")

    @property
    def bots_only(self) -> bool:
        return len(self.bot_seats) == len(self.meta.seats)

    @property
    def table(self) -> str:
        return self.meta.table

    @property
    def seq(self) -> int:
        return self.timeline.length

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


class HotTables:
    def __init__(self, store: EventStore, capacity: int, metrics: GameMetrics) -> None:
        self.store = store
        self.capacity = max(1, capacity)
        self.metrics = metrics
        self._hot: OrderedDict[str, HotTable] = OrderedDict()
        self._loading: dict[str, asyncio.Future[HotTable]] = {}

    def __len__(self) -> int:
        return len(self._hot)

    def add(self, hot: HotTable) -> None:
        self._hot[hot.table] = hot
        self._hot.move_to_end(hot.table)
        while len(self._hot) > self.capacity:
            self._hot.popitem(last=False)
        self.metrics.hot_tables.set(len(self._hot))

    def peek(self, table: str) -> HotTable | None:
        """The table if this process holds it, without loading it."""
        return self._hot.get(table)

    async def get(self, table: str) -> HotTable:
        """The table, loaded if cold (raises UnknownTable). May be behind the log: see catch_up."""
        hot = self._hot.get(table)
        if hot is not None:
            self._hot.move_to_end(table)
            return hot
        # Concurrent first requests for one table share one load.
        pending = self._loading.get(table)
        if pending is None:
            pending = self._loading[table] = asyncio.ensure_future(self._load(table))
            pending.add_done_callback(lambda _f: self._loading.pop(table, None))
        hot = await asyncio.shield(pending)
        return hot

    async def current(self, table: str) -> HotTable:
        """The table caught up with everything logged so far."""
        hot = await self.get(table)
        async with hot.lock:
            await self.catch_up(hot)
        return hot

    async def catch_up(self, hot: HotTable) -> None:
        """Fold the entries logged after the table's seq (by this or another replica)."""
        await catch_up(self.store, hot.table, hot.timeline)

    async def _load(self, table: str) -> HotTable:
        loaded = await open_table(self.store, table)
        self.metrics.table_loads.inc(loaded.source)
        hot = HotTable(loaded.meta, loaded.engine, loaded.timeline)
        self.add(hot)
        return hot
