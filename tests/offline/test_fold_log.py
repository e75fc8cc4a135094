"""Folding a table log (the core of `roundhouse replay`) on the Nim test title: the same code must
serve every title, so it is checked here on one that is not Chicago Express."""

from __future__ import annotations

import json
from typing import Any

import pytest

from services.offline.errors import OfflineError
from services.offline.random_play import game_seeds, play_random_game
from services.offline.replay import final_report, fold_log
from services.offline.table_log import TableLog, decode_log, encode_log
from tests.titles.nim import ENGINE as NIM
from tests.titles.nim import Take


def nim_log() -> dict[str, Any]:
    """A finished random 3-seat game of three piles whose first action is seat 0's take
    (setup seed 0: Nim's seed picks the starting seat; its first entries are seat 0's)."""
    rng = game_seeds(7, 0)[1]
    playout = play_random_game(NIM, 3, 0, rng, options={"piles": 3, "pile": 5, "max_take": 3})
    assert playout.finished
    first = next(i for i, (_, a) in enumerate(playout.actions) if isinstance(a, Take))
    del playout.actions[:first]  # shouts before seat 0's first take
    return json.loads(encode_log("nim", playout.options, playout.seats, playout.seed, playout.actions))


def fold(log: dict[str, Any]) -> Any:
    return fold_log(decode_log(json.dumps(log).encode()), NIM)


def test_a_random_game_log_folds_to_its_result() -> None:
    log = nim_log()
    report = final_report(fold(log))
    assert report["seq"] == len(log["actions"])
    assert report["active_seats"] == []
    last_seat = log["actions"][-1]["seat"]
    assert report["result"]["winners"] == [last_seat]
    assert report["view"]["piles"] and not any(report["view"]["piles"])


def test_undo_and_redo_entries_are_folded() -> None:
    log = nim_log()
    first = log["actions"][0]
    undo = {"seat": first["seat"], "action": {"type": "undo"}}
    redo = {"seat": first["seat"], "action": {"type": "redo"}}
    log["actions"][1:1] = [undo, redo]
    full = final_report(fold(log))
    assert full["seq"] == len(log["actions"])
    assert full["result"] == final_report(fold(nim_log()))["result"]

    log["actions"] = log["actions"][:2]  # first action, then its undo: back to the start
    undone = fold(log)
    assert undone.state == undone.initial and undone.length == 2


@pytest.mark.parametrize(
    ("entry", "line"),
    [
        ({"action": {"type": "take", "pile": 0, "count": 1}}, "action 1: bad_entry: Object missing required field `seat`"),
        ({"seat": 0, "action": {"type": "fly"}}, "action 1: bad_action: Invalid value 'fly' - at `$.type`"),
        ({"seat": 0, "action": {"type": "take", "pile": 0, "count": "1"}}, "action 1: bad_action: Expected `int`, got `str`"),
        ({"seat": 9, "action": {"type": "take", "pile": 0, "count": 1}}, "action 1: bad_seat: "),
        ({"seat": 0, "action": {"type": "take", "pile": 0, "count": 1}}, "action 1: not_your_turn: "),
        ({"seat": 1, "action": {"type": "take", "pile": 0, "count": 4}}, "action 1: bad_amount: "),
        ({"seat": 1, "action": {"type": "redo"}}, "action 1: nothing_to_redo: "),
    ],
)
def test_a_bad_entry_is_named_by_its_index(entry: dict[str, Any], line: str) -> None:
    log = nim_log()
    log["actions"][1:] = [entry]
    with pytest.raises(OfflineError) as err:
        fold(log)
    assert err.value.exit_code == 1
    assert err.value.line.startswith(line), err.value.line


@pytest.mark.parametrize(
    ("change", "line"),
    [
        ({"seats": ["only one"]}, "seats: bad_seats: nim takes 2..4 seats, the log has 1"),
        ({"seed": "x"}, "log: bad_log: Expected `int`, got `str` - at `$.seed`"),
        ({"seats": [{"kind": "bot"}, "b"]}, "log: bad_log: Object missing required field `name` - at `$.seats[0]`"),
    ],
)
def test_log_level_problems(change: dict[str, Any], line: str) -> None:
    log = nim_log() | change
    log["actions"] = []
    with pytest.raises(OfflineError) as err:
        fold(log)
    assert err.value.exit_code == 2
    assert err.value.line == line


def test_seats_may_be_names_or_full_seat_records() -> None:
    log = decode_log(b'{"title": "nim", "seed": 1, "actions": [], "seats": ["ann", {"name": "bot", "kind": "bot", "level": 2}]}')
    assert isinstance(log, TableLog)
    assert log.seat_names() == ["ann", "bot"] and log.options == {}
