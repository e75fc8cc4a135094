"""JSON view of the money side for seat views and the web page: the market with its markers,
players' cash, certificates and privates, companies' treasuries, trains and prices, the depot's
offer and the phase. 18xx money is open information: every seat sees the same."""

from __future__ import annotations

from typing import Any

from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState


def market_view(money: MoneyState) -> dict[str, Any]:
    rows = []
    for row in money.market.rows:
        rows.append([None if cell is None else {"price": cell.price, "kinds": list(cell.kinds)} for cell in row])
    markers: dict[str, list[str]] = {}
    for token in sorted(money.tokens.values(), key=lambda t: t.arrived):
        markers.setdefault(f"{token.coord[0]},{token.coord[1]}", []).append(token.corporation)
    return {"rows": rows, "markers": markers}


def player_view(money: MoneyState, player: str) -> dict[str, Any]:
    holdings: dict[str, int] = {}
    for cert in money.book.certs_of(player):
        holdings[cert.corporation] = holdings.get(cert.corporation, 0) + cert.percent
    return {
        "id": player,
        "cash": money.cash.get(player, 0),
        "shares": holdings,
        "presidencies": sorted(s for s, c in money.corps.items()
                               if c.ipoed and not c.closed and money.book.president_of(s) == player),
        "privates": sorted(c for c, o in money.companies.items() if o == player),
        "certificates": money.num_certs(player),
        "bankrupt": player in money.bankrupt,
    }


def company_view(money: MoneyState, depot: T.Depot, sym: str) -> dict[str, Any]:
    corp = money.corps[sym]
    out: dict[str, Any] = {"sym": sym, "type": corp.type, "started": corp.ipoed, "floated": corp.floated,
                           "closed": corp.closed}
    if corp.ipoed and not corp.closed:
        out.update({
            "cash": money.cash.get(sym, 0),
            "price": money.price_of(sym),
            "president": money.book.president_of(sym),
            "treasury_percent": money.book.percent_of(sym, sym),
            "pool_percent": money.book.percent_of(S.POOL, sym),
            "trains": [t.id for t in depot.owned_by(sym)],
            "train_limit": depot.train_limit(corp.type),
            "privates": sorted(c for c, o in money.companies.items() if o == sym),
        })
    return out


def depot_view(depot: T.Depot) -> dict[str, Any]:
    phase = depot.current_phase
    return {
        "phase": phase.name,
        "operating_rounds": phase.operating_rounds,
        "tiles": list(phase.tiles),
        "train_limits": dict(phase.train_limit),
        "offer": [{"id": t.id, "name": t.name, "price": depot.types[t.name].price,
                   "from": "pool" if t.owner == T.POOL else "depot"} for t in depot.offered()],
        "remaining": {name: sum(1 for tid in depot.upcoming if depot.trains[tid].name == name)
                      for name in dict.fromkeys(depot.trains[tid].name for tid in depot.upcoming)},
    }


def view(money: MoneyState, depot: T.Depot) -> dict[str, Any]:
    return {
        "bank": money.cash.get(S.BANK, 0),
        "cert_limit": money.cert_limit,
        "players": [player_view(money, p) for p in money.players],
        "companies": [company_view(money, depot, s) for s in money.corps],
        "operating_order": money.operating_order(),
        "market": market_view(money),
        "depot": depot_view(depot),
    }
