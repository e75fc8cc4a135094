"""18Ireland's money side at the start: cash, certificates, market, depot, and the private sales
of the opening auction (with the Dublin & Kingstown Railway's special effect)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.market import Market
from shared.games.core18xx.money.rules import EmergencyRules, MoneyRules, PriceMoves
from shared.games.core18xx.money.state import Corp, MoneyState
from shared.games.core18xx.rounds.stock import StockRules
from shared.games.core18xx.rounds.waterfall_auction import Sale
from shared.games.g18ireland.setup_random import RandomSetup

ENTITIES: dict[str, Any] = json.loads((Path(__file__).with_name("entities.json")).read_text())

# 18Ireland's overrides of the base game's money rules (18xx.games `g_18_ireland/game.rb`,
# `step/dividend.rb`, `step/bankrupt.rb`): a minor paying at least twice its price moves right
# twice; bankrupt players keep certificates but are paid nothing; a company closed by its
# president's bankruptcy pays its other holders the share price; the game ends on bankruptcy
# only when one player is left; DK (it closes when bought) is never sold to a company; only
# players preside, and companies hold no other company's shares.
RULES = MoneyRules(
    price_moves=PriceMoves(withheld=("left", 1), paid=((1, 1),), minor_paid=((2, 2), (1, 1))),
    bankrupt_paid_nothing=True,
    bankrupt_close_pays_holders=True,
    bankruptcy_ends="all_but_one",
    unbuyable_companies=frozenset({"DK"}),
    presidents="players",
    # 18xx.games' g_18_ireland/game.rb and step/buy_train.rb
    emergency=EmergencyRules(must_buy_train="always", from_others="never", depot_train_must_be_cheapest=False,
                             sale_sets_purchase_min=True, range_for_every_train=True, affordable_first=True),
)

# 18Ireland's stock round (`g_18_ireland/step/buy_sell_par_shares.rb`, `game.rb`): minors start
# by auction (bids from 100 in 5s, par at half the bid capped at 135), majors by par from phase
# 6; a stock round in which no minor started closes the first minor of the queue.
STOCK_RULES = StockRules(minors_by_auction=True, minor_min_bid=100, max_minor_par=135, bid_increment=5,
                         majors_from_phase=6, close_unstarted_minor=True)


class IrelandMoney(msgspec.Struct, frozen=True):
    money: MoneyState
    depot: T.Depot
    minor_order: list[str]          # minors in queue order (DKR first), started or not


def train_types() -> list[T.TrainType]:
    return [msgspec.convert(t, T.TrainType) for t in ENTITIES["trains"]]


def phases() -> list[T.PhaseDef]:
    return [msgspec.convert(p, T.PhaseDef) for p in ENTITIES["phases"]]


def initial(players: list[str], setup: RandomSetup, larger_bank: bool = False) -> IrelandMoney:
    n = str(len(players))
    start_cash = ENTITIES["starting_cash"][n]
    bank = ENTITIES["larger_bank_cash"] if larger_bank else ENTITIES["bank_cash"]
    cash = {p: start_cash for p in players}
    cash[S.BANK] = bank - start_cash * len(players)
    corps: dict[str, Corp] = {}
    share_lists = []
    for c in ENTITIES["corporations"]:
        closed = c["type"] == "minor" and c["sym"] not in setup.minors
        corps[c["sym"]] = Corp(sym=c["sym"], type=c["type"], float_percent=c["float_percent"],
                               max_ownership_percent=c["max_ownership_percent"], closed=closed)
        cash[c["sym"]] = 0
        share_lists.append((c["sym"], c["shares"]))
    money = MoneyState(players=list(players), cash=cash, book=S.new_book(share_lists), corps=corps,
                       market=Market.from_codes(ENTITIES["market"]), cert_limit=ENTITIES["cert_limit"][n],
                       market_share_limit=ENTITIES["market_share_limit"],
                       minor_market_share_limit=ENTITIES["minor_market_share_limit"], rules=RULES)
    return IrelandMoney(money=money, depot=T.new_depot(train_types(), phases()), minor_order=list(setup.minors))


def apply_private_sales(state: IrelandMoney, sales: list[Sale], kept: list[str]) -> IrelandMoney:
    """Players pay the bank for their privates; DK makes its buyer DKR's director (par at the
    highest par price not above half the price, the price into DKR's treasury, DKR buys the first
    train) and closes. DKR closes if nobody bought DK. Unsold privates leave the game."""
    money, depot = state.money, state.depot
    companies = dict(money.companies)
    for sale in sales:
        money = msgspec.structs.replace(money, cash=S.pay(money.cash, sale.player, S.BANK, sale.price))
        if sale.company != "DK":
            companies[sale.company] = sale.player
            continue
        half = sale.price // 2
        cell = money.market.highest_par_at_most(half)
        if cell is None:
            raise ValueError(f"no par price at most {half}")
        money = money.set_par("DKR", cell.coord)
        money = msgspec.structs.replace(money, book=money.book.moved([money.book.president_cert("DKR").id], sale.player))
        money = msgspec.structs.replace(money, cash=S.pay(money.cash, S.BANK, "DKR", sale.price)).check_float("DKR")
        first = depot.trains[depot.upcoming[0]]
        bought = T.buy_train(depot, money.cash, "DKR", first.id, depot.price_for(first), release_half_on_rust=True)
        depot, money = bought.depot, msgspec.structs.replace(money, cash=bought.cash)
    if "DK" not in {s.company for s in sales}:
        corps = dict(money.corps)
        corps["DKR"] = msgspec.structs.replace(corps["DKR"], closed=True)
        money = msgspec.structs.replace(money, corps=corps)
    money = msgspec.structs.replace(money, companies=companies)
    return msgspec.structs.replace(state, money=money, depot=depot)


def apply_events(state: IrelandMoney, events: list[str]) -> IrelandMoney:
    """Money side of the events a first train of a type fires (18xx.games `event_*!`):
    - `close_companies` (8H): every private still in play closes (no more revenue, no value);
    - `minors_cannot_start` (8H): every minor no player has started closes;
    - `corporations_can_merge` (4H), `majors_can_ipo` (6H), `train_trade_allowed` (10H) change no
      money: mergers and major pars are gated by phase, trade-ins by phase 10/D."""
    money = state.money
    for event in events:
        if event == "close_companies":
            money = msgspec.structs.replace(money, companies={})
        elif event == "minors_cannot_start":
            corps = dict(money.corps)
            for sym, corp in corps.items():
                if corp.type == "minor" and not corp.ipoed and not corp.closed:
                    corps[sym] = msgspec.structs.replace(corp, closed=True)
            money = msgspec.structs.replace(money, corps=corps)
        elif event not in ("corporations_can_merge", "majors_can_ipo", "train_trade_allowed"):
            raise ValueError(f"unknown 18Ireland event {event!r}")
    return msgspec.structs.replace(state, money=money)
