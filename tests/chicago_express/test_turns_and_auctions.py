"""Turns, dials and the auction action."""

from __future__ import annotations

from shared.engine import AmountRange
from shared.games.chicago_express import events as ev
from shared.games.chicago_express.actions import Bid, Build, Choose, Develop, Done, Forgo, Offer, Pass

from .positions import ENGINE, arrange, assert_illegal, company, events, holding, open_game, play

# open_game(3): seat 0 holds PRR and NYC, seat 1 B&O, seat 2 C&O; seat 0 starts.


def test_choosing_advances_the_dial_and_forgoing_ends_the_turn() -> None:
    s = open_game()
    s = play(s, (0, Choose("develop")))
    assert s.dials == [0, 0, 1] and s.phase == "develop"
    assert_illegal(s, 0, Choose("build"), "wrong_phase")
    s = play(s, (0, Forgo()))
    assert s.phase == "choose" and s.current == 1 and s.dials == [0, 0, 1]
    assert events(s, ev.Forgone)[-1] == ev.Forgone(seat=0, action="develop")


def test_a_dial_on_red_cannot_be_chosen() -> None:
    s = arrange(open_game(), dials={"auction": 3})
    assert [la.action for la in ENGINE.legal_actions(s, 0)] == [Choose("build"), Choose("develop")]
    assert_illegal(s, 0, Choose("auction"), "dial_red")
    assert_illegal(s, 0, Choose("trade"), "unknown_action")  # type: ignore[arg-type]
    assert_illegal(s, 0, Choose(["build"]), "unknown_action")  # type: ignore[arg-type]


def test_each_dial_turns_red_after_its_length() -> None:
    s = open_game(4, {"PRR": (0, 7), "BO": (1, 6), "CO": (2, 5), "NYC": (3, 8)})
    for k in range(3):
        seat = s.current
        s = play(s, (seat, Choose("auction")), (seat, Forgo()))
    assert s.dials == [3, 0, 0]
    assert_illegal(s, s.current, Choose("auction"), "dial_red")


def test_two_red_dials_start_the_dividend_phase_before_the_next_turn() -> None:
    s = arrange(open_game(), dials={"auction": 3, "develop": 3}, locos={"PRR": ["E0"]})
    income = company(s, "PRR").income
    s = play(s, (0, Choose("build")), (0, Forgo()))
    assert s.dials == [3, 1, 3]  # one red dial: no dividends yet
    s = play(s, (1, Choose("develop")), (1, Forgo()))
    assert s.dials == [0, 0, 0] and s.round == 2 and s.current == 2 and s.phase == "choose"
    # Detroit developed itself (no locomotive needed) and PRR, present there, gained 1.
    assert s.industry[0] == 1 and company(s, "PRR").income == income + 1
    assert isinstance(s.log[-2], ev.DialsReset)
    assert s.log[-1] == ev.Developed(
        seat=-1, hex="E0", companies=["PRR"], income_gain=1, cash_bonus=0, industry_value=2
    )


def test_offer_starts_an_auction_with_the_offering_bid() -> None:
    s = play(open_game(), (0, Choose("auction")))
    offers = {la.action.company: la.range for la in ENGINE.legal_actions(s, 0) if isinstance(la.action, Offer)}
    # Minimum = ceil(income / (shares out + 1)): PRR 7/2, B&O 6/2, NYC 8/2, C&O 5/2; Wabash
    # is closed. Seat 0 paid 7 + 8 in the opening: at most $25.
    assert offers == {
        "PRR": AmountRange("amount", 4, 25),
        "BO": AmountRange("amount", 3, 25),
        "NYC": AmountRange("amount", 4, 25),
        "CO": AmountRange("amount", 3, 25),
    }
    s = play(s, (0, Offer("BO", 5)))
    assert s.phase == "auction" and s.auction.to_act == 1 and s.auction.high_bid == 5
    assert_illegal(s, 1, Bid(5), "bid_too_low")
    s = play(s, (1, Bid(6)), (2, Pass()), (0, Bid(10)), (1, Pass()))
    assert holding(s, 0, "BO") == 1 and company(s, "BO").cash == 6 + 10 and s.cash[0] == 15
    assert s.phase == "choose" and s.current == 1


def test_offer_refusals() -> None:
    s = play(open_game(), (0, Choose("auction")))
    assert_illegal(s, 0, Offer("WAB", 5), "company_not_open")
    assert_illegal(s, 0, Offer("XYZ", 5), "unknown_company")
    assert_illegal(s, 0, Offer("PRR", 3), "bid_too_low")
    assert_illegal(s, 0, Offer("PRR", 26), "insufficient_cash")
    assert_illegal(s, 0, Offer("PRR", True), "bad_action")  # type: ignore[arg-type]
    assert_illegal(s, 0, Bid(5), "wrong_phase")
    assert_illegal(s, 0, Build("PRR", "R4"), "wrong_phase")
    sold_out = arrange(s, holdings={(1, "PRR"): 1, (2, "PRR"): 1})
    assert_illegal(sold_out, 0, Offer("PRR", 5), "no_shares_left")
    assert "PRR" not in [la.action.company for la in ENGINE.legal_actions(sold_out, 0) if isinstance(la.action, Offer)]
    poor = arrange(s, cash={0: 3})
    assert [la.action.company for la in ENGINE.legal_actions(poor, 0) if isinstance(la.action, Offer)] == ["BO", "CO"]


def test_forgoing_the_auction_action() -> None:
    s = play(open_game(), (0, Choose("auction")), (0, Forgo()))
    assert s.auction is None and s.current == 1 and s.dials == [1, 0, 0]


def test_players_never_bid_beyond_their_cash() -> None:
    s = arrange(open_game(), cash={1: 4})
    s = play(s, (0, Choose("auction")), (0, Offer("CO", 4)))
    assert [type(la.action) for la in ENGINE.legal_actions(s, 1)] == [Pass]
    assert_illegal(s, 1, Bid(5), "insufficient_cash")


def test_wrong_actions_in_each_phase() -> None:
    s = open_game()
    assert_illegal(s, 0, Done(), "wrong_phase")
    assert_illegal(s, 0, Develop("I6"), "wrong_phase")
    assert_illegal(s, 0, "choose", "bad_action")
    assert_illegal(s, 5, Choose("build"), "bad_seat")
    assert_illegal(s, 1, Choose("build"), "not_your_turn")
