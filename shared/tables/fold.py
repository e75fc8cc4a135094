"""Folding stored entries into a Timeline, and the two ways a fold stops.

- an entry the rules refuse (the engine changed under a stored game) stops the fold with
  `LogBroken` (the entry's seq and the `RuleError`); nothing is skipped, nothing deleted;
- entries that jump over a seq (a read raced the log) stop it with `LogGap`: read again
  from `timeline.length`.

A stored entry's `action` is the canonical JSON the game service wrote (`encode_action` of
the decoded action), so readers pass those bytes on as they are; they decode only to fold.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from shared.engine import RuleError, decode_action
from shared.store.models import LoggedAction
from shared.timeline import Timeline

FOLD_CHUNK = 128  # entries folded between yields to the event loop


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
