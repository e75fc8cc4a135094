"""The private-company auction replays real 18Ireland exports: every bid and pass comes from the
player our step says is to act, is legal, and the auction ends exactly where the export's first
stock-round decision starts, with the priority deal on that decision's player."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.games.core18xx.export_log import decisions, live_actions
from shared.games.core18xx.rounds import waterfall_auction as W
from shared.games.g18ireland.setup_random import draw_setup

from .exports import export_paths

DATA = json.loads((Path(__file__).resolve().parents[2] / "shared/games/g18ireland/entities.json").read_text())
VALUES = {c["sym"]: c["value"] for c in DATA["companies"]}
MINORS = [c["sym"] for c in DATA["corporations"] if c["type"] == "minor"]
EXPORTS = export_paths("18Ireland")


def start(export: dict) -> W.WaterfallState:
    players = [str(p["id"]) for p in export["players"]]
    cash = {p: DATA["starting_cash"][str(len(players))] for p in players}
    setup = draw_setup(export["settings"]["seed"], list(VALUES), MINORS)
    return W.new_waterfall(players, cash, [(c, VALUES[c]) for c in setup.companies], unbid_cheapest_leaves=True)


def replay(state: W.WaterfallState, moves: list[dict]) -> tuple[W.WaterfallState, int]:
    for index, move in enumerate(moves):
        if state.finished:
            return state, index
        player = str(move["entity"])
        assert player == state.active_player(), f"decision {index}: {move}"
        if move["type"] == "bid":
            state = W.bid(state, player, move["company"], move["price"])
        else:
            assert move["type"] == "pass", move
            state = W.pass_(state, player)
    return state, len(moves)


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_auction_replays(path: Path) -> None:
    export = json.loads(path.read_text())
    moves = decisions(export["actions"])
    state, used = replay(start(export), moves)
    assert state.finished
    assert {s.company for s in state.sales} | set(state.removed) == set(VALUES) & {o.company for o in start(export).offers}
    first_sr = moves[used]
    assert first_sr["entity_type"] == "player" and "company" not in first_sr
    assert str(first_sr["entity"]) == state.players[state.entity_index]
    for player in state.players:
        assert state.cash[player] >= 0
    # money left the players exactly as the sales say
    spent = sum(s.price for s in state.sales)
    assert sum(start(export).cash.values()) - sum(state.cash.values()) == spent


def test_undo_folding() -> None:
    raw: list[dict[str, Any]] = [
        {"type": "pass", "id": 1}, {"type": "pass", "id": 2}, {"type": "undo"},
        {"type": "redo"}, {"type": "bid", "id": 3}, {"type": "undo", "action_id": 1},
        {"type": "message", "id": 4}, {"type": "pass", "id": 5},
    ]
    assert [a["id"] for a in live_actions(raw)] == [1, 4, 5]
