"""The operating order within a round (18xx.games' `recalculate_order`): a president's sales
toward a forced train move prices, and the companies still to operate are sorted again; the
company operating keeps its turn. Hand-built position."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.families import expand
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B

from .positions import ENGINE, M, operating, replace


def test_emergency_sales_sort_the_companies_still_to_operate_again() -> None:
    # LER operates, with no train and no cash; its president (seat 0) holds 40 % of WLR, which
    # operates last, after DDR; WLR's price is well above DDR's until those shares are sold
    b = B.place_token(M, B.place_token(M, B.initial(M), "LER", "G1", 0), "DDR", "I11", 1)
    b = B.place_token(M, b, "WLR", "D16", 0)
    state = operating(b, "LER", presidents={"LER": "0", "DDR": "1", "WLR": "2"}, phase="2", stage="buy_train")
    money = state.money.set_par("WLR", (1, 4), par_cell_only=False).set_par("DDR", (2, 4), par_cell_only=False)
    money = replace(money, book=money.book.moved(["WLR_1", "WLR_2"], "0"),
                    cash={**money.cash, "0": 0, "LER": 0})
    for sym in ("LER", "DDR", "WLR"):
        money = money.check_float(sym)
    order = ["LER"] + [c for c in money.operating_order() if c in ("DDR", "WLR")]
    assert order == ["LER", "WLR", "DDR"]
    state = replace(state, money=money, operating=replace(state.operating, order=order))
    sale = next(a for la in ENGINE.legal_actions(state, 0) for a in expand(la)
                if isinstance(a, A.SellShares) and a.entity_type == "player" and len(a.shares) == 2)
    after = ENGINE.apply(state, 0, sale)
    assert after.money.price_of("WLR") < after.money.price_of("DDR")
    assert after.operating.order == ["LER", "DDR", "WLR"] and after.operating.turn.corp == "LER"


def test_a_company_over_its_train_limit_discards_first_whatever_the_step() -> None:
    """18xx.games' DiscardTrain blocks the operating round as soon as a company is over its
    limit (a phase change bought by another company): its president discards before the
    operating company goes on."""
    b = B.place_token(M, B.place_token(M, B.initial(M), "LER", "G1", 0), "DDR", "I11", 1)
    state = operating(b, "LER", presidents={"LER": "0", "DDR": "1"}, phase="4", cash={"LER": 100})
    depot = state.depot
    spare = [t.id for t in depot.trains.values() if t.owner == "depot"][:depot.train_limit("minor") + 1]
    trains = {**depot.trains, **{t: replace(depot.trains[t], owner="DDR") for t in spare}}
    state = replace(state, depot=replace(depot, trains=trains))
    assert ENGINE.active_seats(state) == {1}
    legal = [a for la in ENGINE.legal_actions(state, 1) for a in expand(la) if isinstance(a, A.DiscardTrain)]
    assert legal and {a.entity for a in legal} == {"DDR"}
    assert ENGINE.legal_actions(state, 0) == [] or all(not isinstance(la.action, A.LayTile)
                                                       for la in ENGINE.legal_actions(state, 0))
    # the operating company's president waits meanwhile
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, A.Pass(entity="LER", entity_type="corporation"))
    assert err.value.code == "not_your_turn"
    after = ENGINE.apply(state, 1, legal[0])
    assert after.depot.count_owned("DDR") == depot.train_limit("minor")
    assert ENGINE.active_seats(after) == {0} and after.operating.turn.stage == "track"


def test_an_emergency_sale_that_raises_more_than_the_train_costs_leaves_the_train_buyable() -> None:
    """README reading 23: with the floor 18xx.games sets after a sale above the train's price,
    and nothing else left (no train within the floor, no sale allowed, no bankruptcy), the
    train is bought at its price (18xx.games would offer nothing at all)."""
    from shared.games.core18xx.money import emergency as E
    state = operating(B.place_token(M, B.initial(M), "LER", "G1", 0), "LER", presidents={"LER": "0"}, phase="2",
                      stage="buy_train")
    money = replace(state.money, cash={**state.money.cash, "LER": 0, "0": 126})
    step = E.TrainBuy(company="LER", last_share_sold_price=24)
    train = state.depot.offered()[0]
    price = state.depot.types[train.name].price
    low, high = E.spend_range(money, state.depot, step, train)
    assert low == 126 - 24 + 1 > high == price                  # 18xx.games: no price to pay
    assert E.stuck_trains(money, state.depot, step) == [train]
    assert train in E.buyable_trains(money, state.depot, step)
    after, depot, _, _ = E.buy(money, state.depot, step, train.id, price)
    assert depot.trains[train.id].owner == "LER" and after.cash["0"] == 126 - price
    # before any sale there is no floor: nothing is stuck
    assert E.stuck_trains(money, state.depot, E.TrainBuy(company="LER")) == []


def test_the_operating_company_cannot_act_before_a_discard_even_when_one_player_presides_both() -> None:
    b = B.place_token(M, B.place_token(M, B.initial(M), "LER", "G1", 0), "DDR", "I11", 1)
    state = operating(b, "LER", presidents={"LER": "0", "DDR": "0"}, phase="4", cash={"LER": 100})
    depot = state.depot
    spare = [t.id for t in depot.trains.values() if t.owner == "depot"][:depot.train_limit("minor") + 1]
    state = replace(state, depot=replace(depot, trains={**depot.trains,
                                                         **{t: replace(depot.trains[t], owner="DDR") for t in spare}}))
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, A.Pass(entity="LER", entity_type="corporation"))
    assert err.value.code == "discard_first" and "DDR" in err.value.message
