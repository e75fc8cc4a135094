"""Buying trains in the operating round, the forced purchase with the president's money
("emergency money raising") and bankruptcy, as 18xx.games plays them; the variant is the
title's data, `MoneyState.rules.emergency` (`rules.EmergencyRules`, base game by default).

Facts (18xx.games `step/train.rb`, `step/buy_train.rb`, `step/emergency_money.rb`,
`step/bankrupt.rb`, and their overrides for such titles; the title's README names them):
- A company may buy from the depot/pool at list price or from another company (any player's) for
  any price from 1 to its cash, within its train limit. From phase 10, once per turn, it may trade
  in a listed train for a discount; a trade-in cannot be topped up by the president.
- A company without a train must buy one while the depot has any (`must_buy_train`: always, or
  with a route, or never). If its cash is below the cheapest depot/pool train it is in
  emergency: the president pays what the company lacks, at most the train's price
  (`from_others` "value", or for every train with `range_for_every_train`); with
  `depot_train_must_be_cheapest` only the cheapest depot train is offered; with `from_others`
  "never", once he has sold shares it may buy only from the depot/pool, and a company with no
  cash cannot buy from companies. With `affordable_first`, if anything in the depot is
  affordable with the company's cash alone, only affordable trains (and other companies'
  trains) are offered.
- In emergency the president may sell shares: a bundle only if the next smaller one would not
  cover what is still needed for the dearest depot train (no selling more than needed, unless
  `sell_more_than_needed`; none at all without `can_sell_shares`), never
  one that would hand the presidency of the company buying, never beyond the pool limit, the
  presidency of another company only if someone can take it. Once he has sold, the purchase must
  use up the sale: the price must be more than (company + president cash) - last share price
  (with `sale_sets_purchase_min` depot trains under that floor are not offered).
- If company cash + president cash + everything he could sell cannot buy the cheapest
  depot/pool train, the president may (must) declare bankruptcy: he sells every share he legally
  can (largest bundle per company, companies in operating order), hands his remaining cash to the
  company, is bankrupt, and every company he presides closes (with `rules.bankrupt_close_pays_holders`
  the other holders are paid the share price per share as it closes).
"""

from __future__ import annotations

import msgspec

from shared.engine import RuleError
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState


class TrainBuy(msgspec.Struct, frozen=True):
    """The buy-train step's memory within one company's turn."""

    company: str
    exchanged: bool = False
    last_share_sold_price: int | None = None   # set once the president has sold in emergency


def must_buy(money: MoneyState, depot: T.Depot, company: str, has_route: bool = True) -> bool:
    """The company must buy a train now (`must_buy_train`; `has_route` is the board's answer)."""
    rule = money.rules.emergency.must_buy_train
    return rule != "never" and (rule == "always" or has_route) and T.must_buy_train(depot, company)


def in_emergency(money: MoneyState, depot: T.Depot, company: str) -> bool:
    return money.cash[company] < depot.min_price()


def room(money: MoneyState, depot: T.Depot, company: str) -> bool:
    return depot.count_owned(company) < depot.train_limit(money.corps[company].type)


def spend_range(money: MoneyState, depot: T.Depot, step: TrainBuy, train: T.Train) -> tuple[int, int]:
    """Allowed (min, max) price for `train` (18xx.games `spend_minmax`)."""
    company = step.company
    rules = money.rules.emergency
    price = depot.types[train.name].price
    president = money.book.president_of(company)
    if money.cash[company] < price and (rules.range_for_every_train or rules.from_others != "never"):
        possible = money.cash[company] + money.cash[president]
        low = 1
        if step.last_share_sold_price is not None:
            low = possible - step.last_share_sold_price + 1
        capped = rules.range_for_every_train or rules.from_others == "value"
        return low, min(price, possible) if capped else possible
    return 1, money.cash[company]


def buyable_trains(money: MoneyState, depot: T.Depot, step: TrainBuy) -> list[T.Train]:
    """Trains the company may buy now (each depot type once; other companies' trains)."""
    strict = _buyable(money, depot, step)
    if step.last_share_sold_price is None:
        return strict
    return strict + [t for t in stuck_trains(money, depot, step, strict) if t not in strict]


