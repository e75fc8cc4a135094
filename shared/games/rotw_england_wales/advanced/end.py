"""Final money (seed III.3 'Konec hry'): cash + each share at its price less one per unpaid
bond of its company (never below 0). Rank 1 has the most money; ties share a rank."""

from __future__ import annotations

from typing import Any

from ..compat import Result
from ..state import OVER, State
from .shares import adv


def share_value(s: State, ci: int) -> int:
    c = adv(s).companies[ci]
    return max(0, c.price - c.bonds) * 1000


def breakdown(s: State) -> list[dict[str, Any]]:
    a = adv(s)
    rows = []
    for seat, p in enumerate(s.players):
        shares = {c.id: c.held[seat] * share_value(s, ci) for ci, c in enumerate(a.companies) if c.held[seat]}
        rows.append({"cash": p.cash, "shares": shares, "total": p.cash + sum(shares.values())})
    return rows


def result(s: State) -> Result | None:
    if s.phase != OVER:
        return None
    scores = [r["total"] for r in breakdown(s)]
    ranks = [1 + sum(1 for o in scores if o > k) for k in scores]
    return Result(scores=scores, ranks=ranks, winners=[i for i, r in enumerate(ranks) if r == 1],
                  reason=s.end_reason)
