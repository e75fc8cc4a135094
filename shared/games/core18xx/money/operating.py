"""Money in the operating round, outside train buying: private revenue, dividends, issuing and
redeeming, buying a private, token costs, closing a company; and the end-of-game checks and score.

Facts (18xx.games `game/base.rb`, `step/dividend.rb`, `step/buy_company.rb`, `bank.rb`,
`player.rb`; what titles change is `MoneyState.rules`, see `rules.py`):
- Private revenue is paid by the bank at the start of each operating round, players' privates
  in player order first, then companies' (ties by revenue, then name).
- The bank may run dry: payments still happen, the bank goes negative and is "broken", which
  ends the game after the current set of operating rounds. A price reaching the end-game
  cell ends it after the current round; a bankruptcy ends it at once, or (`bankruptcy_ends`
  "all_but_one") when all but one player are bankrupt.
- A company buys a private from a player for between half (rounded up) and double its value.
- A player's score is cash + held shares of started companies at the current price (per ordinary
  share) + privates at face value.
- Closing a company: its cash goes to the bank, its trains leave play (18xx.games'
  CLOSED_CORP_TRAINS_REMOVED), its privates close, its shares vanish; with
  `bankrupt_close_pays_holders` each non-bankrupt holder is first paid the share price per share
  when the company closes because its president went bankrupt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

from shared.engine import RuleError
from shared.games.core18xx.money import dividends as D
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState


def _bank_pays(money: MoneyState, to: str, amount: int) -> MoneyState:
    return _bank_pays_all(money, [(to, amount)])


def _bank_pays_all(money: MoneyState, payments: Sequence[tuple[str, int]]) -> MoneyState:
    """`_bank_pays` of each (holder, amount) in turn, with one copy of the cash."""
    if not payments:
        return money
    cash = dict(money.cash)
    for to, amount in payments:
        cash[S.BANK] = cash.get(S.BANK, 0) - amount
        cash[to] = cash.get(to, 0) + amount
    return msgspec.structs.replace(money, cash=cash)


def bank_broken(money: MoneyState) -> bool:
    return money.bank_broke or money.cash.get(S.BANK, 0) < 0


def pay_private_revenue(money: MoneyState, revenue: dict[str, int], names: dict[str, str] | None = None) -> MoneyState:
    """Each owned private pays its revenue to its owner (player or company)."""
    names = names or {}
    owned = [(c, o) for c, o in money.companies.items() if revenue.get(c, 0) > 0]

    def order(item: tuple[str, str]) -> tuple[int, int, str, int, str]:
        company, owner = item
        if owner in money.players:
            return (0, money.players.index(owner), "", revenue[company], names.get(company, company))
        return (1, 0, owner, revenue[company], names.get(company, company))
    return _bank_pays_all(money, [(owner, revenue[company]) for company, owner in sorted(owned, key=order)])


def run_dividend(money: MoneyState, sym: str, revenue: int, kind: D.Kind) -> tuple[MoneyState, D.Payout]:
    """Pay out or withhold `revenue` for company `sym`, then move its price (`rules.price_moves`)."""
    if kind not in ("payout", "withhold"):
        raise RuleError("bad_dividend", f"unknown dividend kind {kind!r}")
    corp = money.corps[sym]
    holdings = money.book.holders(sym)
    payout = D.pay(sym, revenue, kind, {h: p for h, p in holdings.items()}, money.book.normal_percent(sym),
                   money.price_of(sym), corp.type == "minor",
                   bankrupt=frozenset(money.bankrupt) if money.rules.bankrupt_paid_nothing else frozenset(),
                   moves=money.rules.price_moves)
    paid = [(sym, payout.to_company)] if payout.to_company else []
    money = _bank_pays_all(money, [*paid, *payout.to_holders.items()])
    if payout.move is not None:
        money = money.move_price(sym, payout.move, payout.times)
    return money, payout


def issue_one(money: MoneyState, sym: str) -> MoneyState:
    """Sell one treasury share to the pool at the market price; the price drops a row."""
    book, cash = S.issue_one(money.book, money.cash, sym, money.price_of(sym), money.pool_limit(sym))
    return msgspec.structs.replace(money, book=book, cash=cash).move_price(sym, "down", 1)


def redeem_one(money: MoneyState, sym: str) -> MoneyState:
    """Buy one share back from the pool at the market price (no price move)."""
    book, cash = S.redeem_one(money.book, money.cash, sym, money.price_of(sym))
    return msgspec.structs.replace(money, book=book, cash=cash)


def can_issue(money: MoneyState, sym: str) -> bool:
    treasury = [c for c in money.book.certs_of(sym, sym) if not c.president]
    if not treasury:
        return False
    percent = min(c.percent for c in treasury)
    return money.book.percent_of(S.POOL, sym) + percent <= money.pool_limit(sym)


def can_redeem(money: MoneyState, sym: str) -> bool:
    pooled = money.book.certs_of(S.POOL, sym)
    return bool(pooled) and money.cash[sym] >= money.cert_price(sym, min(c.percent for c in pooled))


def company_price_range(value: int) -> tuple[int, int]:
    return math.ceil(value / 2), value * 2


def buy_company(money: MoneyState, buyer: str, company: str, price: int, value: int) -> MoneyState:
    owner = money.companies.get(company)
    if owner is None:
        raise RuleError("not_owned", f"{company} is not for sale")
    if owner == buyer:
        raise RuleError("own_company", f"{buyer} already owns {company}")
    low, high = company_price_range(value)
    if not low <= price <= high:
        raise RuleError("bad_price", f"{company} sells for {low} to {high}")
    cash = S.pay(money.cash, buyer, owner, price)
    companies = dict(money.companies)
    companies[company] = buyer
    return msgspec.structs.replace(money, cash=cash, companies=companies)


def close_private(money: MoneyState, company: str) -> MoneyState:
    companies = {c: o for c, o in money.companies.items() if c != company}
    return msgspec.structs.replace(money, companies=companies)


def token_cost(token_prices: Sequence[int], placed: int) -> int:
    """Price of the next token (the first is the home token)."""
    if placed >= len(token_prices):
        raise RuleError("no_tokens", "no token left")
    return token_prices[placed]


def close_company(money: MoneyState, depot: T.Depot, sym: str, trains_removed: bool = True) -> tuple[MoneyState, T.Depot]:
    corp = money.corps[sym]
    if corp.closed:
        return money, depot
    president = money.book.president_of(sym) if corp.ipoed else None
    if money.rules.bankrupt_close_pays_holders and president in money.bankrupt and corp.price is not None:
        per_share = money.price_of(sym)
        if per_share > 0:
            normal = money.book.normal_percent(sym)
            # every holder but the pool, the company itself and bankrupt players, in seat order
            # for players, then corporations holding shares
            for holder in money.presidents(sym):
                if holder in money.bankrupt:
                    continue
                amount = int(money.book.percent_of(holder, sym) / normal * per_share)
                if amount > 0:
                    money = _bank_pays(money, holder, amount)
    cash = dict(money.cash)
    # a bank the company's last payment broke (a withheld dividend moving it to the closing
    # cell) stays broken when the company's cash comes back to it
    broke = bank_broken(money)
    cash[S.BANK] = cash.get(S.BANK, 0) + cash.get(sym, 0)
    cash[sym] = 0
    for train in depot.owned_by(sym):
        if trains_removed:
            # 18xx.games' default: the trains stay with the closed company, unbuyable (they still
            # rust with their type, and still release reserved trains)
            depot = msgspec.structs.replace(depot, trains={**depot.trains, train.id: msgspec.structs.replace(
                train, owner=f"closed:{sym}")})
        else:
            depot = msgspec.structs.replace(depot, trains={**depot.trains, train.id: msgspec.structs.replace(
                train, owner=T.POOL)}, pool=[*depot.pool, train.id])
    companies = {c: o for c, o in money.companies.items() if o != sym}
    book = money.book.moved([cid for cid, c in money.book.certs.items() if c.corporation == sym], f"closed:{sym}")
    corps = dict(money.corps)
    corps[sym] = msgspec.structs.replace(corp, closed=True)
    tokens = {s: t for s, t in money.tokens.items() if s != sym}
    money = msgspec.structs.replace(money, cash=cash, companies=companies, corps=corps, tokens=tokens, book=book,
                                    bank_broke=broke)
    return money, depot


def player_value(money: MoneyState, player: str, company_values: dict[str, int]) -> int:
    value = money.cash.get(player, 0)
    for cert in money.book.certs_of(player):
        corp = money.corps[cert.corporation]
        if corp.ipoed and not corp.closed:
            value += money.cert_price(cert.corporation, cert.percent)
    value += sum(company_values.get(c, 0) for c, o in money.companies.items() if o == player)
    return value


def end_reason(money: MoneyState) -> tuple[str, str] | None:
    """(reason, when) of the first end trigger met: ("bankrupt", "immediate"),
    ("stock_market", "current_round") or ("bank", "full_or"), in 18xx.games' check order."""
    bankruptcy_all_but_one = money.rules.bankruptcy_ends == "all_but_one"
    # (asked after every decision: the players still in are counted only once one is out)
    bankrupt = money.bankrupt
    live = sum(1 for p in money.players if p not in bankrupt) if bankrupt else len(money.players)
    if (bankruptcy_all_but_one and live == 1) or (not bankruptcy_all_but_one and bankrupt):
        return ("bankrupt", "immediate")
    if money.max_reached:
        return ("stock_market", "current_round")
    if bank_broken(money):
        return ("bank", "full_or")
    return None
