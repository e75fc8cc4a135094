"""Legal-action lists of the operating round's money steps on constructed positions: trade-ins
from phase 10, other companies' trains as ranges, the forced purchase, discards, privates."""

from __future__ import annotations

import msgspec

from shared.games.core18xx import actions as A
from shared.games.core18xx.money import emergency as E
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.core18xx.rounds import operating_legal as OM
from shared.games.g18ireland import money as M
from shared.games.g18ireland.setup_random import draw_setup

COMPANIES = [c["sym"] for c in M.ENTITIES["companies"]]
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]
VALUES = {c["sym"]: c["value"] for c in M.ENTITIES["companies"]}


def position() -> tuple[MoneyState, T.Depot]:
    state = M.initial(["a", "b", "c"], draw_setup(689309492, COMPANIES, MINORS))
    money = state.money.set_par("GSWR", (1, 5)).set_par("LER", (2, 4))
    money = msgspec.structs.replace(money, book=money.book.moved(["GSWR_0"], "a").moved(["LER_0"], "b"),
                                    cash={**money.cash, "GSWR": 2000, "LER": 100, "a": 50, "b": 500})
    return money.check_float("GSWR").check_float("LER"), state.depot


def advance_to(depot: T.Depot, cash: dict[str, int], first: str, buyer: str) -> tuple[T.Depot, dict[str, int]]:
    while depot.upcoming[0] != first:
        t = depot.trains[depot.upcoming[0]]
        p = T.buy_train(depot, cash, buyer, t.id, depot.price_for(t), release_half_on_rust=True)
        depot, cash = p.depot, p.cash
    return depot, cash


def test_trade_in_offers_from_phase_10() -> None:
    money, depot = position()
    cash = {**money.cash, "bank_buyer": 10**6}
    depot, cash = advance_to(depot, cash, "10H-0", "bank_buyer")
    # GSWR owns an 8H (taken from the big buyer for the test)
    eight = next(t for t in depot.trains.values() if t.name == "8H" and t.owner == "bank_buyer")
    depot = msgspec.structs.replace(depot, trains={**depot.trains, eight.id: msgspec.structs.replace(eight, owner="GSWR")})
    step = E.TrainBuy(company="GSWR")
    legal = OM.buy_train(money, depot, step, phase_allows_trade=True)
    trades = [x.action for x in legal if x.action.exchange]
    assert A.BuyTrain(entity="GSWR", entity_type="corporation", train="10H-0", price=110, variant="10H",
                      exchange=eight.id) in trades
    assert not [x for x in OM.buy_train(money, depot, step, phase_allows_trade=False) if x.action.exchange]
    done = msgspec.structs.replace(step, exchanged=True)
    assert not [x for x in OM.buy_train(money, depot, done, phase_allows_trade=True) if x.action.exchange]


def test_other_companies_trains_are_ranges_and_forced_purchase_reaches_presidents_cash() -> None:
    money, depot = position()
    p = T.buy_train(depot, money.cash, "GSWR", "2H-0", 80)
    money, depot = msgspec.structs.replace(money, cash=p.cash), p.depot
    legal = OM.buy_train(money, depot, E.TrainBuy(company="LER"), phase_allows_trade=False)
    other = next(x for x in legal if x.action.train == "2H-0")
    assert other.range is not None and (other.range.min, other.range.max) == (1, 100)
    # LER with 30 and b's 500: the depot 2H at 80 is offered (b tops up)
    money = msgspec.structs.replace(money, cash={**money.cash, "LER": 30})
    legal = OM.buy_train(money, depot, E.TrainBuy(company="LER"), phase_allows_trade=False)
    assert any(x.action.train == "2H-1" and x.action.price == 80 for x in legal)


def test_dividend_discard_and_privates() -> None:
    money, depot = position()
    assert OM.dividend("LER", 0) == []
    assert [x.action.kind for x in OM.dividend("LER", 40)] == ["payout", "withhold"]
    assert OM.discard(money, depot, "LER") == []
    for tid in ("2H-0", "2H-1", "2H-2"):
        depot = msgspec.structs.replace(depot, trains={**depot.trains, tid: msgspec.structs.replace(depot.trains[tid], owner="LER")})
    assert [x.action.train for x in OM.discard(money, depot, "LER")] == ["2H-0", "2H-1", "2H-2"]
    money = msgspec.structs.replace(money, companies={"DAR": "a", "DK": "a", "BoW": "LER"})
    assert OM.buy_company(money, "GSWR", VALUES, []) == []
    offers = OM.buy_company(money, "GSWR", VALUES, ["can_buy_companies"])
    assert [(x.action.company, x.range.min, x.range.max) for x in offers] == [("DAR", 10, 40)]  # type: ignore[union-attr]
