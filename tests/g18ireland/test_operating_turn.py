"""18Ireland's company turn as the operating round's list of steps (`operating_round.TURN`) on
hand-built positions: which step waits, passes, automatic withholds, second lays, forced
purchases, the last step held open by a private for sale."""

from __future__ import annotations

from typing import Any

import pytest

from shared.engine import RuleError
from shared.families import expand
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import trains as T
from shared.games.g18ireland import operating_round as OPR

from .positions import ENGINE, M, operating, replace

PASS = A.Pass(entity="LER", entity_type="corporation")


def _ler(cash: int = 200, phase: str = "2", **kw: Any) -> Any:
    """LER (home Londonderry, G1) at the start of its turn."""
    b = B.place_token(M, B.initial(M), "LER", "G1", 0)
    state = operating(b, "LER", presidents={"LER": "0"}, cash={"LER": cash}, phase=phase, stage="issue", **kw)
    return OPR.OPERATING.advance(state)


def _at_track(**kw: Any) -> Any:
    state = _ler(**kw)
    # its treasury holds unsold shares: the issue step waits first; a pass moves on to track
    assert _stage(state) == "issue"
    assert any(isinstance(a, A.SellShares) and a.entity == "LER" for a in _legal(state))
    return ENGINE.apply(state, 0, PASS)


def _legal(state: Any) -> list[Any]:
    return [a for la in ENGINE.legal_actions(state, 0) for a in expand(la)]


def _stage(state: Any) -> str:
    return state.operating.turn.stage


def _lay(state: Any) -> Any:
    return next(a for a in _legal(state) if isinstance(a, A.LayTile) and a.entity == "LER")


def _train(state: Any) -> Any:
    return next(a for a in _legal(state) if isinstance(a, A.BuyTrain) and a.train == "2H-0")


def test_the_turn_is_the_rounds_steps_in_18xx_games_order() -> None:
    names = [s.name for s in OPR.TURN.steps]
    assert names == ["home_token", "discard_train", "special_track", "assign", "buy_company_any_time", "issue",
                     "track", "token", "route", "dividend", "buy_train", "buy_company"]


def test_turn_without_train_lays_then_must_buy() -> None:
    state = _at_track()
    assert _stage(state) == "track" and ENGINE.active_seats(state) == {0}
    state = ENGINE.apply(state, 0, _lay(state))
    assert _stage(state) == "track"                   # a second lay is possible (£20)
    price = state.money.price_of("LER")
    cash = state.money.cash["LER"]
    state = ENGINE.apply(state, 0, PASS)
    # no train: no route step; nothing earned is withheld (price left); then the forced purchase
    assert _stage(state) == "buy_train" and state.money.price_of("LER") < price
    legal = _legal(state)
    assert PASS not in legal and any(isinstance(a, A.BuyTrain) for a in legal)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, PASS)
    assert err.value.code == "cannot_pass"
    state = ENGINE.apply(state, 0, _train(state))
    assert state.money.cash["LER"] == cash - 80
    # room for a second train and the cash for one: the step waits, and now a pass is open
    assert _stage(state) == "buy_train" and PASS in _legal(state)
    state = ENGINE.apply(state, 0, PASS)
    # LER has had its turn: the round moved on (no other company: the round is over)
    assert state.operating is None or state.operating.turn is None or state.operating.turn.corp != "LER"


def test_a_decision_past_the_waiting_step_is_refused_and_changes_nothing() -> None:
    state = _at_track()
    buy = A.BuyTrain(entity="LER", entity_type="corporation", train="2H-0", price=80)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, buy)                  # the track step waits
    assert err.value.code == "not_allowed"
    run = A.RunRoutes(entity="LER", entity_type="corporation", routes=[])
    with pytest.raises(RuleError):
        ENGINE.apply(state, 0, run)


def test_a_train_with_no_route_skips_the_route_and_withholds_nothing() -> None:
    state = _at_track()
    depot = state.depot
    bought = T.buy_train(depot, state.money.cash, "LER", "2H-0", 80)
    state = replace(state, depot=bought.depot, money=replace(state.money, cash=bought.cash))
    price = state.money.price_of("LER")
    state = ENGINE.apply(state, 0, PASS)          # no tile: LER's home alone is no route
    turn = state.operating.turn
    assert turn.stage == "buy_train" and turn.paid and turn.revenue is None
    assert state.money.price_of("LER") < price    # the withhold of nothing moved the price


def test_a_private_for_sale_keeps_the_last_step_open() -> None:
    state = _at_track(cash=300, phase="4", companies={"DAR": "1"})
    assert _stage(state) == "track"
    state = ENGINE.apply(state, 0, PASS)
    state = ENGINE.apply(state, 0, _train(state))
    while _stage(state) == "buy_train":             # room for another and cash: may pass
        state = ENGINE.apply(state, 0, PASS)
    assert _stage(state) == "buy_company"
    buy = next(a for a in _legal(state) if isinstance(a, A.BuyCompany))
    state = ENGINE.apply(state, 0, buy)
    assert state.money.companies["DAR"] == "LER"
    assert state.operating is None or state.operating.turn is None or state.operating.turn.stage == "done" \
        or state.operating.turn.corp != "LER"
