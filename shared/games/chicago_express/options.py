"""Table options of Chicago Express.

`dial_lengths`: how many times each action (auction, build, develop) can be chosen in a
round before its dial is on red. The rule book shows the dials but does not print their
lengths; the default (auction 3, build 5, develop 4, from board.json) is reconstructed
from the published board, so a table may set other lengths.
"""

from __future__ import annotations

from typing import Any

from shared.engine import RuleError

from .board import ACTIONS, BOARD

MAX_DIAL = 20


def default_options() -> dict[str, Any]:
    return {"dial_lengths": dict(BOARD.dials)}


def dial_lengths(options: dict[str, Any]) -> list[int]:
    """Validated dial lengths in board order (auction, build, develop)."""
    if not isinstance(options, dict):
        raise RuleError("bad_options", "options must be an object")
    unknown = set(options) - {"dial_lengths"}
    if unknown:
        raise RuleError("bad_options", f"unknown option(s): {', '.join(sorted(map(str, unknown)))}")
    lengths = dict(BOARD.dials)
    given = options.get("dial_lengths", {})
    if not isinstance(given, dict):
        raise RuleError("bad_options", "dial_lengths must be an object such as {\"auction\": 3}")
    for name, value in given.items():
        if name not in lengths:
            raise RuleError("bad_options", f"dial_lengths has no dial {name!r}; dials are {', '.join(ACTIONS)}")
        if type(value) is not int or not 1 <= value <= MAX_DIAL:
            raise RuleError("bad_options", f"dial_lengths.{name} must be a whole number from 1 to {MAX_DIAL}")
        lengths[name] = value
    return [lengths[a] for a in ACTIONS]