def _buyable(money: MoneyState, depot: T.Depot, step: TrainBuy) -> list[T.Train]:
    """18xx.games' `buyable_trains` (reading 23 aside)."""
    company = step.company
    rules = money.rules.emergency
    if not room(money, depot, company):
        return []
    offered = depot.offered()
    # (other companies' trains: most trains are the depot's, ruled out by the first test)
    corps = money.corps
    others = [t for t in depot.trains.values()
              if t.owner in corps and t.owner not in (company, T.DEPOT, T.POOL, T.RESERVED, T.RUSTED)
              and not t.owner.startswith("closed:")]
    cash = money.cash[company]

    def floor_met(t: T.Train) -> bool:
        return depot.types[t.name].price >= spend_range(money, depot, step, t)[0]

    if in_emergency(money, depot, company):
        if rules.depot_train_must_be_cheapest and offered:
            offered = [min(offered, key=lambda t: depot.types[t.name].price)]
        if rules.sale_sets_purchase_min:
            # sold shares set the floor: drop depot trains cheaper than what the sale obliges
            offered = [t for t in offered if floor_met(t)]
        if step.last_share_sold_price is not None:
            others = [t for t in others if floor_met(t)] if rules.from_others != "never" else []
    if cash == 0 and rules.from_others == "never":
        others = []
    candidates = offered + others
    if not rules.affordable_first:
        return candidates
    affordable = [t for t in candidates if (t.owner not in (T.DEPOT, T.POOL) and cash > 0)
                  or depot.types[t.name].price <= cash]
    if any(t.owner in (T.DEPOT, T.POOL) for t in affordable):
        return affordable
    return candidates


def _payable(money: MoneyState, depot: T.Depot, step: TrainBuy, train: T.Train) -> bool:
    """Some price for `train` passes 18xx.games' checks (the company and its president can pay
    a depot train's price within the floor; another company's train has any price in range)."""
    low, high = spend_range(money, depot, step, train)
    if train.owner in (T.DEPOT, T.POOL):
        return low <= depot.types[train.name].price <= high
    return low <= high


def stuck_trains(money: MoneyState, depot: T.Depot, step: TrainBuy,
                 strict: list[T.Train] | None = None) -> list[T.Train]:
    """README reading 23. After an emergency sale that raised more than a train costs, the
    floor on the price (what leaves the president less than one sold share's worth) passes
    that train's price; when no other train can be bought, no further sale is allowed and no
    bankruptcy either, 18xx.games leaves nothing to do at all. Then those depot trains may be
    bought at their price."""
    if step.last_share_sold_price is None:
        return []
    strict = _buyable(money, depot, step) if strict is None else strict
    if any(_payable(money, depot, step, t) for t in strict) or emergency_bundles(money, depot, step) \
            or can_go_bankrupt(money, depot, step):
        return []
    out = []
    for t in depot.offered():
        low, high = spend_range(money, depot, step, t)
        if low > high == depot.types[t.name].price:
            out.append(t)
    return out


def buy(money: MoneyState, depot: T.Depot, step: TrainBuy, train_id: str, price: int,
        exchange_id: str | None = None, phase_allows_trade: bool = False) -> tuple[MoneyState, T.Depot, TrainBuy, T.Purchase]:
    company = step.company
    train = depot.trains.get(train_id)
    if train is None:
        raise RuleError("unknown_train", f"no train {train_id}")
    if exchange_id is not None:
        if not phase_allows_trade or step.exchanged:
            raise RuleError("no_trade_in", "trading in a train is not possible now")
    elif train.id not in {t.id for t in buyable_trains(money, depot, step)}:
        raise RuleError("not_buyable", f"{train_id} is not for sale to {company}")
    if exchange_id is None:
        low, high = spend_range(money, depot, step, train)
        listed = depot.types[train.name].price
        stuck = price == listed and train in stuck_trains(money, depot, step)
        rules = money.rules.emergency
        if train.owner in (T.DEPOT, T.POOL) and not rules.range_for_every_train:
            # a depot train goes at its list price (18xx.games checks the range only for trains
            # bought from companies; the floor after a sale with `sale_sets_purchase_min`)
            if price != listed or (rules.sale_sets_purchase_min and price < low and not stuck):
                raise RuleError("bad_price", f"{train.name} costs {listed}")
        elif not low <= price <= high and not stuck:
            raise RuleError("bad_price", f"{company} may pay {low} to {high} for {train.name}")
    shortfall = price - money.cash[company]
    cash = money.cash
    if shortfall > 0:
        if not must_buy(money, depot, company):
            raise RuleError("not_enough_cash", f"{company} has only {money.cash[company]}")
        if exchange_id is not None:
            raise RuleError("no_contribution", "the president cannot add money to a trade-in")
        # (18xx.games lets the president top up a purchase from another company too, up to its
        # list price, as long as he has not sold shares for it)
        president = money.book.president_of(company)
        cash = S.pay(cash, president, company, shortfall)
    purchase = T.buy_train(depot, cash, company, train_id, price, exchange_id, release_half_on_rust=True)
    money = msgspec.structs.replace(money, cash=purchase.cash)
    step = msgspec.structs.replace(step, exchanged=step.exchanged or exchange_id is not None)
    return money, purchase.depot, step, purchase


# --- emergency selling -----------------------------------------------------------------------

def may_sell(money: MoneyState, depot: T.Depot, step: TrainBuy) -> bool:
    if not money.rules.emergency.can_sell_shares:
        return False
    return step.last_share_sold_price is not None or in_emergency(money, depot, step.company)


