"""The private-company auction replays real 18Ireland exports: every bid and pass comes from the
player our step says is to act, is legal, and the auction ends exactly where the export's first
stock-round decision starts, with the priority deal on that decision's player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.engine import RuleError
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
    return W.new_waterfall(players, cash, [(c, VALUES[c]) for c in setup.companies])


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


def test_discount_and_free_take() -> None:
    s = W.new_waterfall(["a", "b"], {"a": 100, "b": 100}, [("X", 10), ("Y", 50)])
    s = W.bid(s, "a", "Y", 55)
    for _ in range(2):
        s = W.pass_(s, s.active_player())  # type: ignore[arg-type]
    # nothing bought: X drops to 5, all bids cleared
    assert s.offers[0].price == 5 and s.bids == [] and s.passed == []
    s = W.pass_(s, s.active_player())  # type: ignore[arg-type]
    s = W.pass_(s, s.active_player())  # type: ignore[arg-type]
    # X is free now: the next player must take it, then Y is up at its price
    assert [(x.player, x.company, x.price) for x in s.sales] == [("b", "X", 0)]
    assert s.offers[0].company == "Y" and s.min_bid("Y") == 50


def test_auction_between_bidders_and_errors() -> None:
    s = W.new_waterfall(["a", "b", "c"], {"a": 100, "b": 100, "c": 100}, [("X", 20), ("Y", 40)])
    s = W.bid(s, "a", "Y", 45)
    with pytest.raises(RuleError) as err:
        W.bid(s, "b", "Y", 52)
    assert err.value.code == "bid_step"
    with pytest.raises(RuleError) as err:
        W.bid(s, "b", "X", 25)
    assert err.value.code == "wrong_price"
    s = W.bid(s, "b", "Y", 50)
    with pytest.raises(RuleError) as err:
        W.bid(s, "a", "X", 20)
    assert err.value.code == "not_your_turn"
    s = W.bid(s, "c", "X", 20)          # buys X; Y has two bids: auction, lowest bidder acts
    assert s.in_auction() and s.active_player() == "a"
    s = W.bid(s, "a", "Y", 55)
    assert s.active_player() == "b"
    s = W.pass_(s, "b")
    assert s.finished and s.sales[-1] == W.Sale(player="a", company="Y", price=55)
    assert s.cash == {"a": 45, "b": 100, "c": 80}


def test_undo_folding() -> None:
    raw = [
        {"type": "pass", "id": 1}, {"type": "pass", "id": 2}, {"type": "undo"},
        {"type": "redo"}, {"type": "bid", "id": 3}, {"type": "undo", "action_id": 1},
        {"type": "message", "id": 4}, {"type": "pass", "id": 5},
    ]
    assert [a["id"] for a in live_actions(raw)] == [1, 4, 5]
