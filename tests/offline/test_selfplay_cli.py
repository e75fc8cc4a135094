"""`roundhouse selfplay`, run as a subprocess."""

from __future__ import annotations

import json

import pytest

from .helpers import assert_one_line_error, run_cli


def selfplay(*args: str) -> tuple[list[dict], dict]:
    proc = run_cli("selfplay", "--title", "chicago-express", *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    return lines[:-1], lines[-1]["summary"]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_random_game_finishes(players: int) -> None:
    games, summary = selfplay("--players", str(players), "--games", "2", "--seed", str(players))
    assert [g["game"] for g in games] == [0, 1]
    for game in games:
        assert game["finished"] is True
        result = game["result"]
        assert len(result["scores"]) == len(result["ranks"]) == players
        assert game["winners"] == [f"P{w + 1}" for w in result["winners"]]
        assert game["actions"] > 0
    assert summary["games"] == 2 and summary["finished"] == 2
    assert summary["actions"] == sum(g["actions"] for g in games)
    assert summary["playouts_per_s"] > 0 and summary["actions_per_s"] > 0


def test_the_same_flags_play_the_same_games_and_the_seed_changes_them() -> None:
    first, _ = selfplay("--players", "3", "--games", "2", "--seed", "41")
    again, _ = selfplay("--players", "3", "--games", "2", "--seed", "41")
    other, _ = selfplay("--players", "3", "--games", "2", "--seed", "42")
    assert first == again
    assert [g["seed"] for g in first] != [g["seed"] for g in other]


def test_the_action_cap_leaves_a_game_unfinished() -> None:
    games, summary = selfplay("--players", "4", "--games", "1", "--max-actions", "3")
    assert games == [{"game": 0, "seed": games[0]["seed"], "actions": 3, "finished": False, "result": None, "winners": []}]
    assert summary["finished"] == 0 and summary["actions"] == 3


@pytest.mark.parametrize(
    ("args", "prefix"),
    [
        (["--title", "no-such-game"], "title: unknown_title: "),
        (["--players", "1"], "players: bad_players: chicago-express takes "),
        (["--games", "-1"], "games: bad_games: "),
        (["--max-actions", "0"], "max-actions: bad_max_actions: "),
    ],
)
def test_bad_flags_fail_in_one_line(args: list[str], prefix: str) -> None:
    assert_one_line_error(run_cli("selfplay", *args), prefix, 2)
