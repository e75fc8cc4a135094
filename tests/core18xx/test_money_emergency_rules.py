"""The forced train purchase's variants as the title's data (`rules.EmergencyRules`), on a
synthetic position: company A (cash 30, no train) must buy; the depot offers a 2-train (80)
and the pool a 3-train (180); company B owns a 2-train."""

from __future__ import annotations

import msgspec

from shared.games.core18xx.money import emergency as E
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.rules import EmergencyRules, MoneyRules
from shared.games.core18xx.money.state import MoneyState

from .synthetic import money, started

TYPES = [T.TrainType(name="2", distance=2, price=80, num=3), T.TrainType(name="3", distance=3, price=180, num=2)]
PHASES = [T.PhaseDef(name="2", on=None, train_limit={"major": 4}, tiles=["yellow"], operating_rounds=1, status=[])]


def position(rules: EmergencyRules) -> tuple[MoneyState, T.Depot]:
    m = money(["p1", "p2"], ["A", "B"], MoneyRules(emergency=rules), cash=100)
    m = started(started(m, "A", "p1"), "B", "p2")
    m = msgspec.structs.replace(m, cash={**m.cash, "A": 30, "B": 500})
    depot = T.new_depot(TYPES, PHASES)
    trains = dict(depot.trains)
    trains["2-0"] = msgspec.structs.replace(trains["2-0"], owner="B")
    trains["3-0"] = msgspec.structs.replace(trains["3-0"], owner=T.POOL)
    upcoming = [t for t in depot.upcoming if t not in ("2-0", "3-0")]
    return m, msgspec.structs.replace(depot, trains=trains, upcoming=upcoming, pool=["3-0"])


def names(m: MoneyState, depot: T.Depot) -> list[str]:
    return sorted(t.id for t in E.buyable_trains(m, depot, E.TrainBuy(company="A")))


def test_when_a_train_must_be_bought() -> None:
    for rules, has_route, must in ((EmergencyRules(must_buy_train="always"), False, True),
                                   (EmergencyRules(must_buy_train="route"), True, True),
                                   (EmergencyRules(must_buy_train="route"), False, False),
                                   (EmergencyRules(must_buy_train="never"), True, False)):
        m, depot = position(rules)
        assert E.must_buy(m, depot, "A", has_route) is must, rules.must_buy_train


def test_base_game_offers_only_the_cheapest_depot_train_and_others_up_to_face_value() -> None:
    m, depot = position(EmergencyRules())
    assert names(m, depot) == ["2-0", "2-1"]            # not the pool's 3-train
    step = E.TrainBuy(company="A")
    # another company's train: the president's money helps, up to its face value
    assert E.spend_range(m, depot, step, depot.trains["2-0"]) == (1, 80)
    m2, depot2 = position(EmergencyRules(from_others="always"))
    assert E.spend_range(m2, depot2, step, depot2.trains["2-0"]) == (1, 130)


def test_a_title_can_offer_every_depot_train_and_no_train_of_others_after_a_sale() -> None:
    rules = EmergencyRules(from_others="never", depot_train_must_be_cheapest=False)
    m, depot = position(rules)
    assert names(m, depot) == ["2-0", "2-1", "3-0"]
    sold = E.TrainBuy(company="A", last_share_sold_price=10)
    assert "2-0" not in [t.id for t in E.buyable_trains(m, depot, sold)]
    # with `from_others` never the president's money does not reach another company's train
    assert E.spend_range(m, depot, E.TrainBuy(company="A"), depot.trains["2-0"]) == (1, 30)


def test_selling_can_be_switched_off() -> None:
    m, depot = position(EmergencyRules(can_sell_shares=False))
    assert E.emergency_bundles(m, depot, E.TrainBuy(company="A")) == []
