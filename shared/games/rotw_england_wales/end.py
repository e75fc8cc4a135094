"""The end of the game and final scoring (README 'Scoring').

Score = income/VP track position + 1 per completed link owned + cards and major lines won
+ the baron card if its condition is met - 1 per issued share. Ties: fewer shares issued
ranks higher (review, README); still tied -> shared rank.
"""

from __future__ import annotations

from typing import Any

from . import rules
from .board import get_board
from .compat import Result
from .goods import city_colour
from .majors import own_graph
from .state import OVER, State


def finish(s: State) -> None:
    s.phase = OVER
    s.log.append(f"game over: {s.end_reason}")


def baron_metric(s: State, seat: int, baron: dict) -> int:
    p = s.players[seat]
    kind = baron["kind"]
    if kind == "most_links":
        return sum(1 for link in s.links if link.complete and link.owner == seat)
    if kind == "highest_engine":
        return p.engine
    if kind == "most_cities":
        board = get_board(s.board)
        return sum(1 for h in own_graph(s, seat) if city_colour(s, board, h) is not None)
    if kind == "most_mountain_track":
        return p.mountain_tiles
    if kind == "most_major_lines":
        return sum(1 for who in s.majors.values() if who == seat)
    if kind == "most_deliveries":
        return p.delivered.get(baron["color"], 0)
    raise ValueError(f"unknown baron kind {kind}")


def _baron(baron_id: str) -> dict:
    return next(b for b in rules.card_data()["barons"] if b["id"] == baron_id)


def baron_met(s: State, seat: int, baron_id: str) -> bool:
    baron = _baron(baron_id)
    mine = baron_metric(s, seat, baron)
    return mine > 0 and all(mine >= baron_metric(s, q, baron) for q in range(len(s.players)))


def baron_standing(s: State, seat: int) -> dict[str, Any] | None:
    """The seat's baron judged as the final score judges it: what it counts for this seat,
    the best any other seat reached, and whether it scores. Reveals the baron: for the end only."""
    p = s.players[seat]
    if not p.baron:
        return None
    baron = _baron(p.baron)
    counts = [baron_metric(s, q, baron) for q in range(len(s.players))]
    others = [c for q, c in enumerate(counts) if q != seat]
    return {"id": p.baron, "met": baron_met(s, seat, p.baron), "count": counts[seat],
            "best_other": max(others, default=0), "vp": baron["vp"]}


def breakdown(s: State) -> list[dict[str, Any]]:
    out = []
    barons = {b["id"]: b for b in rules.card_data()["barons"]}
    for seat, p in enumerate(s.players):
        links = sum(1 for link in s.links if link.complete and link.owner == seat) * rules.LINK_VP
        cards = sum(int(vp) for _, vp in p.bonus)
        baron = barons[p.baron]["vp"] if p.baron and baron_met(s, seat, p.baron) else 0
        total = p.vp + links + cards + baron - p.shares
        out.append({"track": p.vp, "links": links, "cards": cards, "baron": baron,
                    "shares": -p.shares, "total": total})
    return out


def result(s: State) -> Result | None:
    if s.phase != OVER:
        return None
    rows = breakdown(s)
    scores = [r["total"] for r in rows]
    key = [(r["total"], -s.players[i].shares) for i, r in enumerate(rows)]
    ranks = [1 + sum(1 for other in key if other > k) for k in key]
    winners = [i for i, r in enumerate(ranks) if r == 1]
    return Result(scores=scores, ranks=ranks, winners=winners, reason=s.end_reason)
