"""Bad input changes nothing and fails with a RuleError only: at every auction and stock-round
decision of the real games, out-of-turn, unknown and malformed actions are refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.steps import stock_round as SR
from shared.games.core18xx.steps import waterfall_auction as W
from shared.games.g18ireland import replay as R

from .board_standin import LayCosts
from .exports import export_paths

EXPORTS = export_paths("18Ireland")


def bad_actions(player: str, other: str) -> list[A.Action]:
    me = {"entity": player, "entity_type": "player"}
    return [
        A.Pass(entity=other, entity_type="player"),
        A.Bid(**me, company="NOPE", price=20),
        A.Bid(**me, corporation="NOPE", price=100),
        A.Bid(**me, company="DAR", price=-5),
        A.Bid(**me, corporation="GSWR", price=10**9),
        A.BuyShares(**me, shares=["NOPE_1"], percent=10),
        A.BuyShares(**me, shares=[], percent=10),
        A.BuyShares(**me, shares=["GSWR_0"], percent=20),
        A.SellShares(**me, shares=["NOPE_1"], percent=10),
        A.SellShares(**me, shares=["GSWR_3", "GSWR_3"], percent=20),
        A.Par(**me, corporation="GSWR", share_price="61,3,3"),
        A.Par(**me, corporation="NOPE", share_price="100,0,6"),
        A.Par(**me, corporation="LER", share_price="garbage"),
        A.LayTile(entity="GSWR", entity_type="corporation", hex="A1", tile="7-0", rotation=0),
    ]


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_bad_actions_are_refused_everywhere(path: Path) -> None:
    export = json.loads(path.read_text())
    seen = {"auction": 0, "stock": 0}

    def observe(kind: str, state: Any, player: str) -> None:
        seen[kind] += 1
        if kind == "auction":
            before = msgspec.json.encode(state)
            other = next(p for p in state.players if p != player)
            for action in bad_actions(player, other):
                with pytest.raises(RuleError):
                    W.apply(state, player if action.entity == player else other, action)
            assert msgspec.json.encode(state) == before
        else:
            money, sr = state
            before = (msgspec.json.encode(money), msgspec.json.encode(sr))
            other = next(p for p in money.players if p != player)
            for action in bad_actions(player, other):
                actor = player if action.entity == player else other
                with pytest.raises(RuleError):
                    SR.apply(money, sr, actor, action, SR.StockRules())
            assert (msgspec.json.encode(money), msgspec.json.encode(sr)) == before

    R.replay(export, LayCosts(), observe=observe)
    assert seen["auction"] >= 5 and seen["stock"] >= 50     # the checks ran on real positions
