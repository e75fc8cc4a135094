"""Tables as the application layer sees them: folded from the event store, kept folded,
snapshotted. Apart from the domain (shared/engine.py, shared/timeline.py, the titles in
shared/games/) and from persistence (shared/store/, whose Redis store is the adapter of the
`EventStore` protocol here)."""

from shared.tables.eventstore import EventStore
from shared.tables.fold import FOLD_CHUNK, LogBroken, LogGap, fold_entries, fold_entry
from shared.tables.repository import FoldedTable, Loaded, Snapshot, TableRepository, catch_up, mark, open_table

__all__ = [
    "EventStore", "FOLD_CHUNK", "LogBroken", "LogGap", "fold_entries", "fold_entry",
    "FoldedTable", "Loaded", "Snapshot", "TableRepository", "catch_up", "mark", "open_table",
]
