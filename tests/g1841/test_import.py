"""The real 1841 exports through `roundhouse import-18xx`'s fold, as far as the engine goes yet.

Not complete: each export is folded until the first action our rules refuse, and that action's
index must not fall below the furthest reached so far (a floor that rises as the rules do). The
acceptance (every action accepted, the export's result and end reason) is issue 21's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from services.offline.errors import OfflineError
from services.offline.import_18xx import import_export, summary
from tests.exports import export_paths

EXPORTS = export_paths("1841")
# the first refused action's index reached by the engine as it stands (export actions from 0)
FLOORS = {"132002.json": 800, "1841_game_end_bankrupt.json": 562}


def reached(path: Path) -> int:
    export = json.loads(path.read_text())
    try:
        run = import_export(export)
    except OfflineError as exc:
        found = re.match(r"action (\d+) ", exc.line)
        assert found, exc
        return int(found.group(1))
    # folded to the end: the export's result (each player's cash and shares at market
    # price) and end reason
    got = summary(run)
    assert got["result"] == {str(k): v for k, v in export["result"].items()}
    assert got["game_end_reason"] == export["game_end_reason"]
    return len(export["actions"])


@pytest.mark.skipif(not EXPORTS, reason="1841 exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_the_real_exports_fold_at_least_as_far_as_before(path: Path) -> None:
    assert reached(path) >= FLOORS.get(path.name, 0)
