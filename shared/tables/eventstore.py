"""The event store as the table repository sees it: a protocol, so the repository (and the
projection's feeds) name what they need of persistence and nothing of Redis.

`shared.store.RedisEventStore` is the adapter every deployment uses; a test or a tool may
pass anything with these methods. The rest of the Redis store (the turn stream, budgets,
listings, clocks) belongs to the services that use it and is typed with the adapter there.
"""

from __future__ import annotations

from typing import Protocol

from shared.store.models import Attention, LoggedAction, TableSummary


class EventStore(Protocol):
    async def get_meta(self, table: str) -> TableSummary | None:
        """The table's meta, or None for an unknown table."""

    async def read(self, table: str, after_seq: int, count: int | None = None) -> list[LoggedAction]:
        """The log entries after `after_seq`, in seq order (their `action` is canonical JSON)."""

    async def last_seq(self, table: str) -> int:
        """The seq of the table's last logged entry (0 for none)."""

    async def load_snapshot(self, table: str) -> tuple[int, bytes] | None:
        """The latest snapshot as (seq, blob), or None."""

    async def save_snapshot(self, table: str, seq: int, blob: bytes, ttl_ms: int = 0) -> None:
        """Keep `blob` as the table's snapshot at `seq` (a cache: it may be lost)."""

    async def mark_attention(self, table: str, note: Attention) -> None:
        """Record that the table's log no longer folds (which entry, which rule error)."""
