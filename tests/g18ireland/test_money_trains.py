"""Depot, phases, 18Ireland's two-stage rusting, trade-ins and the emergency-purchase checks."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx.money import trains as T

DATA = json.loads((Path(__file__).resolve().parents[2] / "shared/games/g18ireland/entities.json").read_text())
TYPES = [msgspec.convert(t, T.TrainType) for t in DATA["trains"]]
PHASES = [msgspec.convert(p, T.PhaseDef) for p in DATA["phases"]]


def fresh() -> tuple[T.Depot, dict[str, int]]:
    return T.new_depot(TYPES, PHASES), {"bank": 100_000, "A": 100_000, "B": 100_000}


def buy_next(depot: T.Depot, cash: dict[str, int], buyer: str) -> T.Purchase:
    train = depot.trains[depot.upcoming[0]]
    return T.buy_train(depot, cash, buyer, train.id, depot.price_for(train), release_half_on_rust=True)


def test_new_depot_sets_primed_trains_aside() -> None:
    depot, _ = fresh()
    assert depot.upcoming[:8] == [f"2H-{i}" for i in range(7)] + ["4H-0"]
    assert all(depot.trains[f"1H'-{i}"].owner == T.RESERVED for i in range(7))
    assert [t.id for t in depot.offered()] == ["2H-0"] and depot.min_price() == 80
    assert depot.current_phase.name == "2" and depot.train_limit("minor") == 2


def test_phase_change_and_events_on_first_of_type() -> None:
    depot, cash = fresh()
    for _ in range(7):
        p = buy_next(depot, cash, "A")
        depot, cash = p.depot, p.cash
        assert not p.new_phase and p.events == []
    p = buy_next(depot, cash, "B")
    assert p.new_phase and p.depot.current_phase.name == "4" and p.events == ["corporations_can_merge"]
    assert p.depot.train_limit("major") == 4 and p.cash["B"] == 100_000 - 180 and p.cash["bank"] == 100_000 + 7 * 80 + 180
    p2 = buy_next(p.depot, p.cash, "B")
    assert not p2.new_phase and p2.events == []


def test_two_stage_rusting_releases_half_trains_to_the_pool() -> None:
    depot, cash = fresh()
    for _ in range(7 + 5):          # all 2H and 4H
        p = buy_next(depot, cash, "A")
        depot, cash = p.depot, p.cash
    # discard one 2H to the pool first: it rusts there too and also yields a 1H'
    depot = T.discard(depot, "A", "2H-3")
    p = buy_next(depot, cash, "B")  # first 6H: 2H rust
    assert p.depot.current_phase.name == "6" and p.events == ["majors_can_ipo"]
    assert sorted(p.rusted) == [f"2H-{i}" for i in range(7)]
    assert sorted(p.released) == [f"1H'-{i}" for i in range(7)]
    assert [t.id for t in p.depot.offered()] == ["6H-1", "1H'-0"]
    assert p.depot.min_price() == 40
    depot = p.depot
    # A buys a 1H' from the pool at its list price
    p = T.buy_train(depot, p.cash, "A", "1H'-0", 40, release_half_on_rust=True)
    assert p.depot.trains["1H'-0"].owner == "A" and p.events == [] and not p.new_phase
    depot, cash = p.depot, p.cash
    for _ in range(3):
        p = buy_next(depot, cash, "B")
        depot, cash = p.depot, p.cash
    p = buy_next(depot, cash, "B")  # first 8H: 4H and every 1H' rust, 4H release 2H'
    assert p.depot.current_phase.name == "8"
    assert {t for t in p.rusted if t.startswith("1H'")} == {f"1H'-{i}" for i in range(7)}
    assert sorted(p.released) == [f"2H'-{i}" for i in range(5)]
    assert p.events == ["minors_cannot_start", "close_companies"]
    assert not p.depot.owned_by("A") or all(t.name != "1H'" for t in p.depot.owned_by("A"))


def test_reserved_trains_never_released_still_rust() -> None:
    depot, cash = fresh()
    while depot.upcoming[0] != "10H-0":
        p = buy_next(depot, cash, "A")
        depot, cash = p.depot, p.cash
    p = buy_next(depot, cash, "A")
    # 6H rust now: 3H' come out; the 2H' that were released rust
    assert sorted(p.released) == [f"3H'-{i}" for i in range(4)]
    assert all(p.depot.trains[f"2H'-{i}"].owner == T.RUSTED for i in range(5))


def test_trade_in_for_the_d_and_unlimited_supply() -> None:
    depot, cash = fresh()
    while depot.upcoming[0] != "D-0":
        p = buy_next(depot, cash, "A")
        depot, cash = p.depot, p.cash
    eight = next(t for t in depot.owned_by("A") if t.name == "8H")
    with pytest.raises(RuleError) as err:
        T.buy_train(depot, cash, "A", "D-0", 770, exchange_id=eight.id)
    assert err.value.code == "wrong_price"
    p = T.buy_train(depot, cash, "A", "D-0", 330, exchange_id=eight.id, release_half_on_rust=True)
    assert p.depot.trains["D-0"].owner == "A" and p.depot.trains[eight.id].owner == T.POOL
    assert p.depot.current_phase.name == "D" and p.depot.upcoming == ["D-1"]
    assert eight.id in [t.id for t in p.depot.offered()]
    with pytest.raises(RuleError) as err:
        T.buy_train(p.depot, p.cash, "B", "D-1", 330, exchange_id=eight.id)
    assert err.value.code == "bad_exchange"


def test_buying_from_another_company_and_limits() -> None:
    depot, cash = fresh()
    p = buy_next(depot, cash, "A")
    p = T.buy_train(p.depot, p.cash, "B", "2H-0", 1)
    assert p.depot.trains["2H-0"].owner == "B" and p.cash["A"] == 100_000 - 80 + 1
    with pytest.raises(RuleError):
        T.buy_train(p.depot, p.cash, "B", "2H-0", 5)
    with pytest.raises(RuleError) as err:
        T.buy_train(p.depot, p.cash, "A", "2H-2", 80)
    assert err.value.code == "not_available"
    depot = p.depot
    for _ in range(2):
        q = buy_next(depot, p.cash, "B")
        depot = q.depot
    assert T.over_limit(depot, {"A": "minor", "B": "minor"}) == ["B"]


def test_emergency_purchase_checks() -> None:
    depot, _ = fresh()
    assert T.must_buy_train(depot, "A")
    assert T.president_shortfall(depot, 30, 80) == 50 and T.president_shortfall(depot, 90, 80) == 0
    assert not T.may_sell_for_train(depot, 80, already_selling=False)
    assert T.may_sell_for_train(depot, 79, already_selling=False)
    assert T.can_go_bankrupt(depot, company_cash=10, president_cash=20, sellable_value=49)
    assert not T.can_go_bankrupt(depot, company_cash=10, president_cash=20, sellable_value=50)
