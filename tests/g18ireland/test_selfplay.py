"""`roundhouse selfplay --title 18ireland` plays random legal games through the registry for
every player count, and an unlucky random game that finishes reports a full result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_selfplay_runs_through_the_registry(players: int) -> None:
    proc = subprocess.run([sys.executable, "-m", "services.cli", "selfplay", "--title", "18ireland", "--players",
                           str(players), "--games", "2", "--max-actions", "600", "--seed", "3"],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    games, summary = lines[:-1], lines[-1]["summary"]
    assert summary["games"] == 2 and len(games) == 2
    for game in games:
        assert 0 < game["actions"] <= 600
        if game["finished"]:
            result = game["result"]
            assert len(result["scores"]) == players
            assert result["reason"] in ("bank", "bankrupt", "stock_market", "dnf")
            assert min(result["ranks"]) == 1 and game["winners"]
        else:
            assert game["actions"] == 600 and game["result"] is None
