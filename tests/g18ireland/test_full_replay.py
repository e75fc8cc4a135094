"""Whole games: both real 18Ireland exports replay from the seed to the end through our money
side - auction and every stock round checked against our legal actions, operating rounds
(dividends, issues, trains, phases, rusting,
trade-ins, forced purchases, emergency sales, bankruptcies), merger rounds - and give exactly the
export's final values for every player and its end reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.games.g18ireland import replay as R

from .board_standin import LayCosts
from .exports import export_paths

EXPORTS = export_paths("18Ireland")


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_whole_game_result(path: Path) -> None:
    export = json.loads(path.read_text())
    rp = R.replay(export, LayCosts(), check_legal=True)
    assert rp.used == rp.total                 # every decision was used
    out = R.summary(rp)
    assert out["result"] == {str(k): v for k, v in export["result"].items()}
    assert out["game_end_reason"] == export["game_end_reason"]