def emergency_bundles(money: MoneyState, depot: T.Depot, step: TrainBuy) -> list[tuple[str, list[str], int]]:
    """(company, certificates, percent) bundles the president may sell toward the train."""
    if not may_sell(money, depot, step):
        return []
    return _legal_sales(money, depot, money.book.president_of(step.company), step.company)


def emergency_sell(money: MoneyState, depot: T.Depot, step: TrainBuy, cert_ids: list[str],
                   percent: int | None) -> tuple[MoneyState, TrainBuy]:
    if not cert_ids or any(c not in money.book.certs for c in cert_ids):
        raise RuleError("unknown_share", "name the shares to sell")
    sym = money.book.certs[cert_ids[0]].corporation
    total = sum(money.book.certs[c].percent for c in cert_ids)
    percent = total if percent is None else percent
    if not any(s == sym and set(ids) == set(cert_ids) and p == percent
               for s, ids, p in emergency_bundles(money, depot, step)):
        raise RuleError("cannot_sell_bundle", f"that sale of {sym} is not allowed now")
    president = money.book.president_of(step.company)
    price = money.price_of(sym)
    book, cash, moved = S.sell(money.book, money.cash, president, cert_ids, percent, price,
                               money.presidents(sym), money.pool_limit(sym))
    money = msgspec.structs.replace(money, book=book, cash=cash).move_price(sym, "down", moved)
    return money, msgspec.structs.replace(step, last_share_sold_price=price)


# --- bankruptcy ------------------------------------------------------------------------------

def sellable_value(money: MoneyState, depot: T.Depot, step: TrainBuy) -> int:
    """What the president could raise by selling, counting the largest sellable bundle per company."""
    president = money.book.president_of(step.company)
    best: dict[str, int] = {}
    for sym, _ids, percent in _legal_sales(money, depot, president, step.company):
        best[sym] = max(best.get(sym, 0), money.cert_price(sym, percent))
    return sum(best.values())


def _legal_sales(money: MoneyState, depot: T.Depot, player: str, buying: str) -> list[tuple[str, list[str], int]]:
    """18xx.games `EmergencyMoney#can_sell?` for the president of the company `buying`."""
    needed = max((depot.types[t.name].price for t in depot.offered()), default=0)
    still_needed = needed - (money.cash[player] + money.cash[buying])
    more_than_needed = money.rules.emergency.sell_more_than_needed
    out = []
    for sym, corp in money.corps.items():
        if not corp.ipoed or corp.closed:
            continue
        for ids, percent in S.sell_options(money.book, player, sym):
            if money.book.percent_of(S.POOL, sym) + percent > money.pool_limit(sym):
                continue
            if not S.can_dump(money.book, player, sym, ids, money.presidents(sym)):
                continue
            if sym == buying:
                # never sell so much that the buying company changes hands
                others = [money.book.percent_of(p, sym) for p in money.presidents(sym) if p != player]
                if money.book.percent_of(player, sym) - percent < max(others, default=0):
                    continue
            # sell no more than needed: the next smaller bundle must fall short
            price = money.cert_price(sym, percent)
            cheapest_cert = min(money.cert_price(sym, money.book.certs[c].percent) for c in ids)
            if price - cheapest_cert >= still_needed and not more_than_needed:
                continue
            out.append((sym, ids, percent))
    return out


def can_go_bankrupt(money: MoneyState, depot: T.Depot, step: TrainBuy) -> bool:
    president = money.book.president_of(step.company)
    return T.can_go_bankrupt(depot, money.cash[step.company], money.cash[president],
                             sellable_value(money, depot, step))


def bankrupt(money: MoneyState, depot: T.Depot, step: TrainBuy) -> tuple[MoneyState, T.Depot]:
    if not can_go_bankrupt(money, depot, step):
        raise RuleError("not_bankrupt", "the company and its president can still raise enough for a train")
    company = step.company
    player = money.book.president_of(company)
    held = {c.corporation for c in money.book.certs_of(player)}
    for sym in [s for s in money.operating_order() if s in held]:
        sales = [s for s in _legal_sales(money, depot, player, company) if s[0] == sym]
        if not sales:
            continue
        _, ids, percent = max(sales, key=lambda s: money.cert_price(s[0], s[2]))
        book, cash, moved = S.sell(money.book, money.cash, player, ids, percent, money.price_of(sym),
                                   money.presidents(sym), money.pool_limit(sym))
        money = msgspec.structs.replace(money, book=book, cash=cash).move_price(sym, "down", moved)
    money = msgspec.structs.replace(money, cash=S.pay(money.cash, player, company, money.cash[player]),
                                    bankrupt=[*money.bankrupt, player])
    for sym, corp in money.corps.items():
        if corp.ipoed and not corp.closed and money.book.president_of(sym) == player:
            money, depot = O.close_company(money, depot, sym)
    return money, depot
