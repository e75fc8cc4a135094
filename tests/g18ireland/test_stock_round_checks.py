"""The stock round checks a share purchase against the offers of that company alone
(`stock_round.for_action`), not against every offer: at every stock-round position of the real
exports, for every certificate in play, that check must accept exactly what a check against
the full list of purchases accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.games.core18xx import actions as A
from shared.games.core18xx.legal import covers
from shared.games.core18xx.rounds import stock as SR
from shared.games.g18ireland import flow as F
from shared.games.g18ireland.operating_round import same_purchase

from .exports import export_paths
from .imported import imported

EXPORTS = export_paths("18Ireland")


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures "
                                        "(or $ROUNDHOUSE_SHARED): no real stock rounds")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_a_purchase_is_checked_against_its_company_as_against_every_offer(path: Path) -> None:
    compared = accepted = 0
    for position in imported(path).positions:
        state = position.state
        if state.round != "stock" or state.stock is None or state.pending:
            continue
        player = state.players[position.seat]
        money, sr = state.money, state.stock
        same = same_purchase(state)
        every = SR.legal(money, sr, player, F.STOCK_RULES, only=A.BuyShares)
        for cid in [*money.book.certs, "no_such_share"]:
            for percent in (None, money.book.certs[cid].percent if cid in money.book.certs else None):
                action = A.BuyShares(entity=player, entity_type="player", shares=[cid], percent=percent)
                narrow = SR.for_action(money, sr, player, F.STOCK_RULES, action)
                expected = covers(every, action, same)
                assert covers(narrow, action, same) == expected, (position.action, action)
                compared += 1
                accepted += expected
    assert compared > 1000 and accepted > 100
