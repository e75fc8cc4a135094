"""The table repository: the one place a table is folded from its log, kept folded and
snapshotted. The game service (its hot tables), the projection (each feed's table) and the
bot worker all read tables through it, so a log is read the same way everywhere:

- a snapshot is used only if it is of this title and rules version (else the log is folded
  from the start: snapshots are a cache);
- folding yields to the event loop every `FOLD_CHUNK` entries, so a long cold table does
  not stall the other tables of the process;
- an entry the rules refuse stops the fold: the table is marked as needing attention with
  the entry's seq and the `RuleError`, and `LogBroken` is raised (shared/tables/fold.py).

Persistence is behind the `EventStore` protocol (shared/tables/eventstore.py); the Redis
store is its adapter. Tables are kept folded in an LRU of `capacity` entries of a type the
caller makes from what was loaded (`make`): the game service's `HotTable` adds seat control
and a submit lock to the `FoldedTable` every caller gets. A caller whose tables live as
long as something else says (the projection's feeds, alive while watched) opens them with
`open` and keeps them itself.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

from shared.engine import Engine, RuleError
from shared.games import get_engine
from shared.store.models import Attention, TableSummary, UnknownTable
from shared.tables.eventstore import EventStore
from shared.tables.fold import LogBroken, fold_entries
from shared.tables.snapshot import encode_timeline, restore_timeline
from shared.timeline import Timeline


class Loaded(NamedTuple):
    meta: TableSummary
    engine: Engine[Any]
    timeline: Timeline[Any]
    source: str  # "snapshot" or "log": where the fold started


class Snapshot(NamedTuple):
    table: str
    seq: int
    blob: bytes  # shared/tables/snapshot.py's codec


class FoldedTable:
    """A table folded in memory: its meta (refreshable), engine and Timeline, and the lock
    held while it is caught up or moved (one fold at a time per table per process)."""

    __slots__ = ("meta", "engine", "timeline", "lock")

    def __init__(self, meta: TableSummary, engine: Engine[Any], timeline: Timeline[Any]) -> None:
        self.meta = meta
        self.engine = engine
        self.timeline = timeline
        self.lock = asyncio.Lock()

    @property
    def table(self) -> str:
        return self.meta.table

    @property
    def seq(self) -> int:
        return self.timeline.length


T = TypeVar("T", bound=FoldedTable)


async def open_table(store: EventStore, table: str,
                     engine_for: Callable[[str], Engine[Any]] = get_engine, fold_log: bool = True) -> Loaded:
    """The table's meta, engine and Timeline caught up with its log (with `fold_log=False`:
    at its usable snapshot, or the setup, for a caller that folds the rest entry by entry).

    Raises UnknownTable, RuleError('unknown_title') for a title this process lacks, and
    LogBroken (after marking the table) for a log the rules refuse.
    """
    meta = await store.get_meta(table)
    if meta is None:
        raise UnknownTable(table)
    engine = engine_for(meta.title)
    if meta.rules_version and meta.rules_version != engine.meta.rules_version:
        # The rules changed since the table began: its log could fold into another game
        # without any entry being refused, so it is not folded at all.
        broken = LogBroken(table, 0, RuleError(
            "rules_changed", f"the table was created under rules version {meta.rules_version}; "
                             f"this server has version {engine.meta.rules_version}"))
        await mark(store, broken, engine)
        raise broken
    names = [s.name for s in meta.seats]
    timeline = None
    snap = await store.load_snapshot(table)
    if snap is not None:
        timeline = restore_timeline(engine, names, meta.options, meta.seed, snap[1])
        if timeline is not None and timeline.length != snap[0]:
            timeline = None
    source = "snapshot" if timeline is not None else "log"
    if timeline is None:
        timeline = Timeline(engine, names, meta.options, meta.seed)
    if fold_log:
        await catch_up(store, table, timeline)
    return Loaded(meta, engine, timeline, source)


async def catch_up(store: EventStore, table: str, timeline: Timeline[Any]) -> None:
    """Fold every entry logged after `timeline.length`; marks the table on LogBroken."""
    try:
        await fold_entries(timeline, await store.read(table, timeline.length), table)
    except LogBroken as broken:
        await mark(store, broken, timeline.engine)
        raise


async def mark(store: EventStore, broken: LogBroken, engine: Engine[Any]) -> None:
    await store.mark_attention(broken.table, Attention(broken.seq, broken.error.code, broken.error.message,
                                                       engine.meta.rules_version))


def _folded(loaded: Loaded) -> Any:
    return FoldedTable(loaded.meta, loaded.engine, loaded.timeline)


class TableRepository(Generic[T]):
    """Tables opened, kept folded (LRU) and snapshotted through one `EventStore`."""

    def __init__(self, store: EventStore, capacity: int = 0, make: Callable[[Loaded], T] = _folded,
                 engine_for: Callable[[str], Engine[Any]] = get_engine,
                 on_load: Callable[[str], None] | None = None, on_size: Callable[[int], None] | None = None) -> None:
        self.store = store
        self.capacity = max(1, capacity)
        self.make = make
        self.engine_for = engine_for
        self.on_load = on_load  # told where each cold load started ("snapshot" or "log")
        self.on_size = on_size  # told how many tables are kept after each change
        self._kept: OrderedDict[str, T] = OrderedDict()
        self._loading: dict[str, asyncio.Future[T]] = {}

    # --- uncached ----------------------------------------------------------------------------

    async def open(self, table: str, fold_log: bool = True) -> Loaded:
        """The table loaded afresh, not kept (see `open_table`)."""
        return await open_table(self.store, table, self.engine_for, fold_log)

    async def fold_new(self, table: str, timeline: Timeline[Any]) -> None:
        """Fold what was logged after `timeline.length` (see `catch_up`)."""
        await catch_up(self.store, table, timeline)

    async def mark(self, broken: LogBroken, engine: Engine[Any]) -> None:
        await mark(self.store, broken, engine)

    @staticmethod
    def snapshot(table: str, timeline: Timeline[Any]) -> Snapshot:
        """The timeline as it is now (encoded at once: it moves on after its lock)."""
        return Snapshot(table, timeline.length, encode_timeline(timeline))

    async def save_snapshot(self, snap: Snapshot, ttl_ms: int = 0) -> None:
        """`ttl_ms`: the table's own expiry, so a snapshot does not outlive its table."""
        await self.store.save_snapshot(snap.table, snap.seq, snap.blob, ttl_ms)

    # --- kept folded ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._kept)

    def add(self, folded: T) -> None:
        self._kept[folded.table] = folded
        self._kept.move_to_end(folded.table)
        while len(self._kept) > self.capacity:
            self._kept.popitem(last=False)
        if self.on_size is not None:
            self.on_size(len(self._kept))

    def peek(self, table: str) -> T | None:
        """The table if this process keeps it, without loading it."""
        return self._kept.get(table)

    async def get(self, table: str) -> T:
        """The table, loaded if cold (raises UnknownTable). May be behind the log: see `catch_up`."""
        folded = self._kept.get(table)
        if folded is not None:
            self._kept.move_to_end(table)
            return folded
        # Concurrent first requests for one table share one load.
        pending = self._loading.get(table)
        if pending is None:
            pending = self._loading[table] = asyncio.ensure_future(self._load(table))
            pending.add_done_callback(lambda _f: self._loading.pop(table, None))
        return await asyncio.shield(pending)

    async def current(self, table: str) -> T:
        """The table caught up with everything logged so far."""
        folded = await self.get(table)
        async with folded.lock:
            await self.catch_up(folded)
        return folded

    async def catch_up(self, folded: T) -> None:
        """Fold the entries logged after the table's seq (by this process or another)."""
        await catch_up(self.store, folded.table, folded.timeline)

    async def _load(self, table: str) -> T:
        loaded = await self.open(table)
        if self.on_load is not None:
            self.on_load(loaded.source)
        folded = self.make(loaded)
        self.add(folded)
        return folded
