"""Real 18Ireland games as the product imports them: `import_export` folds the export through
the engine and a Timeline (undo/redo included), and every position of the game in force is
refolded from the Timeline's set-up with the engine's `apply`. Tests that need real positions
(bad input, every listed action, the view) take them from here, so there is one replay path:
the engine's. Cached per export for the session: each import is folded once."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from shared.games import get_engine
from shared.games.g18ireland.state import State

from services.offline.import_18xx import Import, import_export

ENGINE = get_engine("18ireland")


class Position(NamedTuple):
    state: State        # before the decision
    seat: int           # the seat that made it
    action: Any         # the decision the export (or 18xx.games' program for the player) made


class Imported(NamedTuple):
    export: dict[str, Any]
    run: Import
    positions: list[Position]


@functools.cache
def imported(path: Path) -> Imported:
    export = json.loads(path.read_text())
    run = import_export(export)
    state = run.timeline.initial
    positions = []
    for seat, action in run.timeline.effective:
        positions.append(Position(state, seat, action))
        state = ENGINE.apply(state, seat, action)
    # refolding the decisions in force must land exactly where the import (with its undos) did
    assert msgspec.msgpack.encode(state) == msgspec.msgpack.encode(run.timeline.state)
    return Imported(export, run, positions)
