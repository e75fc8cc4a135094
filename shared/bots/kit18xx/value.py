"""A position's worth to each player, for the search's leaves: the final score if the game
ended now (cash, shares at market, privates at face) plus the income still to come.

Income to come: each company's best run now (the core's exact route search), paid per share
to its holders, for as many operating rounds as the game probably has left. That horizon is
the bank's cash over what all companies earn in a round (the bank breaks when it runs out),
capped at `Params.horizon`. Privates' income is counted the same way.
"""

from __future__ import annotations

from typing import Any

from shared.bots.kits import chances_from_values

from .params import Params
from .title import Title18xx

# Values a few dozen pounds apart are near even chances; a lead of a tenth of the mean
# value is a clear favourite.
SPREAD = 0.1
MIN_SCALE = 30.0


def values(title: Title18xx, params: Params, state: Any) -> list[float]:
    money = title.money(state)
    players = title.players(state)
    runs: dict[str, int] = {}
    for sym, c in money.corps.items():
        if c.ipoed and not c.closed and c.floated:
            runs[sym] = title.revenue(state, sym)
    total = sum(runs.values()) + sum(title.company_revenue.get(c, 0) for c in money.companies)
    bank = max(money.cash.get("bank", 0), 0)
    horizon = min(params.horizon, bank / total) if total > 0 else params.horizon
    out = []
    for player in players:
        v = float(title.player_value(state, player))
        for sym, revenue in runs.items():
            pct = money.book.percent_of(player, sym)
            if pct:
                units = title.share_units[money.corps[sym].type]
                v += horizon * revenue * pct / (money.book.normal_percent(sym) * units)
        v += horizon * sum(title.company_revenue.get(c, 0) for c, o in money.companies.items() if o == player)
        out.append(v)
    return out


def win_chances(title: Title18xx, params: Params, state: Any) -> list[float]:
    vs = values(title, params, state)
    return chances_from_values(vs, max(MIN_SCALE, SPREAD * sum(vs) / len(vs)))
