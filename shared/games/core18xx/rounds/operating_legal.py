"""Legal actions of the operating round's money steps, in the contract's families:
issue or redeem one share, pay out or withhold, buy a private, buy trains (with trade-ins and
the forced purchase), the president's emergency sales, bankruptcy. The board steps (track, token,
routes) list their own.

Each function answers for the company `corp` whose turn it is; what it returns agrees with the
money functions that apply them (`operating`, `emergency`).
"""

from __future__ import annotations

from typing import Any

from shared.engine import AmountRange, LegalAction
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import emergency as E
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState


def _corp(corp: str) -> dict[str, Any]:
    return {"entity": corp, "entity_type": "corporation"}


def issue_redeem(money: MoneyState, corp: str) -> list[LegalAction]:
    """An IssueShares step: one share out of the treasury, or one back from the pool."""
    out: list[LegalAction] = []
    if O.can_issue(money, corp):
        cert = next(c for c in money.book.certs_of(corp, corp) if not c.president)
        out.append(LegalAction(action=A.SellShares(**_corp(corp), shares=[cert.id], percent=cert.percent)))
    if O.can_redeem(money, corp):
        cert = money.book.certs_of(S.POOL, corp)[0]
        out.append(LegalAction(action=A.BuyShares(**_corp(corp), shares=[cert.id], percent=cert.percent)))
    return out


def dividend(corp: str, revenue: int) -> list[LegalAction]:
    if revenue <= 0:
        return []          # nothing earned: withheld automatically
    return [LegalAction(action=A.Dividend(**_corp(corp), kind=kind)) for kind in ("payout", "withhold")]


def buy_company(money: MoneyState, corp: str, values: dict[str, int], phase_status: list[str]) -> list[LegalAction]:
    """Companies may buy players' privates in phases with `can_buy_companies`, for half to double
    the face value, within their cash; never the title's `unbuyable_companies`."""
    if "can_buy_companies" not in phase_status:
        return []
    out: list[LegalAction] = []
    unbuyable = money.rules.unbuyable_companies
    for company, owner in money.companies.items():
        if owner not in money.players or company in unbuyable:
            continue
        low, high = O.company_price_range(values[company])
        high = min(high, money.cash[corp])
        if high >= low:
            out.append(LegalAction(action=A.BuyCompany(**_corp(corp), company=company, price=low),
                                   range=AmountRange(field="price", min=low, max=high)))
    return out


def buy_train(money: MoneyState, depot: T.Depot, step: E.TrainBuy, phase_allows_trade: bool,
              has_route: bool = True) -> list[LegalAction]:
    corp = step.company
    out: list[LegalAction] = []
    must = E.must_buy(money, depot, corp, has_route)
    president_cash = money.cash[money.book.president_of(corp)]
    buyable = E.buyable_trains(money, depot, step)
    stuck = E.stuck_trains(money, depot, step) if step.last_share_sold_price is not None else []
    for train in buyable:
        price = depot.types[train.name].price
        if train.owner in (T.DEPOT, T.POOL):
            reach = money.cash[corp] + (president_cash if must else 0)
            if price <= reach and (price >= E.spend_range(money, depot, step, train)[0] or train in stuck):
                out.append(LegalAction(action=A.BuyTrain(**_corp(corp), train=train.id, price=price, variant=train.name)))
        else:
            low, high = E.spend_range(money, depot, step, train)
            if not must:
                high = min(high, money.cash[corp])
            if high >= low:
                out.append(LegalAction(action=A.BuyTrain(**_corp(corp), train=train.id, price=low),
                                       range=AmountRange(field="price", min=low, max=high)))
    return out + trade_ins(money, depot, step, phase_allows_trade)


def trade_ins(money: MoneyState, depot: T.Depot, step: E.TrainBuy, phase_allows_trade: bool) -> list[LegalAction]:
    """The purchases that hand in one of the company's trains (buy_train's with `exchange`)."""
    corp = step.company
    out: list[LegalAction] = []
    if phase_allows_trade and not step.exchanged:      # a trade-in needs no free slot
        for train in depot.offered():
            discounts = depot.types[train.name].discount
            for own in depot.owned_by(corp):
                if own.name in discounts:
                    price = depot.price_for(train, own)
                    if price <= money.cash[corp]:
                        out.append(LegalAction(action=A.BuyTrain(**_corp(corp), train=train.id, price=price,
                                                                 variant=train.name, exchange=own.id)))
    return out


def emergency(money: MoneyState, depot: T.Depot, step: E.TrainBuy, has_route: bool = True) -> list[LegalAction]:
    """The president's sales toward a forced train, and bankruptcy when nothing can reach it."""
    out: list[LegalAction] = []
    if E.must_buy(money, depot, step.company, has_route):
        president = money.book.president_of(step.company)
        for _sym, ids, percent in E.emergency_bundles(money, depot, step):
            out.append(LegalAction(action=A.SellShares(entity=president, entity_type="player", shares=ids, percent=percent)))
        if E.can_go_bankrupt(money, depot, step):
            out.append(LegalAction(action=A.Bankrupt(**_corp(step.company))))
    return out


def discard(money: MoneyState, depot: T.Depot, corp: str) -> list[LegalAction]:
    """A company over its train limit (after a phase change or a merger) hands one train to the
    bank pool, its choice; repeated until within the limit."""
    if depot.count_owned(corp) <= depot.train_limit(money.corps[corp].type):
        return []
    return [LegalAction(action=A.DiscardTrain(**_corp(corp), train=t.id)) for t in depot.owned_by(corp)]
