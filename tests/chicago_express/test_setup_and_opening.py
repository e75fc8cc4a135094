"""Set-up and the four opening auctions."""

from __future__ import annotations

import pytest

from shared.engine import AmountRange, RuleError, default_options
from shared.games.chicago_express import events as ev
from shared.games.chicago_express.actions import Bid, Choose, Pass
from shared.games.chicago_express.board import BOARD

from .positions import ENGINE, assert_illegal, company, events, holding, open_game, play


def new(n: int):
    return ENGINE.setup([f"p{k}" for k in range(n)], {}, 0)


@pytest.mark.parametrize("n, each", [(2, 60), (3, 40), (4, 30), (5, 24), (6, 20)])
def test_starting_capital_comes_from_the_bank(n: int, each: int) -> None:
    s = new(n)
    assert s.cash == [each] * n
    assert s.bank == -120


def test_set_up_of_board_and_companies() -> None:
    s = new(4)
    assert s.houses_supply == 20
    assert [BOARD.industries[i].track[p] for i, p in enumerate(s.industry)] == [1, 3, 4]
    assert s.dials == [0, 0, 0] and s.dial_lengths == [3, 5, 4]
    expected = {"PRR": (7, 19, "R5"), "BO": (6, 21, "Q7"), "NYC": (8, 23, "S3"), "CO": (5, 25, "Q9")}
    for cid, (income, locos_left, start) in expected.items():
        co = company(s, cid)
        assert (co.income, co.locos_left, co.cash, co.open) == (income, locos_left, 0, True)
        assert s.locos[BOARD.hex_index[start]] == 1 << BOARD.company_index[cid]
    wabash = company(s, "WAB")
    assert (wabash.open, wabash.locos_left, wabash.network, wabash.income) == (False, 11, (), 0)
    assert s.locos[BOARD.hex_index["D3"]] == 0
    assert sum(1 for m in s.locos if m) == 4


@pytest.mark.parametrize("seats", [[], ["a"], [f"p{k}" for k in range(7)], "abc", None])
def test_player_count_is_two_to_six(seats: list[str]) -> None:
    with pytest.raises(RuleError) as info:
        ENGINE.setup(seats, {}, 0)
    assert info.value.code == "bad_seats"


@pytest.mark.parametrize(
    "options",
    [
        {"speed": 1},
        {"dial_lengths": {"trade": 2}},
        {"dial_lengths": {"build": 0}},
        {"dial_lengths": {"build": "5"}},
        {"dial_lengths": [3, 5, 4]},
    ],
)
def test_bad_options_are_refused(options: dict) -> None:
    with pytest.raises(RuleError) as info:
        ENGINE.setup(["a", "b"], options, 0)
    assert info.value.code == "bad_options"


def test_dial_lengths_option() -> None:
    assert default_options(ENGINE) == {"dial_lengths": {"auction": 3, "build": 5, "develop": 4}}
    s = ENGINE.setup(["a", "b"], {"dial_lengths": {"develop": 2}}, 0)
    assert s.dial_lengths == [3, 5, 2]


def test_banker_opens_the_prr_auction_at_its_opening_price() -> None:
    s = new(3)
    assert ENGINE.active_seats(s) == {0}
    assert s.auction is not None and (s.auction.kind, s.auction.min_bid) == ("opening", 7)
    assert ENGINE.legal_actions(s, 0)[0].range == AmountRange("amount", 7, 40)
    assert ENGINE.legal_actions(s, 1) == []
    assert_illegal(s, 0, Bid(6), "bid_too_low")
    assert_illegal(s, 0, Bid(41), "insufficient_cash")
    assert_illegal(s, 1, Bid(7), "not_your_turn")
    assert_illegal(s, 0, Choose("build"), "wrong_phase")


def test_bidding_goes_clockwise_and_passing_is_final() -> None:
    s = play(new(3), (0, Bid(7)), (1, Pass()), (2, Bid(9)))
    assert ENGINE.active_seats(s) == {0}  # seat 1 passed for good
    assert_illegal(s, 0, Bid(9), "bid_too_low")  # must beat the high bid
    s = play(s, (0, Bid(12)))
    assert ENGINE.active_seats(s) == {2}
    cash_before = list(s.cash)
    s = play(s, (2, Pass()))
    # Seat 0 pays PRR and holds the share; it opens the B&O auction.
    assert holding(s, 0, "PRR") == 1 and company(s, "PRR").shares_left == 2
    assert s.cash[0] == cash_before[0] - 12 and company(s, "PRR").cash == 12
    assert s.auction is not None and BOARD.companies[s.auction.company].id == "BO" and s.auction.to_act == 0
    assert events(s, ev.ShareSold)[-1] == ev.ShareSold(seat=0, company="PRR", price=12)


def test_the_first_bid_may_exceed_the_minimum() -> None:
    s = play(new(2), (0, Bid(10)), (1, Pass()))
    assert holding(s, 0, "PRR") == 1 and company(s, "PRR").cash == 10


def test_a_share_nobody_wants_goes_free_to_the_first_to_act() -> None:
    s = play(new(3), (0, Bid(7)), (1, Pass()), (2, Pass()))  # PRR to seat 0
    s = play(s, (0, Pass()), (1, Pass()), (2, Pass()))  # B&O: everyone passes
    assert holding(s, 0, "BO") == 1 and company(s, "BO").cash == 0 and s.cash[0] == 33
    assert events(s, ev.ShareSold)[-1] == ev.ShareSold(seat=0, company="BO", price=0)


def test_a_seat_that_cannot_afford_the_minimum_may_only_pass() -> None:
    s = play(new(6), (0, Bid(20)), (1, Pass()), (2, Pass()), (3, Pass()), (4, Pass()), (5, Pass()))
    assert s.cash[0] == 0 and ENGINE.active_seats(s) == {0}
    assert [type(la.action) for la in ENGINE.legal_actions(s, 0)] == [Pass]
    assert_illegal(s, 0, Bid(6), "insufficient_cash")


def test_the_prr_winner_starts_the_game_after_four_auctions() -> None:
    prices = {"PRR": (2, 9), "BO": (1, 6), "CO": (1, 5), "NYC": (0, 8)}
    s = open_game(3, prices)
    sold = [(e.company, e.seat, e.price) for e in events(s, ev.ShareSold)]
    assert sold == [("PRR", 2, 9), ("BO", 1, 6), ("CO", 1, 5), ("NYC", 0, 8)]
    assert s.phase == "choose" and s.current == 2 and s.first_player == 2
    assert ENGINE.active_seats(s) == {2}
    assert [la.action for la in ENGINE.legal_actions(s, 2)] == [Choose("auction"), Choose("build"), Choose("develop")]
    assert s.cash == [32, 29, 31]
    assert [company(s, c).cash for c in ("PRR", "BO", "NYC", "CO")] == [9, 6, 8, 5]
