"""`roundhouse export-18xx` for 1841, run as a subprocess.

The real exports go import → export → import to the same log, and the export's `auto_actions`
(the moves 18xx.games makes by itself: `Destinate`'s `destination_connection`, `BuyToken`'s
and `Merge`'s passes, `auto_moves.py`) are the ones 18xx.games recorded, move for move. A
selfplay game saved with `--save` exports and imports back to its log. Whether 18xx.games'
engine loads our exports to the same position is the differential replay's job (README).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.games.core18xx.export_log import live_actions

from services.offline.import_18xx import import_export
from services.offline.table_log import encode_log
from tests.exports import export_paths
from tests.offline.helpers import run_cli
from tests.offline.test_export_18xx import export_cli, plain

EXPORTS = export_paths("1841")
needs_exports = pytest.mark.skipif(not EXPORTS, reason="1841 exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")


def automatic_moves(export: dict[str, Any]) -> list[tuple[str, list[tuple[str, Any, tuple[str, ...]]]]]:
    """Per live decision: its type and the automatic moves after it (type, entity, hexes)."""
    return [(a["type"], [(b["type"], b["entity"], tuple(sorted(b.get("hexes") or []))) for b in a.get("auto_actions") or []])
            for a in live_actions(export["actions"]) if a["type"] not in ("undo", "redo", "message")]


@needs_exports
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_a_real_export_goes_import_export_import_to_the_same_log(tmp_path: Path, path: Path) -> None:
    original = json.loads(path.read_text())
    first = import_export(original)
    log = tmp_path / "imported.json"
    log.write_bytes(encode_log(first.engine.title, first.timeline.options, first.timeline.seats, first.timeline.seed,
                               first.entries))
    exported = export_cli(tmp_path, str(log))
    second = import_export(exported)
    assert plain(second.entries) == plain(first.entries)
    assert exported["title"] == "1841" and exported["settings"]["seed"] == original["settings"]["seed"]
    assert exported["settings"]["optional_rules"] == original["settings"]["optional_rules"]
    assert [p["name"] for p in exported["players"]] == [p["name"] for p in original["players"]]
    # the same end: reason and every player's value, by the export's own player ids
    assert exported["status"] == "finished" and exported["game_end_reason"] == original["game_end_reason"]
    by_seat = [str(p["id"]) for p in original["players"]]
    assert {by_seat[int(pid) - 1]: v for pid, v in exported["result"].items()} == original["result"]
    # 18xx.games' own automatic moves, where it made them (the hexes each connection named)
    assert automatic_moves(exported) == automatic_moves(original)
    assert any(a.get("auto_actions") for a in exported["actions"])


@pytest.mark.parametrize(("players", "options"), [(3, []), (5, ["--option", "version_1=true"]),
                                                  (4, ["--option", "lite=true"])])
def test_a_saved_selfplay_game_exports_and_imports_back_to_its_log(
        tmp_path: Path, players: int, options: list[str]) -> None:
    saved = tmp_path / "games"
    proc = run_cli("selfplay", "--title", "1841", "--players", str(players), "--games", "1", "--seed", "3",
                   "--max-actions", "600", *options, "--save", str(saved))
    assert proc.returncode == 0, proc.stderr
    log = json.loads((saved / "game-0.json").read_text())
    exported = export_cli(tmp_path, str(saved / "game-0.json"))
    rules = [o.split("=")[0] for o in options if o != "--option"]
    assert exported["settings"]["optional_rules"] == rules and exported["settings"]["seed"] == log["seed"]
    assert [p["id"] for p in exported["players"]] == list(range(1, players + 1))
    assert [a["id"] for a in exported["actions"]] == list(range(1, len(log["actions"]) + 1))
    back = import_export(exported)
    assert [(seat, action) for seat, action in plain(back.entries)] == [(e["seat"], e["action"]) for e in log["actions"]]
    # the operating rounds were reached: 18xx.games' automatic moves are in the export
    kinds = {b["type"] for a in exported["actions"] for b in a.get("auto_actions") or []}
    assert kinds <= {"pass", "destination_connection"}
