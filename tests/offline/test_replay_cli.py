"""`roundhouse replay LOG`, run as a subprocess on Chicago Express logs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.engine import action_to_builtins
from shared.games import get_engine

from services.offline.random_play import DEFAULT_MAX_ACTIONS

from .helpers import Prefix, assert_one_line_error, int_field, ranged, run_cli, selfplay_game, write_json, write_playout_log

TITLE = "chicago-express"


@pytest.fixture(scope="module")
def engine() -> Any:
    return get_engine(TITLE)


def replay(path: Path) -> dict[str, Any]:
    proc = run_cli("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout)


def test_replaying_a_selfplay_game_gives_its_result(engine: Any, tmp_path: Path) -> None:
    proc = run_cli("selfplay", "--title", TITLE, "--players", "4", "--games", "2", "--seed", "9")
    assert proc.returncode == 0, proc.stderr
    line = json.loads(proc.stdout.splitlines()[1])

    playout = selfplay_game(engine, 4, 9, 1, DEFAULT_MAX_ACTIONS)
    report = replay(write_playout_log(tmp_path / "game1.json", TITLE, playout))
    assert report["title"] == TITLE
    assert report["seq"] == line["actions"] == len(playout.actions)
    assert report["result"] == line["result"]
    assert report["active_seats"] == []
    assert report["view"] == json.loads(json.dumps(engine.view(playout.state, None)))


def test_undo_and_redo_entries_fold_away(engine: Any, tmp_path: Path) -> None:
    playout = selfplay_game(engine, 3, 5, 0, DEFAULT_MAX_ACTIONS)
    log = json.loads(write_playout_log(tmp_path / "plain.json", TITLE, playout).read_text())
    seat = log["actions"][2]["seat"]
    log["actions"][3:3] = [{"seat": seat, "action": {"type": "undo"}}, {"seat": seat, "action": {"type": "redo"}}]
    report = replay(write_json(tmp_path / "undo.json", log))
    assert report["seq"] == len(playout.actions) + 2
    assert playout.result is not None
    assert report["result"] == msgspec.to_builtins(playout.result)


def test_a_log_cut_mid_game_shows_whose_turn_it_is(engine: Any, tmp_path: Path) -> None:
    prefix = Prefix(engine, 4, 3, lambda la: True, min_index=5)
    report = replay(write_json(tmp_path / "cut.json", prefix.log_with(TITLE)))
    assert report["seq"] == 5 and report["result"] is None
    assert report["active_seats"] == sorted(engine.active_seats(prefix.state))


# --- rejections: one line on stderr, no traceback, the entry's index named ----------------------


def rejected(path: Path, prefix: str, exit_code: int) -> str:
    return assert_one_line_error(run_cli("replay", str(path)), prefix, exit_code)


def test_bad_json_is_reported_with_its_position(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"title": "chicago-express",\n  "seats": ["a", "b"],,\n}')
    line = rejected(path, f"{path}: bad_json: JSON is malformed", 2)
    assert "line 2 column 23" in line


def test_an_unreadable_file_is_reported(tmp_path: Path) -> None:
    rejected(tmp_path / "missing.json", f"{tmp_path / 'missing.json'}: unreadable: ", 2)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seed": None}, "Expected `int`, got `null` - at `$.seed`"),
        ({"actions": {"seat": 0}}, "Expected `array`, got `object` - at `$.actions`"),
        ({"seats": "abc"}, "Expected `array`, got `str` - at `$.seats`"),
    ],
)
def test_wrong_typed_log_fields_are_schema_errors(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    log = {"title": TITLE, "options": {}, "seats": ["a", "b"], "seed": 1, "actions": []} | change
    rejected(write_json(tmp_path / "log.json", log), f"{tmp_path / 'log.json'}: bad_log: {message}", 2)


@pytest.mark.parametrize("missing", ["title", "seats", "seed", "actions"])
def test_missing_log_fields_are_schema_errors(tmp_path: Path, missing: str) -> None:
    log = {"title": TITLE, "options": {}, "seats": ["a", "b"], "seed": 1, "actions": []}
    del log[missing]
    path = write_json(tmp_path / "log.json", log)
    rejected(path, f"{path}: bad_log: Object missing required field `{missing}`", 2)


def test_an_unknown_title_is_rejected(tmp_path: Path) -> None:
    path = write_json(tmp_path / "log.json", {"title": "monopoly", "seats": ["a", "b"], "seed": 1, "actions": []})
    rejected(path, "title: unknown_title: unknown title 'monopoly'", 2)


@pytest.fixture(scope="module")
def prefix(engine: Any) -> Prefix:
    """A Chicago Express game 4 actions in, at a turn where the seat to act may bid up to its cash."""
    found = Prefix(engine, 4, 21, ranged, min_index=4)
    bid, amounts = action_to_builtins(found.legal.action), found.legal.range
    cash = engine.view(found.state, None)["players"][found.seat]["cash"]
    assert bid["type"] == "bid" and amounts is not None and amounts.field == "amount" and amounts.max == cash
    return found


def rejected_entry(tmp_path: Path, prefix: Prefix, entry: dict[str, Any], code: str) -> str:
    path = write_json(tmp_path / "log.json", prefix.log_with(TITLE, entry))
    return rejected(path, f"action {prefix.index}: {code}: ", 1)


def test_an_unknown_action_type_is_rejected(tmp_path: Path, prefix: Prefix) -> None:
    rejected_entry(tmp_path, prefix, {"seat": prefix.seat, "action": {"type": "teleport"}}, "bad_action")


def test_a_seat_out_of_range_is_rejected(tmp_path: Path, prefix: Prefix) -> None:
    action = action_to_builtins(prefix.legal.action)
    rejected_entry(tmp_path, prefix, {"seat": 4, "action": action}, "bad_seat")


def test_a_seat_that_is_not_to_move_is_rejected_by_the_engine(tmp_path: Path, prefix: Prefix) -> None:
    action = action_to_builtins(prefix.legal.action)
    other = (prefix.seat + 1) % 4
    rejected_entry(tmp_path, prefix, {"seat": other, "action": action}, "not_your_turn")


def test_a_bid_over_the_bidders_cash_is_rejected(tmp_path: Path, prefix: Prefix) -> None:
    assert prefix.legal.range is not None
    over = {"type": "bid", "amount": prefix.legal.range.max + 1}
    rejected_entry(tmp_path, prefix, {"seat": prefix.seat, "action": over}, "insufficient_cash")


def test_a_field_of_the_wrong_type_is_rejected(tmp_path: Path, prefix: Prefix) -> None:
    field = int_field(prefix.legal)
    assert field is not None
    action = action_to_builtins(prefix.legal.action) | {field: "ten"}
    line = rejected_entry(tmp_path, prefix, {"seat": prefix.seat, "action": action}, "bad_action")
    assert f"$.{field}" in line


def test_an_entry_without_a_seat_is_rejected(tmp_path: Path, prefix: Prefix) -> None:
    action = action_to_builtins(prefix.legal.action)
    rejected_entry(tmp_path, prefix, {"action": action}, "bad_entry")
