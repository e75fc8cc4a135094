"""Redis Streams event store: per-table action logs, table meta, snapshots, the turn stream.

`RedisEventStore` is the adapter of the `EventStore` protocol the table repository reads
through (shared/tables/); folding and snapshots live there, not here."""

from shared.store.events import RedisEventStore
from shared.store.models import (
    FINISHED,
    OPEN,
    RUNNING,
    STATUSES,
    AppendOutcome,
    Attention,
    LoggedAction,
    ReplicaAckTimeout,
    SeatSpec,
    TableExists,
    TableMeta,
    TableSummary,
    TurnNotice,
    UnknownTable,
)

__all__ = [
    "RedisEventStore",
    "AppendOutcome",
    "Attention",
    "LoggedAction",
    "ReplicaAckTimeout",
    "SeatSpec",
    "TableExists",
    "TableMeta",
    "TableSummary",
    "TurnNotice",
    "UnknownTable",
    "OPEN",
    "RUNNING",
    "FINISHED",
    "STATUSES",
]
