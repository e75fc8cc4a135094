"""Every worked example of the rule book (seeds/000_d5ca7cd670261e20.txt), with its numbers.

Adam, Beáta and Cyril are seats 0, 1 and 2 of a three-player game past its opening.
"""

from __future__ import annotations

from shared.games.chicago_express import events as ev
from shared.games.chicago_express.actions import Bid, Build, Choose, Develop, Done, Offer, Pass

from .positions import ENGINE, arrange, assert_illegal, company, dividend_turn, events, open_game, play

ADAM, BEATA, CYRIL = 0, 1, 2


def no_other_shares(*keep: str) -> dict[tuple[int, str], int]:
    """Holdings that take every opening share back except those of the companies in `keep`."""
    return {(seat, cid): 0 for seat in range(3) for cid in ("PRR", "BO", "NYC", "CO") if cid not in keep}


def test_minimum_bid_is_income_over_shares_out_including_the_offered_one() -> None:
    # NYC earns $22; Beáta and Cyril hold one share each: 22 / 3 = 7.33 -> $8.
    s = arrange(
        open_game(),
        holdings={(ADAM, "NYC"): 0, (BEATA, "NYC"): 1, (CYRIL, "NYC"): 1},
        companies={"NYC": {"income": 22}},
        cash={ADAM: 30},
        current=ADAM,
    )
    s = play(s, (ADAM, Choose("auction")))
    offers = {la.action.company: la.range for la in ENGINE.legal_actions(s, ADAM) if isinstance(la.action, Offer) and la.range}
    assert (offers["NYC"].min, offers["NYC"].max) == (8, 30)
    assert_illegal(s, ADAM, Offer("NYC", 7), "bid_too_low")
    s = play(s, (ADAM, Offer("NYC", 8)))
    assert s.auction is not None and s.auction.high_bid == 8 and s.auction.min_bid == 8



def test_dividends_round_up_per_share() -> None:
    # Adam 2 NYC shares, Beáta 1; NYC earns $16: 16 / 3 = 5.33 -> $6 a share.
    s = arrange(
        open_game(),
        holdings={**no_other_shares("NYC"), (ADAM, "NYC"): 2, (BEATA, "NYC"): 1},
        companies={"NYC": {"income": 16}},
    )
    cash_before = list(s.cash)
    after = dividend_turn(s, CYRIL)
    [paid] = events(after, ev.DividendPaid, len(s.log))
    assert (paid.company, paid.per_share, paid.payouts) == ("NYC", 6, [12, 6, 0])
    assert [a - b for a, b in zip(after.cash, cash_before)] == [12, 6, 0]


def test_each_share_is_computed_separately() -> None:
    # Adam alone holds 2 NYC shares; NYC earns $17: 17 / 2 = 8.5 -> 9 a share, $18 for Adam.
    s = arrange(
        open_game(),
        holdings={**no_other_shares("NYC"), (ADAM, "NYC"): 2},
        companies={"NYC": {"income": 17}},
    )
    after = dividend_turn(s, BEATA)
    [paid] = events(after, ev.DividendPaid, len(s.log))
    assert (paid.per_share, paid.payouts) == (9, [18, 0, 0])
    assert after.cash[ADAM] - s.cash[ADAM] == 18


def test_build_cost_multiplies_by_locomotives_present() -> None:
    # NYC builds from New York through the forest (R3, $2) to Binghamton (Q3, $2), where
    # PRR already stands: 2 + 2 x 2 = $6, paid from NYC's cash.
    s = arrange(
        open_game(),
        holdings={(ADAM, "NYC"): 1},
        companies={"NYC": {"cash": 10}},
        locos={"PRR": ["R4", "Q4", "Q3"]},
        current=ADAM,
    )
    cash_before = list(s.cash)
    s = play(s, (ADAM, Choose("build")), (ADAM, Build("NYC", "R3")), (ADAM, Build("NYC", "Q3")), (ADAM, Done()))
    built = events(s, ev.Built)
    assert [(b.hex, b.cost) for b in built] == [("R3", 2), ("Q3", 4)]
    assert company(s, "NYC").cash == 10 - 6
    assert company(s, "NYC").income == 8 + 0 + 1  # forest nothing, Binghamton +1
    assert s.cash == cash_before  # players never pay for a build


