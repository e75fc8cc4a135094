"""The one loader: a table's stored log (after its snapshot, if usable) folded into a Timeline.

Every service that folds tables uses it - the game service, the projection, the bot
worker - so a log is read the same way everywhere:
- a snapshot is used only if it is of this title and rules version (else the log is folded
  from the start: snapshots are a cache);
- folding yields to the event loop every `FOLD_CHUNK` entries, so a long cold table does
  not stall the other tables of the process;
- an entry the rules refuse (the engine changed under a stored game) stops the fold: the
  table is marked as needing attention with the entry's seq and the `RuleError`, and
  `LogBroken` is raised. Nothing is skipped and nothing is deleted.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from shared.engine import Engine, RuleError, decode_action
from shared.games import get_engine
from shared.store.events import EventStore
from shared.store.models import Attention, LoggedAction, TableSummary, UnknownTable
from shared.store.snapshot import restore_timeline
from shared.timeline import Timeline

FOLD_CHUNK = 128


class LogBroken(Exception):
    """Entry `seq` of the table's log is refused by the rules (code, message)."""

    def __init__(self, table: str, seq: int, error: RuleError) -> None:
        super().__init__(f"table {table}: logged entry {seq} no longer applies: {error.code}: {error.message}")
        self.table = table
        self.seq = seq
        self.error = error

    @property
    def code(self) -> str:
        return "table_needs_attention"

    @property
    def message(self) -> str:
        if self.seq == 0:
            return f"this table's log cannot be folded: {self.error.code}: {self.error.message}"
        return f"this table's log no longer folds: entry {self.seq} is refused ({self.error.code}: {self.error.message})"


class LogGap(Exception):
    """The entries read jump over a seq (a read raced the log); read again from `timeline.length`."""


class Loaded(NamedTuple):
    meta: TableSummary
    engine: Engine[Any]
    timeline: Timeline[Any]
    source: str  # "snapshot" or "log": where the fold started


def fold_entry(timeline: Timeline[Any], entry: LoggedAction, table: str) -> tuple[Any, Any]:
    """Fold one stored entry (the next seq): (the new state, the decoded action). LogBroken
    if the rules refuse it, LogGap if it is not the next seq."""
    if entry.seq != timeline.length + 1:
        raise LogGap(f"table {table}: expected seq {timeline.length + 1}, got {entry.seq}")
    try:
        action = decode_action(timeline.engine, entry.action)
        return timeline.push(entry.seat, action), action
    except RuleError as exc:
        raise LogBroken(table, entry.seq, exc) from None


async def fold_entries(timeline: Timeline[Any], entries: Iterable[LoggedAction], table: str,
                       chunk: int = FOLD_CHUNK) -> None:
    """Fold the entries after `timeline.length`, yielding to the loop every `chunk` entries."""
    done = 0
    for entry in entries:
        if entry.seq <= timeline.length:
            continue  # folded already (another reader got there first)
        fold_entry(timeline, entry, table)
        done += 1
        if done % chunk == 0:
            await asyncio.sleep(0)


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


class CachedTable:
    """A table folded in memory: its meta (refreshable), engine and Timeline."""

    __slots__ = ("table", "meta", "engine", "timeline")

    def __init__(self, table: str, loaded: Loaded) -> None:
        self.table = table
        self.meta = loaded.meta
        self.engine = loaded.engine
        self.timeline = loaded.timeline

    @property
    def seq(self) -> int:
        return self.timeline.length


class TableCache:
    """Tables kept folded (LRU), each caught up with its log on `current`: for readers that
    follow tables without serving them (the bot worker)."""

    def __init__(self, store: EventStore, capacity: int) -> None:
        self.store = store
        self.capacity = max(1, capacity)
        self._tables: OrderedDict[str, CachedTable] = OrderedDict()

    async def current(self, table: str) -> CachedTable:
        cached = self._tables.get(table)
        if cached is None:
            cached = CachedTable(table, await open_table(self.store, table))
            self._tables[table] = cached
            while len(self._tables) > self.capacity:
                self._tables.popitem(last=False)
        else:
            self._tables.move_to_end(table)
            await catch_up(self.store, table, cached.timeline)
        return cached
