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
    for _ in range(3):
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


def offers(s, seat: int) -> dict[str, list]:
    """The legal offers per company: (amount range or None for the offer with a pass)."""
    out: dict[str, list] = {}
    for la in ENGINE.legal_actions(s, seat):
        if isinstance(la.action, Offer):
            out.setdefault(la.action.company, []).append(la.range)
    return out


def test_offer_starts_an_auction_with_the_offering_bid() -> None:
    s = play(open_game(), (0, Choose("auction")))
    # Minimum = ceil(income / (shares out + 1)): PRR 7/2, B&O 6/2, NYC 8/2, C&O 5/2; Wabash
    # is closed. Seat 0 paid 7 + 8 in the opening: at most $25. Each share can also be put
    # up with a pass instead of a bid.
    assert offers(s, 0) == {
        "PRR": [AmountRange("amount", 4, 25), None],
        "BO": [AmountRange("amount", 3, 25), None],
        "NYC": [AmountRange("amount", 4, 25), None],
        "CO": [AmountRange("amount", 3, 25), None],
    }
    assert ENGINE.legal_actions(s, 0)[-1].action == Forgo()
    s = play(s, (0, Offer("BO", 5)))
    assert s.phase == "auction" and s.auction is not None and s.auction.to_act == 1 and s.auction.high_bid == 5
    assert_illegal(s, 1, Bid(5), "bid_too_low")
    s = play(s, (1, Bid(6)), (2, Pass()), (0, Bid(10)), (1, Pass()))
    assert holding(s, 0, "BO") == 1 and company(s, "BO").cash == 6 + 10 and s.cash[0] == 15
    assert s.phase == "choose" and s.current == 1


def test_the_auctioneer_may_pass_and_the_others_still_bid() -> None:
    """"Hráč nabídne alespoň minimální vyvolávací cenu nebo pasuje." and then "Postupně ve
    směru hodinových ručiček dá každý hráč nabídku, která musí být vyšší, než dosavadní
    nejvyšší nabídka, nebo pasuje": the player who puts the share up bids at least the
    minimum or passes; the others bid clockwise after him."""
    s = play(open_game(), (0, Choose("auction")), (0, Offer("BO")))
    assert s.phase == "auction" and s.auction is not None and s.auction.kind == "share" and s.auction.opener == 0
    assert s.auction.passed == 1 << 0 and s.auction.high_bidder == -1 and s.auction.to_act == 1
    assert events(s, ev.AuctionStarted)[-1] == ev.AuctionStarted(kind="share", company="BO", opener=0, min_bid=3)
    assert events(s, ev.Passed)[-1] == ev.Passed(seat=0, company="BO")
    # The minimum still holds for the first bid; the auctioneer, out, is skipped.
    assert_illegal(s, 1, Bid(2), "bid_too_low")
    s = play(s, (1, Pass()), (2, Bid(3)))
    assert holding(s, 2, "BO") == 1 and company(s, "BO").cash == 6 + 3 and s.cash[2] == 40 - 5 - 3
    assert s.phase == "choose" and s.current == 1 and s.cash[0] == 25


def test_if_everyone_passes_the_share_stays_with_the_company() -> None:
    """"Pokud by všichni hráči pasovali, zůstane akcie ležet na tabulce příslušné
    společnosti a nikdo neztrácí peníze": nobody pays, the share stays for sale, and the
    auction dial step still counts."""
    s = open_game()
    before_cash, before_co = list(s.cash), company(s, "NYC")
    s = play(s, (0, Choose("auction")), (0, Offer("NYC")), (1, Pass()), (2, Pass()))
    assert events(s, ev.ShareUnsold) == [ev.ShareUnsold(company="NYC")]
    assert s.cash == before_cash and company(s, "NYC") == before_co
    assert s.dials == [1, 0, 0] and s.phase == "choose" and s.current == 1 and s.auction is None
    s = play(s, (1, Choose("auction")))
    assert "NYC" in offers(s, 1)


def test_a_share_can_be_put_up_by_a_player_who_cannot_afford_it() -> None:
    """The auctioneer who cannot pay the minimum may still offer the share and pass
    ("nabídne alespoň minimální vyvolávací cenu nebo pasuje")."""
    s = arrange(open_game(), cash={0: 3})
    s = play(s, (0, Choose("auction")))
    assert offers(s, 0) == {
        "PRR": [None],
        "BO": [AmountRange("amount", 3, 3), None],
        "NYC": [None],
        "CO": [AmountRange("amount", 3, 3), None],
    }
    assert_illegal(s, 0, Offer("PRR", 4), "insufficient_cash")
    s = play(s, (0, Offer("PRR")), (1, Bid(6)), (2, Pass()))
    assert holding(s, 1, "PRR") == 1 and company(s, "PRR").cash == 7 + 6


def test_offer_refusals() -> None:
    s = play(open_game(), (0, Choose("auction")))
    assert_illegal(s, 0, Offer("WAB", 5), "company_not_open")
    assert_illegal(s, 0, Offer("WAB"), "company_not_open")
    assert_illegal(s, 0, Offer("XYZ", 5), "unknown_company")
    err = assert_illegal(s, 0, Offer("PRR", 3), "bid_too_low")
    assert "without an amount" in err.message
    assert_illegal(s, 0, Offer("PRR", 26), "insufficient_cash")
    assert_illegal(s, 0, Offer("PRR", True), "bad_action")
    assert_illegal(s, 0, Bid(5), "wrong_phase")
    assert_illegal(s, 0, Pass(), "wrong_phase")
    assert_illegal(s, 0, Build("PRR", "R4"), "wrong_phase")
    sold_out = arrange(s, holdings={(1, "PRR"): 1, (2, "PRR"): 1})
    assert_illegal(sold_out, 0, Offer("PRR", 5), "no_shares_left")
    assert_illegal(sold_out, 0, Offer("PRR"), "no_shares_left")
    assert "PRR" not in offers(sold_out, 0)


def test_forgoing_the_auction_action() -> None:
    s = play(open_game(), (0, Choose("auction")), (0, Forgo()))
    assert s.auction is None and s.current == 1 and s.dials == [1, 0, 0]


def test_players_never_bid_beyond_their_cash() -> None:
    s = arrange(open_game(), cash={1: 4})
    s = play(s, (0, Choose("auction")), (0, Offer("CO", 4)))
    assert [type(la.action) for la in ENGINE.legal_actions(s, 1)] == [Pass]  # the auction lowest bid is $5
    assert_illegal(s, 1, Bid(5), "insufficient_cash")


def test_wrong_actions_in_each_phase() -> None:
    s = open_game()
    assert_illegal(s, 0, Done(), "wrong_phase")
    assert_illegal(s, 0, Develop("I6"), "wrong_phase")
    assert_illegal(s, 0, "choose", "bad_action")
    assert_illegal(s, 5, Choose("build"), "bad_seat")
    assert_illegal(s, 1, Choose("build"), "not_your_turn")
