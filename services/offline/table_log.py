"""A table log on disk: what `roundhouse replay` reads and the offline tools write.

```
{"title": "chicago-express", "options": {}, "seats": ["ann", {"name": "bot", "kind": "bot"}],
 "seed": 7, "actions": [{"seat": 0, "action": {"type": "bid", ...}}, {"seat": 0, "action": {"type": "undo"}}]}
```

`actions` is kept as raw JSON per entry so that a bad entry is reported with its index and
decoded by the title's own action union (through `decode_action`), not by this module.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec

from shared.engine import action_to_builtins

from services.offline.errors import OfflineError


class SeatSpec(msgspec.Struct, frozen=True):
    """A seat written out in full; a plain string in `seats` is just the name."""

    name: str
    kind: str = "human"
    level: str | int | None = None


class LogEntry(msgspec.Struct, frozen=True):
    seat: int
    action: msgspec.Raw


class TableLog(msgspec.Struct, frozen=True):
    title: str
    seats: list[str | SeatSpec]
    seed: int
    actions: list[msgspec.Raw]
    options: dict[str, Any] = {}

    def seat_names(self) -> list[str]:
        return [s if isinstance(s, str) else s.name for s in self.seats]


_BYTE_POS = re.compile(r"\(byte (\d+)\)")


def _with_line_column(message: str, data: bytes) -> str:
    """msgspec reports a byte offset; people look for a line and a column."""
    match = _BYTE_POS.search(message)
    if match is None:
        return message
    offset = min(int(match.group(1)), len(data))
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return f"{message}, line {line} column {column}"


def decode_log(data: bytes, source: str = "log") -> TableLog:
    try:
        return msgspec.json.decode(data, type=TableLog)
    except msgspec.ValidationError as exc:
        raise OfflineError(f"{source}: bad_log: {exc}", 2) from None
    except msgspec.DecodeError as exc:
        raise OfflineError(f"{source}: bad_json: {_with_line_column(str(exc), data)}", 2) from None


def load_log(path: str | Path) -> TableLog:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise OfflineError(f"{path}: unreadable: {exc.strerror or exc}", 2) from None
    return decode_log(data, str(path))


def decode_entry(index: int, raw: msgspec.Raw) -> LogEntry:
    try:
        return msgspec.json.decode(raw, type=LogEntry)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise OfflineError(f"action {index}: bad_entry: {exc}", 1) from None


def encode_log(
    title: str, options: dict[str, Any], seats: list[str], seed: int, actions: list[tuple[int, Any]]
) -> bytes:
    """The log of a game whose actions are (seat, action struct) pairs, in the format `decode_log` reads."""
    entries = [{"seat": seat, "action": action_to_builtins(action)} for seat, action in actions]
    return msgspec.json.encode(
        {"title": title, "options": options, "seats": seats, "seed": seed, "actions": entries}
    )
