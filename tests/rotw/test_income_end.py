"""Shares, income and expenses, the end of the game and scoring (sources named per test)."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE, rules
from shared.games.rotw_england_wales.actions import Deliver, IssueShare
from shared.games.rotw_england_wales.board import load_board
from shared.games.rotw_england_wales.end import breakdown
from shared.games.rotw_england_wales.state import Link

from .helpers import AVON, BRENT, ESK, TARN, end_build, forgo, lay, next_turn, start, to_act


def test_a_share_is_never_issued_on_its_own() -> None:
    # seed "Vydávání akcií": "Hráč může vydat akcie pouze, když potřebuje hotovost na nákup nebo
    # na zaplacení pohledávek" - the standard game offers no share action; payments issue them
    s = start(cash=0)
    me = to_act(s)
    assert not any(isinstance(f.action, IssueShare) for f in ENGINE.legal_actions(s, me))
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, me, IssueShare())
    assert err.value.code == "no_payment_due"
    assert (s.players[me].cash, s.players[me].shares) == (0, 0)


def test_share_interest_short_of_cash_issues_what_it_needs() -> None:
    # seed "Vydávání akcií" (paying what is owed): $3,000 interest with $0 and no income is 1 share
    s = start(cash=0)
    for p in s.players:
        p.vp, p.shares = 0, 3
    s = next_turn(s)
    assert [(p.shares, p.cash) for p in s.players] == [(4, 2000)] * 3


def test_income_then_share_interest() -> None:
    # base rules (0kelvin description; RRT piglix: $1,000 per share each turn) - README 'Income'
    s = start(cash=3000)
    for i, p in enumerate(s.players):
        p.vp, p.shares = 5, i
    s = next_turn(s)
    assert [p.cash for p in s.players] == [3000 + 5000 - i * 1000 for i in range(3)]


def test_a_player_who_cannot_pay_issues_shares_to_pay() -> None:
    # README 'Income' (0kelvin: "players have to issue bonds when they need money")
    s = start(cash=0)
    s.players[0].shares = 3  # owes $3,000, has $0 and no income: issues one share
    s.players[1].shares, s.players[1].vp = 12, 2  # owes $12,000, earns $2,000: issues two
    s = next_turn(s)
    assert (s.players[0].shares, s.players[0].cash) == (4, 2000)
    assert (s.players[1].shares, s.players[1].cash, s.players[1].vp) == (14, 0, 2)


def test_income_track_rises_then_falls() -> None:
    # BGA forum 'Calculation of Income from Deliveries' and 0kelvin: +1 per step at first, then
    # several steps per +1, and at last the income goes down
    values = [rules.income_for(v) for v in range(0, 101)]
    assert values[:11] == [v * 1000 for v in range(11)]
    assert values[12] - values[10] == 1000
    assert max(values) > values[100]


def test_england_wales_empty_city_thresholds() -> None:
    # seed 'Konec hry': 9/11/13/15 empty-city markers for 2/3/4/5 players
    board = load_board("t", {"layout": "pointy-odd-r", "hexes": [{"col": 0, "row": 0, "terrain": "plain"}]})
    assert board.empty_city_end == {2: 9, 3: 11, 4: 13, 5: 15}


def test_game_ends_after_the_current_turn_and_one_more() -> None:
    # seed (limit, "as in the base game") + BGA help: the current turn is completed (all three
    # phases) and then one additional turn is played
    s = start()
    a, b, c = s.order
    s = lay(s, "2,0", 2, 0)  # a: Avon - Tarn
    s = end_build(s)
    s.empty = ["x", "y", "z"]  # test map: 4 empty cities end a 3-player game
    s.cubes = {AVON: ["red"], ESK: ["red"]}
    s.urban = {TARN: "red"}
    s = ENGINE.apply(s, b, Deliver(city=AVON, color="red", path=[0]))
    assert s.ending and s.final_turn == 2 and ENGINE.result(s) is None and to_act(s) == c
    s = next_turn(s)  # the rest of turn 1 (and its income)
    assert s.turn == 2 and ENGINE.result(s) is None
    cash = [p.cash for p in s.players]
    while s.phase == "action":
        s = forgo(s)
    res = ENGINE.result(s)
    assert res is not None and res.reason == "4 empty cities" and s.turn == 2
    assert [p.cash for p in s.players] != cash  # turn 2's income phase was played


def test_final_score_track_links_cards_baron_minus_shares() -> None:
    # brief + seed (baron revealed and scored at the end) + lehi summary (-1 VP per share)
    s = start()
    s.players[0].vp, s.players[0].shares = 10, 4
    s.players[0].bonus = [["Avon to Dove", 5]]
    s.players[0].baron = "links"
    s.players[1].baron = "engine"
    s.players[1].engine = 1
    s.players[2].engine = 3
    s.links = [Link(id=0, owner=0, a=AVON, start_edge=0, hexes=["2,1"], exit=0, b=TARN, complete=True),
               Link(id=1, owner=0, a=TARN, start_edge=1, hexes=["3,1"], exit=0, b=BRENT, complete=True),
               Link(id=2, owner=1, a=AVON, start_edge=2, hexes=["1,2"], exit=0, complete=False)]
    rows = breakdown(s)
    assert rows[0] == {"track": 10, "links": 2, "cards": 5, "baron": 10, "shares": -4, "total": 23}
    assert rows[1]["baron"] == 0 and rows[1]["links"] == 0  # incomplete links do not score


def test_ties_go_to_fewer_shares() -> None:
    # wyrmbergames review: "with the least amount of shares in the case of a tie"
    s = start()
    for p, (vp, shares) in zip(s.players, [(12, 2), (11, 1), (13, 3)]):
        p.vp, p.shares, p.baron = vp, shares, "majors"
    s.phase = "over"
    res = ENGINE.result(s)
    assert res is not None and res.scores == [10, 10, 10]
    assert res.ranks == [2, 1, 3] and res.winners == [1]
