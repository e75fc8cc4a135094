"""1841's money side on the core: corporations, certificates, market, trains and phases from
`entities.json` (per data set), and the money rules 18xx.games' `g_1841/game.rb` sets.

- Incremental capitalization: unsold shares sit in the corporation's treasury and pay it
  dividends; buying one pays the corporation (`CAPITALIZATION = :incremental`).
- Any holder may preside (corporations own and found corporations): `presidents="holders"`,
  a corporation holds at most `MAX_CORPORATE_CERTS` = 5 certificates of others.
- Concessions do not count toward the certificate limit (`CERT_LIMIT_INCLUDES_PRIVATES = false`).
- After a run the price moves right only when the revenue exceeds the share price, left when
  nothing is paid (G1841 `Dividend#share_price_change`): done by the title (`price_after_run`),
  the core's move table is left empty.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.market import Market
from shared.games.core18xx.money.rules import MoneyRules, PriceMoves
from shared.games.core18xx.money.state import Corp, MoneyState
from shared.games.g1841 import data as D

replace = msgspec.structs.replace

RULES = MoneyRules(price_moves=PriceMoves(withheld=("left", 0), paid=()), bankruptcy_ends="all_but_one",
                   presidents="holders", corporate_cert_limit=5, companies_count_for_limit=False)
BAYARD = "Bayard"


class CorpInfo(msgspec.Struct, frozen=True):
    sym: str
    type: str
    historical: bool
    startable: bool
    homes: tuple[str, ...]


@cache
def corp_info(variant: str) -> dict[str, CorpInfo]:
    out = {}
    for c in D.entities(variant)["corporations"]:
        where = c.get("coordinates")
        homes = tuple(where) if isinstance(where, list) else ((where,) if where else ())
        out[c["sym"]] = CorpInfo(c["sym"], c["type"], bool(c.get("historical")), bool(c.get("startable")), homes)
    return out


@cache
def market(variant: str) -> Market:
    return Market.from_codes(D.entities(variant)["market"])


def concessions(variant: str) -> list[str]:
    return [c["sym"] for c in D.entities(variant)["companies"]]


def company_values(variant: str) -> dict[str, int]:
    return {c["sym"]: int(c["value"]) for c in D.entities(variant)["companies"]}


def company_revenue(variant: str) -> dict[str, int]:
    return {c["sym"]: int(c.get("revenue", 0)) for c in D.entities(variant)["companies"]}


def train_types(variant: str) -> list[T.TrainType]:
    out = []
    for t in D.entities(variant)["trains"]:
        out.append(T.TrainType(name=t["name"], distance=int(t["distance"][0]["pay"]), price=t["price"],
                               num=t.get("num"), rusts_on=t.get("rusts_on"),
                               events=[e["type"] for e in t.get("events", [])]))
    return out


def phases(variant: str) -> list[T.PhaseDef]:
    return [T.PhaseDef(name=p["name"], on=p.get("on"), train_limit=p["train_limit"], tiles=p["tiles"],
                       operating_rounds=p["operating_rounds"], status=p.get("status", []))
            for p in D.entities(variant)["phases"]]


def initial(players: list[str], variant: str) -> tuple[MoneyState, T.Depot]:
    ent = D.entities(variant)
    corps = ent["corporations"]
    book = S.new_book([(c["sym"], c["shares"]) for c in corps], treasury_holds=True)
    start = ent["starting_cash"][str(len(players))]
    cash: dict[str, Any] = {p: start for p in players}
    cash.update({c["sym"]: 0 for c in corps})
    cash[S.BANK] = ent["bank"] - start * len(players)
    money = MoneyState(
        players=list(players), cash=cash, book=book,
        corps={c["sym"]: Corp(c["sym"], c["type"], c["float_percent"], c["max_ownership_percent"]) for c in corps},
        market=market(variant), cert_limit=ent["cert_limit"][str(len(players))], rules=RULES,
        market_share_limit=50, minor_market_share_limit=50)
    return money, T.new_depot(train_types(variant), phases(variant))


def phase_number(depot: T.Depot) -> int:
    return int(depot.current_phase.name)


def price_after_run(money: MoneyState, sym: str, revenue: int, paid: bool, phase: int) -> MoneyState:
    """G1841 `Dividend#share_price_change` and `StockMarket#right`: nothing paid -> left; paid
    more than the share price -> right, which from a minor's maximum cell (and, before phase 8,
    from the 'n' cells) is up instead."""
    if not paid or revenue <= 0:
        return money.move_price(sym, "left")
    if revenue <= money.price_of(sym):
        return money
    return move_right(money, sym, phase)


def move_right(money: MoneyState, sym: str, phase: int) -> MoneyState:
    corp = money.corps[sym]
    if corp.price is None:
        return money
    kinds = money.market.at(corp.price).kinds
    if (corp.type == "minor" and "max_price" in kinds) or (phase < 8 and "max_price_1" in kinds):
        return money.move_price(sym, "up")
    return money.move_price(sym, "right")


def player_value(money: MoneyState, player: str, loans: dict[str, int], variant: str = "default") -> int:
    """Cash plus shares at market price plus the concessions he holds at their value, less
    bankruptcy loans (G1841 `player_value`: `Player#value` counts companies; concessions
    are held until the first 4-train closes them)."""
    value = money.cash[player] - loans.get(player, 0)
    values = company_values(variant)
    value += sum(values.get(c, 0) for c, owner in money.companies.items() if owner == player)
    for sym, certs in money.book.by_company(player).items():
        if sym in money.corps and money.corps[sym].ipoed and not money.corps[sym].closed:
            value += S.bundle_price(money.book, sym, sum(c.percent for c in certs), money.price_of(sym))
    return value