def test_developing_wheeling_lifts_every_company_there() -> None:
    # Wheeling 3 -> 4: PRR 17 -> 18 and B&O 14 -> 15.
    s = arrange(
        open_game(),
        companies={"PRR": {"income": 17}, "BO": {"income": 14}},
        locos={"PRR": ["I6"], "BO": ["I6"]},
        current=ADAM,
    )
    s = play(s, (ADAM, Choose("develop")), (ADAM, Develop("I6")))
    assert (company(s, "PRR").income, company(s, "BO").income) == (18, 15)
    [developed] = events(s, ev.Developed)
    assert (developed.hex, developed.industry_value, developed.income_gain) == ("I6", 4, 1)
    assert s.houses_supply == 20  # industrial steps use the industry track, not the supply


def test_developing_charleston_lifts_chesapeake_and_ohio() -> None:
    # C&O 12 -> 13 for the house on Charleston.
    s = arrange(open_game(), companies={"CO": {"income": 12}}, locos={"CO": ["I9"]}, current=BEATA)
    s = play(s, (BEATA, Choose("develop")), (BEATA, Develop("I9")))
    assert company(s, "CO").income == 13
    assert s.houses_supply == 19


def test_chicago_comes_before_the_dividends_it_triggers_with() -> None:
    # PRR reaches Chicago in the turn that puts the second dial on red: the Chicago
    # dividend and the Wabash opening come first, the regular dividends after.
    s = arrange(
        open_game(),
        holdings={**no_other_shares("PRR"), (ADAM, "PRR"): 2, (BEATA, "PRR"): 1},
        companies={"PRR": {"cash": 10, "income": 20}},
        locos={"PRR": ["B2"]},
        dials={"auction": 3, "build": 4},
        cash={ADAM: 30, BEATA: 30, CYRIL: 30},
        current=ADAM,
    )
    start = len(s.log)
    s = play(s, (ADAM, Choose("build")), (ADAM, Build("PRR", "A2")))
    # PRR income 20 + Chicago 7 = 27; 3 shares out: $9 a share.
    assert company(s, "PRR").income == 27
    assert company(s, "PRR").cash == 10 - 3
    kinds = [type(e).__name__ for e in s.log[start:]]
    assert kinds[-4:] == ["ChicagoReached", "DividendPaid", "WabashOpened", "AuctionStarted"]
    [chicago_paid] = events(s, ev.DividendPaid, start)
    assert (chicago_paid.kind, chicago_paid.per_share, chicago_paid.payouts) == ("chicago", 9, [18, 9, 0])
    assert not events(s, ev.DividendPhase, start)
    # Adam opens the first Wabash auction: Wabash earns $1 with no shares out, so $1.
    assert s.auction is not None and (s.auction.kind, s.auction.to_act, s.auction.min_bid) == ("wabash", ADAM, 1)
    s = play(s, (ADAM, Bid(4)), (BEATA, Pass()), (CYRIL, Pass()))
    # The build goes on after the Wabash auction; the regular dividends wait for its end.
    assert s.phase == "build" and not events(s, ev.DividendPhase, start)
    s = play(s, (ADAM, Done()))
    kinds = [type(e).__name__ for e in s.log[start:]]
    assert kinds.index("ChicagoReached") < kinds.index("DividendPhase")
    regular = [e for e in events(s, ev.DividendPaid, start) if e.kind == "regular"]
    assert [(e.company, e.per_share, e.payouts) for e in regular] == [("PRR", 9, [18, 9, 0]), ("WAB", 1, [1, 0, 0])]
    assert s.dials == [0, 0, 0] and s.current == BEATA
