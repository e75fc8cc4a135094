"""Redis Streams event store: per-table action logs, table meta, snapshots, the turn stream."""

from shared.store.events import EventStore
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
    "EventStore",
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
