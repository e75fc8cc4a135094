"""Operating-round money: private revenue, dividends into the market, issue/redeem, buying a
private, closing, scores and end triggers; then forced train purchases, emergency selling and
bankruptcy - on 18Ireland's data."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx.money import emergency as E
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.g18ireland import money as M
from shared.games.g18ireland.setup_random import draw_setup

PLAYERS = ["a", "b", "c"]
COMPANIES = [c["sym"] for c in M.ENTITIES["companies"]]
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]


def base() -> M.IrelandMoney:
    return M.initial(PLAYERS, draw_setup(689309492, COMPANIES, MINORS))


def start_minor(money: MoneyState, sym: str, player: str, par: int, bid: int) -> MoneyState:
    cell = next(c for c in money.market.par_cells() if c.price == par)
    money = money.set_par(sym, cell.coord)
    money = msgspec.structs.replace(money, book=money.book.moved([f"{sym}_0"], player),
                                    cash=S.pay(money.cash, player, sym, bid))
    return money.check_float(sym)


def test_private_revenue_order_and_bank() -> None:
    money = base().money
    money = msgspec.structs.replace(money, companies={"DAR": "b", "DR": "a", "BoW": "LER"})
    bank = money.cash["bank"]
    money = O.pay_private_revenue(money, {"DAR": 5, "DR": 7, "BoW": 9})
    assert (money.cash["a"], money.cash["b"], money.cash["LER"]) == (337, 335, 9)
    assert money.cash["bank"] == bank - 21


def test_dividend_moves_and_bank_break() -> None:
    money = start_minor(base().money, "LER", "a", 70, 140)
    money, payout = O.run_dividend(money, "LER", 140, "payout")
    # 140 >= 2 x 70: a minor moves two cells right; a holds 40 % (2 of 5 shares)
    assert payout.to_holders == {"a": 56} and payout.to_company == 84
    assert money.price_of("LER") == 86
    money, _ = O.run_dividend(money, "LER", 0, "withhold")
    assert money.price_of("LER") == 78
    money = msgspec.structs.replace(money, cash={**money.cash, "bank": 10})
    money, _ = O.run_dividend(money, "LER", 40, "withhold")
    assert O.bank_broken(money) and O.end_reason(money) == ("bank", "full_or")


def test_issue_redeem_and_buy_private() -> None:
    money = start_minor(base().money, "LER", "a", 70, 140)
    assert O.can_issue(money, "LER")
    money = O.issue_one(money, "LER")
    assert money.cash["LER"] == 140 + 70 and money.price_of("LER") == 66   # down a row
    money = O.issue_one(money, "LER")
    assert not O.can_issue(money, "LER")          # a minor's pool holds at most 40 %
    assert O.can_redeem(money, "LER")
    money = O.redeem_one(money, "LER")
    assert money.price_of("LER") == 60 and money.cash["LER"] == 140 + 70 + 66 - 60
    money = msgspec.structs.replace(money, companies={"DR": "a"})
    with pytest.raises(RuleError):
        O.buy_company(money, "LER", "DR", 61, 30)
    money = O.buy_company(money, "LER", "DR", 60, 30)
    assert money.companies == {"DR": "LER"} and money.cash["a"] == 330 - 140 + 60
    assert O.company_price_range(45) == (23, 90)
    assert O.token_cost([0, 20, 50], 1) == 20


def test_scores_and_stock_market_end() -> None:
    money = start_minor(base().money, "LER", "a", 70, 140)
    money = msgspec.structs.replace(money, companies={"DR": "a"})
    assert O.player_value(money, "a", {"DR": 30}) == 190 + 140 + 30
    money = money.place("LER", (0, 14))
    assert O.end_reason(money) == ("stock_market", "current_round")
    money = money.move_price("LER", "left")
    assert O.end_reason(money) == ("stock_market", "current_round")   # sticky, as 18xx.games


def emergency_setup() -> tuple[MoneyState, T.Depot]:
    state = base()
    money = start_minor(state.money, "LER", "a", 70, 140)
    money = start_minor(money, "WLR", "b", 70, 140)
    book, cash = S.buy(money.book, money.cash, "a", ["WLR_1"], 70, PLAYERS)
    money = msgspec.structs.replace(money, book=book, cash=cash)
    money = msgspec.structs.replace(money, cash={**money.cash, "LER": 30, "a": 40})
    return money, state.depot


def test_forced_purchase_with_presidents_money() -> None:
    money, depot = emergency_setup()
    step = E.TrainBuy(company="LER")
    assert T.must_buy_train(depot, "LER") and E.in_emergency(money, depot, "LER")
    assert [t.id for t in E.buyable_trains(money, depot, step)] == ["2H-0"]
    assert E.spend_range(money, depot, step, depot.trains["2H-0"]) == (1, 70)
    with pytest.raises(RuleError):
        E.buy(money, depot, step, "2H-0", 80)          # 30 + 40 cannot reach 80 yet
    # a sells a WLR share (20 %, £70): the smaller bundle (nothing) would not do
    assert E.emergency_bundles(money, depot, step) == [("WLR", ["WLR_1"], 20)]
    money, step = E.emergency_sell(money, depot, step, ["WLR_1"], None)
    assert money.cash["a"] == 110 and money.price_of("WLR") == 66 and step.last_share_sold_price == 70
    # after a sale the price must use it: more than 30 + 110 - 70 = 70
    assert E.spend_range(money, depot, step, depot.trains["2H-0"]) == (71, 80)
    money, depot, step, purchase = E.buy(money, depot, step, "2H-0", 80)
    assert money.cash["LER"] == 0 and money.cash["a"] == 60 and depot.trains["2H-0"].owner == "LER"


def test_no_contribution_without_need_and_no_buying_from_others_after_selling() -> None:
    money, depot = emergency_setup()
    money = msgspec.structs.replace(money, cash={**money.cash, "WLR": 200})
    money, depot, _, _ = E.buy(money, depot, E.TrainBuy(company="WLR"), "2H-0", 80)
    step = E.TrainBuy(company="LER")
    # in need (30 < 80) another company's train is still on offer, until the president sells
    assert "2H-0" in [t.id for t in E.buyable_trains(money, depot, step)]
    sold = msgspec.structs.replace(step, last_share_sold_price=70)
    assert "2H-0" not in [t.id for t in E.buyable_trains(money, depot, sold)]
    broke = msgspec.structs.replace(money, cash={**money.cash, "LER": 0})
    assert "2H-0" not in [t.id for t in E.buyable_trains(broke, depot, step)]
    money = msgspec.structs.replace(money, cash={**money.cash, "LER": 100})
    assert "2H-0" in [t.id for t in E.buyable_trains(money, depot, step)]
    money, depot, _, _ = E.buy(money, depot, step, "2H-0", 50)   # from WLR at any price up to cash
    assert money.cash["WLR"] == 120 + 50 and money.cash["LER"] == 50
    with pytest.raises(RuleError) as err:
        E.buy(money, depot, step, "2H-1", 80)                      # has a train: no top-up
    assert err.value.code == "not_enough_cash"


def test_bankruptcy_sells_hands_over_and_closes() -> None:
    money, depot = emergency_setup()
    money = msgspec.structs.replace(money, cash={**money.cash, "LER": 0, "a": 0})
    step = E.TrainBuy(company="LER")
    # a could still sell WLR (70): 0 + 0 + 70 < 80, so bankruptcy is allowed
    assert E.can_go_bankrupt(money, depot, step)
    bank_before = money.cash["bank"]
    money, depot = E.bankrupt(money, depot, step)
    assert money.bankrupt == ["a"] and money.cash["a"] == 0
    assert money.corps["LER"].closed and money.cash["LER"] == 0
    assert money.book.percent_of(S.POOL, "WLR") == 20 and money.price_of("WLR") == 66
    # WLR's president is b: WLR stays; the 70 from a's sale went to LER, then to the bank on closing
    assert not money.corps["WLR"].closed
    assert money.cash["bank"] == bank_before - 70 + 70
    assert O.end_reason(money) is None                 # two players left: the game goes on
    money2, depot = emergency_setup()
    with pytest.raises(RuleError) as err:
        E.bankrupt(money2, depot, E.TrainBuy(company="LER"))
    assert err.value.code == "not_bankrupt"
