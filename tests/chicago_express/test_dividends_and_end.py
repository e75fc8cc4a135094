"""The dividend phase, the end of the game and the result."""

from __future__ import annotations

import pytest

from shared.games.chicago_express import events as ev
from shared.games.chicago_express.actions import Choose

from .positions import ENGINE, arrange, assert_illegal, company, dividend_turn, events, open_game

# open_game(3): seat 0 holds PRR and NYC, seat 1 B&O, seat 2 C&O; seat 0 starts.



def test_every_company_pays_from_the_bank() -> None:
    s = open_game()
    before_cash, bank = list(s.cash), s.bank
    after = dividend_turn(s)
    paid = {e.company: (e.per_share, e.payouts) for e in events(after, ev.DividendPaid)}
    # One share out each: the whole income per share; Wabash has no shares out.
    assert paid == {"PRR": (7, [7, 0, 0]), "BO": (6, [0, 6, 0]), "NYC": (8, [8, 0, 0]), "CO": (5, [0, 0, 5])}
    assert [a - b for a, b in zip(after.cash, before_cash)] == [15, 6, 5]
    assert after.bank == bank - 26
    assert after.phase == "choose" and after.current == 1 and after.round == 2


def test_detroit_develops_after_every_dividend_phase_up_to_eight() -> None:
    s = arrange(open_game(), locos={"CO": ["E0"]}, industry={"E0": 5})
    s = dividend_turn(s)
    assert s.industry[0] == 6 and company(s, "CO").income == 6
    s = dividend_turn(s)  # Detroit reaches 8 ...
    assert s.industry[0] == 7 and s.phase == "choose"
    s = dividend_turn(s)  # ... and the next dividend phase ends the game
    assert s.phase == "over" and s.end_reasons == ["detroit_at_maximum"]
    assert isinstance(s.log[-1], ev.GameEnded) and isinstance(s.log[-2], ev.DividendPaid)


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"companies": {c: {"locos_left": 0} for c in ("PRR", "BO", "NYC")}}, "three_companies_out_of_locomotives"),
        ({"holdings": {(1, "PRR"): 2, (1, "NYC"): 4, (2, "CO"): 6}}, "three_companies_out_of_shares"),
        ({"supply": 3}, "houses_supply_low"),
    ],
)
def test_end_conditions(changes: dict, reason: str) -> None:
    s = arrange(open_game(), **changes)
    before = list(s.cash)
    s = dividend_turn(s)
    assert s.phase == "over" and s.end_reasons == [reason]
    # The game ends right after the regular payment: no reset, no Detroit.
    assert s.dials == [3, 5, 0] and s.industry[0] == 0
    assert s.cash != before
    assert ENGINE.active_seats(s) == frozenset()
    assert ENGINE.legal_actions(s, 0) == []
    assert_illegal(s, 0, Choose("auction"), "game_over")


@pytest.mark.parametrize(
    "changes",
    [
        {"companies": {c: {"locos_left": 0} for c in ("PRR", "BO")}},
        {"holdings": {(1, "PRR"): 2, (1, "NYC"): 4}},
        {"supply": 4},
        # Wabash counts only once open: before Chicago its shares are not for sale.
        {"holdings": {(1, "PRR"): 2, (1, "NYC"): 4, (0, "WAB"): 2}},
    ],
)
def test_no_end_short_of_the_conditions(changes: dict) -> None:
    s = dividend_turn(arrange(open_game(), **changes))
    assert s.phase == "choose" and s.end_reasons == []


def test_an_open_wabash_counts_towards_the_end() -> None:
    s = arrange(
        open_game(),
        holdings={(1, "PRR"): 2, (1, "NYC"): 4, (0, "WAB"): 2},
        companies={"WAB": {"open": True, "income": 1}},
    )
    s = dividend_turn(s)
    assert s.end_reasons == ["three_companies_out_of_shares"]


def test_result_is_cash_with_shared_ranks() -> None:
    s = arrange(open_game(4, {"PRR": (0, 7), "BO": (1, 6), "CO": (2, 5), "NYC": (3, 8)}), supply=2)
    assert ENGINE.result(s) is None
    s = arrange(s, cash={0: 40, 1: 33, 2: 34, 3: 38})
    s = dividend_turn(s, 0)  # pays PRR 7, B&O 6, C&O 5, NYC 8
    result = ENGINE.result(s)
    assert result is not None
    assert result.scores == [47, 39, 39, 46]
    assert result.ranks == [1, 3, 3, 2] and result.winners == [0]
    assert result.reason == "houses_supply_low"


def test_ties_share_the_win() -> None:
    s = arrange(open_game(), supply=0, cash={0: 10, 1: 19, 2: 20})
    s = dividend_turn(s)  # seat 0 +15, seat 1 +6, seat 2 +5
    result = ENGINE.result(s)
    assert result is not None
    assert result.scores == [25, 25, 25] and result.ranks == [1, 1, 1] and result.winners == [0, 1, 2]
