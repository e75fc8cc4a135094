"""Every action of the 18Ireland and 1841 exports decodes into core18xx.actions and encodes back
to the same JSON object (field names, values and the fields left out)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from shared.games.core18xx import actions as A

from tests.exports import export_paths

REPO = Path(__file__).resolve().parents[2]


def exports(title: str) -> list[Path]:
    return export_paths(title)


ALL = [(t, p) for t in ("18Ireland", "1841") for p in exports(t)]


@pytest.mark.skipif(not ALL, reason="18xx.games exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("title,path", ALL, ids=[p.name for _, p in ALL])
def test_every_export_action_round_trips(title: str, path: Path) -> None:
    raw = json.loads(path.read_text())["actions"]
    decoded = A.decode_export_actions(raw)
    assert len(decoded) == len(raw)
    for original, action in zip(raw, decoded):
        assert action.__struct_config__.tag == original["type"]
        assert A.to_export_dict(action) == original


def test_game_actions_exclude_contract_undo_tags() -> None:
    # The engine's action union is joined with shared.engine.Undo/Redo ("undo"/"redo").
    assert "undo" not in A.GAME_ACTION_TYPES and "redo" not in A.GAME_ACTION_TYPES
    assert {"bid", "par", "buy_shares", "sell_shares", "lay_tile", "place_token", "run_routes",
            "dividend", "buy_train", "merge", "choose", "pass", "buy_company"} <= set(A.GAME_ACTION_TYPES)


def test_unknown_field_is_rejected() -> None:
    with pytest.raises(msgspec.ValidationError):
        A.decode_export_action({"type": "pass", "entity": 1, "entity_type": "player", "bogus": 1})


def test_nested_auto_actions_decode_to_structs() -> None:
    action = A.decode_export_action({
        "type": "lay_tile", "entity": "SFTN", "entity_type": "corporation", "hex": "G5",
        "tile": "8-0", "rotation": 5,
        "auto_actions": [{"type": "pass", "entity": "SFTN", "entity_type": "corporation", "created_at": 5}],
    })
    assert isinstance(action, A.LayTile)
    assert action.auto_actions == [A.Pass(entity="SFTN", entity_type="corporation", created_at=5)]
    assert A.strip_bookkeeping(action).auto_actions is None
