"""Payouts and price moves, including the seed's worked example (DDR, 18Ireland)."""

from __future__ import annotations

from shared.games.core18xx.money import dividends as D


def test_seed_example_minor_pays_per_share_and_treasury_collects() -> None:
    # DDR runs £40; H1 holds 60 %, 40 % still in DDR's treasury; price £55.
    p = D.pay("DDR", 40, "payout", {"H1": 60, "DDR": 40}, share_percent=20, price=55, is_minor=True)
    assert p.to_holders == {"H1": 24} and p.to_company == 16
    assert p.move is None and p.times == 0          # £40 is below the £55 price


def test_price_moves() -> None:
    hold = {"a": 60}
    assert (D.pay("M", 110, "payout", hold, 20, 55, True).move, D.pay("M", 110, "payout", hold, 20, 55, True).times) == ("right", 2)
    assert D.pay("M", 109, "payout", hold, 20, 55, True).times == 1
    assert D.pay("G", 200, "payout", {"a": 20}, 10, 100, False).times == 1   # majors never move 2
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
