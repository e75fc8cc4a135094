"""`roundhouse export-18xx`: our games as 18xx.games exports, run as a subprocess.

The round trip is the proof the tool owes without 18xx.games' engine at hand: a real export
imported, its log exported by the command, and that export imported again gives the same log
entry for entry (undo and redo included), the same result and the same reason. Whether
18xx.games' own engine loads the export to the same position is the differential replay's
job (the title READMEs give its figures).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from shared.bots.base import concrete
from shared.bots.random_bot import random_action
from shared.engine import action_to_builtins, is_program
from shared.families import expand
from shared.games import get_engine

from services.offline.import_18xx import import_export, summary
from services.offline.import_table import store_table
from services.offline.random_play import seat_names
from services.offline.table_log import encode_log
from tests.exports import export_paths

from .helpers import assert_one_line_error, run_cli, write_json

EXPORTS = export_paths("18Ireland")
needs_exports = pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")


def plain(entries: list[tuple[int, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, action_to_builtins(action)) for seat, action in entries]


def export_cli(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "export.json"
    proc = run_cli("export-18xx", *args, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    return json.loads(out.read_text())


def imported_log(tmp_path: Path, export: dict[str, Any]) -> tuple[Path, Any]:
    run = import_export(export)
    seats = run.timeline.seats
    path = tmp_path / "imported.json"
    path.write_bytes(encode_log(run.engine.title, run.timeline.options, seats, run.timeline.seed, run.entries))
    return path, run


@needs_exports
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_import_export_import_gives_the_same_log(tmp_path: Path, path: Path) -> None:
    original = json.loads(path.read_text())
    log_path, first = imported_log(tmp_path, original)
    exported = export_cli(tmp_path, str(log_path))
    second = import_export(exported)
    assert plain(second.entries) == plain(first.entries)
    assert any(a["type"] == "undo" and "action_id" in a for a in exported["actions"])
    # the same game: its end, and every player's value, by the export's own player ids
    assert exported["status"] == "finished" and exported["game_end_reason"] == original["game_end_reason"]
    by_seat = [str(p["id"]) for p in original["players"]]
    ours = {by_seat[int(pid) - 1]: score for pid, score in exported["result"].items()}
    assert ours == {str(k): v for k, v in original["result"].items()}
    assert summary(second)["game_end_reason"] == original["game_end_reason"]
    assert [p["name"] for p in exported["players"]] == [p["name"] for p in original["players"]]
    assert exported["settings"]["seed"] == original["settings"]["seed"]
    assert exported["settings"]["optional_rules"] == original["settings"]["optional_rules"]
    assert [a["id"] for a in exported["actions"]] == list(range(1, len(exported["actions"]) + 1))


@pytest.mark.parametrize(("players", "options"), [(3, []), (6, ["--option", "larger_bank=true"])])
def test_a_saved_selfplay_game_exports_to_a_game_that_imports_to_its_log(
        tmp_path: Path, players: int, options: list[str]) -> None:
    saved = tmp_path / "games"
    proc = run_cli("selfplay", "--title", "18ireland", "--players", str(players), "--games", "2", "--seed", "7",
                   *options, "--save", str(saved))
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()][:-1]
    assert sorted(p.name for p in saved.iterdir()) == ["game-0.json", "game-1.json"]
    for line in lines:
        log = json.loads((saved / f"game-{line['game']}.json").read_text())
        assert log["seed"] == line["seed"] and len(log["actions"]) == line["actions"]
        exported = export_cli(tmp_path, str(saved / f"game-{line['game']}.json"))
        assert exported["settings"]["optional_rules"] == (["larger_bank"] if options else [])
        assert [p["name"] for p in exported["players"]] == [f"P{i + 1}" for i in range(players)]
        back = import_export(exported)
        assert [(seat, action) for seat, action in plain(back.entries)] == \
            [(e["seat"], e["action"]) for e in log["actions"]]
        if line["finished"]:
            assert exported["game_end_reason"] == line["result"]["reason"]
            assert [exported["result"][str(i + 1)] for i in range(players)] == line["result"]["scores"]


@needs_exports
async def test_a_stored_table_exports_by_its_id(tmp_path: Path, redis_url: str) -> None:
    run = import_export(json.loads(EXPORTS[-1].read_text()))
    table = (await store_table(run, redis_url))["table"]
    proc = run_cli("export-18xx", table, "--redis-url", redis_url)
    assert proc.returncode == 0, proc.stderr
    exported = json.loads(proc.stdout)
    assert plain(import_export(exported).entries) == plain(run.entries)
    assert all(isinstance(a["created_at"], int) for a in exported["actions"])


def test_a_title_without_an_18xx_games_counterpart_is_one_line(tmp_path: Path) -> None:
    log = write_json(tmp_path / "chicago.json", {"title": "chicago-express", "seats": ["a", "b", "c"], "seed": 1,
                                                 "actions": []})
    assert_one_line_error(run_cli("export-18xx", str(log)), "title: no_export: chicago-express", 2)


@pytest.mark.parametrize(("content", "prefix"), [
    (b"{not json", "LOG: bad_json"),
    (b'{"title": "18ireland", "seats": ["a", "b", "c"]}', "LOG: bad_log"),
    (b'{"title": "no-such-game", "seats": ["a", "b", "c"], "seed": 1, "actions": []}', "title: unknown_title"),
    (b'{"title": "18ireland", "seats": ["a", "b", "c"], "seed": 1, "actions": [{"seat": 0, "action": {"type": "jump"}}]}',
     "action 0: bad_action"),
    (b'{"title": "18ireland", "seats": ["a", "b", "c"], "seed": 1, "actions": '
     b'[{"seat": 2, "action": {"type": "pass", "entity": "2", "entity_type": "player"}}]}', "action 0: not_your_turn"),
    (b'{"title": "18ireland", "seats": ["a"], "seed": 1, "actions": []}', "setup: bad_seats"),
])
def test_bad_logs_are_one_line(tmp_path: Path, content: bytes, prefix: str) -> None:
    path = tmp_path / "log.json"
    path.write_bytes(content)
    assert_one_line_error(run_cli("export-18xx", str(path)), prefix.replace("LOG", str(path)), 1 if "action" in prefix else 2)


def test_a_missing_file_or_table_is_one_line(tmp_path: Path, redis_url: str) -> None:
    missing = tmp_path / "missing.json"
    assert_one_line_error(run_cli("export-18xx", str(missing)), f"{missing}: unreadable", 2)
    assert_one_line_error(run_cli("export-18xx", "nosuchtable", "--redis-url", redis_url),
                          "nosuchtable: no_such_table", 2)
    assert_one_line_error(run_cli("export-18xx", "nosuchtable", "--redis-url", "redis://127.0.0.1:1/0"),
                          "store: cannot reach Redis", 2)


def test_an_unwritable_output_is_one_line(tmp_path: Path) -> None:
    proc = run_cli("selfplay", "--title", "18ireland", "--players", "3", "--games", "1", "--max-actions", "5",
                   "--save", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    target = tmp_path / "no" / "such" / "dir" / "x.json"
    assert_one_line_error(run_cli("export-18xx", str(tmp_path / "game-0.json"), "-o", str(target)),
                          f"{target}: cannot write", 2)


@pytest.mark.parametrize(("args", "prefix"), [
    (["--option", "larger_bank"], "option: bad_option"),
    (["--option", "larger_bank=3"], "option: bad_options: larger_bank must be true or false"),
    (["--option", "no_such=1"], "option: bad_options: no option no_such"),
    (["--option", "undo=off"], "option: bad_option: undo is a table's setting"),
])
def test_bad_selfplay_options_are_one_line(args: list[str], prefix: str) -> None:
    assert_one_line_error(run_cli("selfplay", "--title", "18ireland", "--players", "3", "--games", "1", *args),
                          prefix, 2)


def test_moves_players_programs_make_are_exported_as_auto_actions(tmp_path: Path) -> None:
    """Players set programs now and then, as at a live table; the moves the engine makes for
    them travel as the deciding action's `auto_actions`, and importing the export reaches the
    same end with the same money."""
    engine = get_engine("18ireland")
    rng = random.Random(11)
    seats = seat_names(4)
    state = engine.setup(seats, {"larger_bank": False}, 1234)
    log: list[tuple[int, Any]] = []
    while engine.result(state) is None and len(log) < 3000:
        seat = rng.randrange(4)
        programs = [la for la in engine.legal_actions(state, seat) if is_program(la.action)]
        if programs and rng.random() < 0.05:
            choice = programs[rng.randrange(len(programs))]
            members = list(expand(choice)) if choice.choices is not None else [choice.action]
            action = members[rng.randrange(len(members))]
            if choice.range is not None:
                action = concrete(choice, rng.choice(choice.range.values()))
        else:
            seat = min(engine.active_seats(state))
            action = random_action(engine, state, seat, rng)
        state = engine.apply(state, seat, action)
        log.append((seat, action))
    path = tmp_path / "programs.json"
    path.write_bytes(encode_log("18ireland", {"larger_bank": False}, seats, 1234, log))
    exported = export_cli(tmp_path, str(path))
    autos = [x for a in exported["actions"] for x in a.get("auto_actions") or []]
    assert any(a["type"].startswith("program_") for a in exported["actions"])
    assert autos and all(x["entity_type"] == "player" and isinstance(x["entity"], int) for x in autos)
    assert all("id" not in x for x in autos)
    back = import_export(exported)
    ours, theirs = engine.result(state), back.engine.result(back.timeline.state)
    assert ours is not None and theirs is not None
    assert (theirs.scores, theirs.reason) == (ours.scores, ours.reason)
    assert back.engine.view(back.timeline.state, None)["players"] == engine.view(state, None)["players"]
