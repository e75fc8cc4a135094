"""`roundhouse import-18xx`: the real 18Ireland exports fold through our engine (every action
accepted, undo/redo included) to exactly the export's final values and end reason; a
corrupted copy stops at the corrupted action with its index and the rule's refusal.

The conformance test (`test_an_export_imports_to_its_own_result`) also runs over every
18Ireland export under the folders ROUNDHOUSE_EXTRA_EXPORTS names (tests/exports.py), so any
other real game can be checked with one command."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from services.offline.import_18xx import import_export, summary
from tests.exports import EXTRA_ENV, conformance_paths, export_id, extra_dirs

from .exports import export_paths

REPO = Path(__file__).resolve().parents[2]
EXPORTS = export_paths("18Ireland")
CONFORMANCE = conformance_paths("18Ireland")
needs_exports = pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures "
                                                       "(or $ROUNDHOUSE_SHARED): nothing to import")


def run_import(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", "import-18xx", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


def expected(export: dict[str, Any]) -> dict[str, Any]:
    return {"result": {str(k): v for k, v in export["result"].items()}, "game_end_reason": export["game_end_reason"]}


@pytest.mark.skipif(not CONFORMANCE, reason="no 18Ireland exports in ../shared/fixtures, $ROUNDHOUSE_SHARED "
                                               f"or ${EXTRA_ENV}: nothing to import")
@pytest.mark.parametrize("path", CONFORMANCE, ids=[export_id(p) for p in CONFORMANCE])
def test_an_export_imports_to_its_own_result(path: Path) -> None:
    proc = run_import(path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0]) == expected(json.loads(path.read_text()))


@pytest.mark.skipif(not extra_dirs(), reason=f"${EXTRA_ENV} names no extra export folders")
def test_every_extra_export_folder_named_exists() -> None:
    """A mistyped folder would otherwise check nothing in silence."""
    missing = [str(d) for d in extra_dirs() if not d.is_dir()]
    assert missing == [], f"${EXTRA_ENV} names folders that do not exist: {missing}"


@needs_exports
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_every_action_is_folded_and_undo_targets_are_log_positions(path: Path) -> None:
    """18xx.games' action ids are not positions (undos and chat leave gaps): each undo must land
    exactly where the export's own undo/redo folding says the live decisions end."""
    from shared.games.core18xx.export_log import decisions

    export = json.loads(path.read_text())
    run = import_export(export)
    live = decisions(export["actions"])
    effective = iter(run.timeline.effective)
    engine_made = 0
    current = next(effective, None)
    for raw in live:
        entity = str(run.ids.index(str(raw["entity"]))) if raw["entity_type"] == "player" else raw["entity"]
        if current is not None and type(current[1]).__struct_config__.tag == raw["type"] \
                and str(current[1].entity) == entity:
            current = next(effective, None)
            continue
        # not in our log: a merger-round pass our engine made itself (18xx.games' auto action)
        assert raw["type"] == "pass" and raw["entity_type"] == "player", raw
        engine_made += 1
    assert current is None, "every decision in force came from the export"
    assert engine_made > 0
    undos = sum(1 for a in export["actions"] if a["type"] in ("undo", "redo"))
    assert run.timeline.length > len(live) - engine_made and undos > 0
    assert summary(run) == expected(export)


def _first(export: dict[str, Any], kind: str, after: int) -> int:
    return next(i for i, a in enumerate(export["actions"]) if i > after and a["type"] == kind)


@needs_exports
def test_a_corrupted_train_purchase_stops_the_import_with_its_index(tmp_path: Path) -> None:
    export = json.loads(EXPORTS[0].read_text())
    bad = copy.deepcopy(export)
    index = _first(bad, "buy_train", 200)
    bad["actions"][index]["price"] = 99_999
    path = tmp_path / "corrupt.json"
    path.write_text(json.dumps(bad))
    proc = run_import(path)
    assert proc.returncode == 1
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    action = bad["actions"][index]
    assert lines[0].startswith(f"action {index} (id {action['id']} buy_train by {action['entity']}): ")


@needs_exports
def test_a_player_acting_out_of_turn_stops_the_import(tmp_path: Path) -> None:
    export = json.loads(EXPORTS[-1].read_text())
    bad = copy.deepcopy(export)
    index = _first(bad, "buy_shares", 50)
    action = bad["actions"][index]
    others = [p["id"] for p in bad["players"] if str(p["id"]) != str(action["entity"])]
    action["entity"] = others[0]
    path = tmp_path / "out_of_turn.json"
    path.write_text(json.dumps(bad))
    proc = run_import(path)
    assert proc.returncode == 1
    line = proc.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith(f"action {index} (id {action['id']} buy_shares by {others[0]}): ")
    assert "not_your_turn" in line or "not_allowed" in line


@needs_exports
def test_a_tile_on_a_hex_off_the_map_is_refused(tmp_path: Path) -> None:
    export = json.loads(EXPORTS[0].read_text())
    bad = copy.deepcopy(export)
    index = _first(bad, "lay_tile", 100)
    bad["actions"][index]["hex"] = "Z99"
    path = tmp_path / "off_map.json"
    path.write_text(json.dumps(bad))
    proc = run_import(path)
    assert proc.returncode == 1
    assert proc.stderr.strip() == (f"action {index} (id {bad['actions'][index]['id']} lay_tile by "
                                   f"{bad['actions'][index]['entity']}): no_such_hex: Z99 is not on the map")


def test_an_unknown_title_or_unreadable_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"title": "1830", "players": [], "settings": {"seed": 1}, "actions": []}))
    proc = run_import(path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().startswith("title: unknown_title: ")
    proc = run_import(tmp_path / "missing.json")
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
