"""The waterfall auction on small synthetic offers: discounts, the free take, auctions between
bidders, and the two ways a round of passes after a purchase can go."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.core18xx.rounds import waterfall_auction as W


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


def _all_pass(s: W.WaterfallState) -> W.WaterfallState:
    for _ in s.players:
        s = W.pass_(s, s.active_player())  # type: ignore[arg-type]
    return s


@pytest.mark.parametrize("leaves", [False, True])
def test_all_pass_after_a_purchase(leaves: bool) -> None:
    s = W.new_waterfall(["a", "b"], {"a": 100, "b": 100}, [("X", 10), ("Y", 20), ("Z", 30)],
                        unbid_cheapest_leaves=leaves)
    s = W.bid(s, "a", "X", 10)          # a buys X outright
    s = _all_pass(s)
    if leaves:
        # Y, the cheapest and unbid, leaves the game; Z is offered next
        assert s.removed == ["Y"] and [o.company for o in s.offers] == ["Z"] and s.revenue_rounds == 0
    else:
        # the base game: a "fake" operating round is owed and every offer stays
        assert s.removed == [] and [o.company for o in s.offers] == ["Y", "Z"] and s.revenue_rounds == 1
    assert s.passed == []
