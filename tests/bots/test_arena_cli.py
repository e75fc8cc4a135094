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
    assert set(figures) == {"games", "illegal_moves", "stuck", "end_reasons", "bots", "head_to_head"}
    assert figures["stuck"] == 0
    assert figures["games"] == 6 and figures["illegal_moves"] == 0
    # every game is counted under the reason it ended with, and the table says the same
    assert sum(figures["end_reasons"].values()) == 6
    printed = next(line for line in lines if line.startswith("end_reasons: "))
    assert printed == "end_reasons: " + ", ".join(f"{k} {v}" for k, v in figures["end_reasons"].items())
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
    # head to head, both ways: heuristic ahead of random and random ahead of heuristic add up to 1
    pairs = figures["head_to_head"]
    assert set(pairs) == {"heuristic>random", "random>heuristic"}
    ahead, behind = pairs["heuristic>random"], pairs["random>heuristic"]
    assert ahead["games"] == behind["games"] == 6
    assert ahead["rate"] + behind["rate"] == pytest.approx(1.0, abs=1e-3)
    lo, hi = ahead["ci95"]
    assert 0 <= lo <= ahead["rate"] <= hi <= 1


def test_the_arena_counts_end_reasons_of_an_18xx_title() -> None:
    """18Ireland's games end by the bank, the market or bankruptcy (18xx.games' reasons, `dnf`
    at its 100th stock round), or at the action cap (`unfinished`): each reason is printed with
    its count."""
    proc = arena("--title", "18ireland", "--players", "3", "--bots", "random,random,random", "--games", "3",
                 "--seed", "2", "--workers", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    reasons = json.loads(lines[-1])["arena"]["end_reasons"]
    assert sum(reasons.values()) == 3 and set(reasons) <= {"bank", "stock_market", "bankrupt", "dnf"}, reasons
    assert list(reasons.values()) == sorted(reasons.values(), reverse=True)
    assert "end_reasons: " + ", ".join(f"{k} {v}" for k, v in reasons.items()) in lines

    capped = arena("--title", "18ireland", "--players", "3", "--bots", "random,random,random", "--games", "2",
                   "--seed", "2", "--workers", "1", "--max-actions", "40")
    assert capped.returncode == 0, capped.stderr
    assert json.loads(capped.stdout.splitlines()[-1])["arena"]["end_reasons"] == {"unfinished": 2}
    assert "end_reasons: unfinished 2" in capped.stdout.splitlines()


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
