"""`roundhouse arena`, run as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from services.offline.arena import wilson

REPO = Path(__file__).resolve().parents[2]


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", "arena", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def test_the_arena_prints_figures_and_ends_with_its_json_line() -> None:
    proc = arena("--players", "3", "--bots", "heuristic,random,random", "--games", "6", "--seed", "3",
                 "--iterations", "10", "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    figures = json.loads(lines[-1])["arena"]
    assert set(figures) == {"games", "illegal_moves", "bots"}
    assert figures["games"] == 6 and figures["illegal_moves"] == 0
    assert set(figures["bots"]) == {"heuristic", "random"}
    for name, bot in figures["bots"].items():
        assert set(bot) == {"win_rate", "ci95", "mean_score", "move_ms_p95"}
        lo, hi = bot["ci95"]
        assert 0 <= lo <= bot["win_rate"] <= hi <= 1
        assert bot["move_ms_p95"] > 0
        assert any(line.startswith(name) for line in lines[:-1])  # the human-readable table
    # Seats rotate: heuristic played 6 seat-games, the two random seats 12 between them.
    heuristic = figures["bots"]["heuristic"]
    assert (heuristic["win_rate"] * 6) + (figures["bots"]["random"]["win_rate"] * 12) == pytest.approx(6, abs=0.01)


def test_the_same_command_plays_the_same_games() -> None:
    args = ("--players", "2", "--bots", "mcts,random", "--games", "2", "--seed", "9", "--budget-ms", "0",
            "--iterations", "8", "--workers", "1")
    first, again = arena(*args), arena(*args)
    assert first.returncode == 0, first.stderr
    pick = lambda proc: {k: v["mean_score"] for k, v in json.loads(proc.stdout.splitlines()[-1])["arena"]["bots"].items()}
    assert pick(first) == pick(again)


@pytest.mark.parametrize(
    ("args", "prefix"),
    [
        (["--bots", "mcts,alphazero"], "bots: unknown_bot: 'alphazero'"),
        (["--players", "4", "--bots", "mcts,random"], "bots: bad_bots: 2 bot(s) for 4 players"),
        (["--players", "9", "--bots", "random"], "players: bad_players: chicago-express takes 2..6 players"),
        (["--title", "chess"], "title: unknown_title:"),
        (["--games", "0"], "games: bad_games:"),
        (["--budget-ms", "0"], "budget-ms: bad_budget: 0 (no clock) needs --iterations"),
        (["--iterations", "0"], "iterations: bad_budget:"),
        (["--workers", "0"], "workers: bad_workers:"),
    ],
)
def test_bad_flags_fail_in_one_line(args: list[str], prefix: str) -> None:
    if "--bots" not in args:
        args = [*args, "--bots", "random,random", "--players", "2"] if "--players" not in args else args
    proc = arena(*args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(prefix), proc.stderr


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(3, 10) == pytest.approx((0.1078, 0.6032), abs=1e-4)
