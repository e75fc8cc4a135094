"""Payouts and price moves: the base game's policy and a title's own (a synthetic one here)."""

from __future__ import annotations

from shared.games.core18xx.money import dividends as D
from shared.games.core18xx.money.rules import PriceMoves

# a title whose minors paying at least twice their price move right twice
DOUBLE_FOR_MINORS = PriceMoves(minor_paid=((2, 2), (1, 1)))


def test_minor_pays_per_share_and_treasury_collects() -> None:
    # a minor of five 20 % shares runs 40; H1 holds 60 %, 40 % is still in its treasury; price 55
    p = D.pay("DDR", 40, "payout", {"H1": 60, "DDR": 40}, share_percent=20, price=55, is_minor=True)
    assert p.to_holders == {"H1": 24} and p.to_company == 16
    assert p.move is None and p.times == 0          # £40 is below the £55 price


def test_base_price_moves() -> None:
    hold = {"a": 60}
    assert (D.pay("M", 110, "payout", hold, 20, 55, True).move, D.pay("M", 110, "payout", hold, 20, 55, True).times) == ("right", 1)
    assert D.pay("M", 54, "payout", hold, 20, 55, True).move is None


def test_title_price_moves() -> None:
    hold = {"a": 60}
    paid = D.pay("M", 110, "payout", hold, 20, 55, True, moves=DOUBLE_FOR_MINORS)
    assert (paid.move, paid.times) == ("right", 2)
    assert D.pay("M", 109, "payout", hold, 20, 55, True, moves=DOUBLE_FOR_MINORS).times == 1
    # majors never move 2
    assert D.pay("G", 200, "payout", {"a": 20}, 10, 100, False, moves=DOUBLE_FOR_MINORS).times == 1
    w = D.pay("G", 200, "withhold", {"a": 20}, 10, 100, False)
    assert (w.to_company, w.to_holders, w.move, w.times) == (200, {}, "left", 1)
    none = D.pay("G", 0, "payout", {"a": 20}, 10, 100, False)
    assert (none.move, none.times) == ("left", 1)


def test_float_rounding_matches_ruby() -> None:
    # 42 / 5 = 8.4; 3 shares -> 25.200000000000003 -> ceil 26 (what 18xx.games pays)
    assert D.holder_amount(60, 20, 42 / 5.0) == 26
    assert D.holder_amount(30, 10, 4.5) == 14


def test_pool_and_bankrupt_holders_are_not_paid() -> None:
    p = D.pay("G", 100, "payout", {"a": 50, "b": 20, "pool": 30}, 10, 60, False, bankrupt=frozenset({"b"}))
    assert p.to_holders == {"a": 50} and p.to_company == 0
