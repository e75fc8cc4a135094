"""What each action of the current turn would let its player do, and why not, for the view:
the rules allow choosing Build or Develop when nothing can be built or developed (the dial
moves, then the player forgoes), so a page must say so before the choice, from the same
functions the legal actions come from.
"""

from __future__ import annotations

from typing import Any

from .board import ACTIONS, BOARD
from .build import build_cost, free_frontier
from .develop import legal_develops
from .state import BUILD, CHOOSE, DEVELOP, N_COMPANIES, OFFER, State, holding

_TURN_PHASES = (CHOOSE, OFFER, BUILD, DEVELOP)


def _build_company(s: State, seat: int, c: int) -> dict[str, Any]:
    info, co = BOARD.companies[c], s.companies[c]
    free = free_frontier(s, c) if co.open else []
    costs = [build_cost(s, h) for h in free]
    hexes = sum(cost <= co.cash for cost in costs) if co.locos_left else 0
    why = None
    if not co.open:
        why = f"{info.short} has not opened yet"
    elif not co.locos_left:
        why = f"{info.short} has no locomotives left"
    elif not free:
        why = f"no hex next to the {info.short} railroad is free for it"
    elif hexes == 0:
        why = f"{info.short} has ${co.cash}; the cheapest hex next to its railroad costs ${min(costs)}"
    return {"company": info.id, "shares": holding(s, seat, c), "hexes": hexes, "why_not": why}


def _build(s: State, seat: int) -> dict[str, Any]:
    fixed = s.build.company if s.build is not None and s.build.company >= 0 else -1
    candidates = (fixed,) if fixed >= 0 else range(N_COMPANIES)
    companies = [_build_company(s, seat, c) for c in candidates if holding(s, seat, c)]
    why = None
    if not companies:
        why = "you hold no share of any company: only a shareholder can build a company's railroad"
    elif not any(c["hexes"] for c in companies):
        why = "; ".join(c["why_not"] for c in companies)
    return {"possible": why is None, "why_not": why, "companies": companies}


def _develop(s: State) -> dict[str, Any]:
    hexes = len(legal_develops(s))
    why = None
    if hexes == 0:
        why = (
            "no hex with a locomotive can be developed (plains, start hexes and Chicago never are; "
            "a hex takes one house"
            + (", and the supply has no houses left)" if s.houses_supply == 0 else ")")
        )
    return {"possible": hexes > 0, "why_not": why, "hexes": hexes}


def _auction(s: State) -> dict[str, Any]:
    companies = [BOARD.companies[c].id for c, co in enumerate(s.companies) if co.open and co.shares_left]
    why = None if companies else "no company has shares left"
    return {"possible": bool(companies), "why_not": why, "companies": companies}


def turn_options(s: State) -> dict[str, Any] | None:
    """For the player whose turn it is (choosing, or carrying out the choice): per action,
    whether it can do anything and, if not, why; None outside a turn (auctions, game over)."""
    if s.phase not in _TURN_PHASES:
        return None
    seat = s.current
    out: dict[str, Any] = {"seat": seat}
    for name in ACTIONS:
        out[name] = _auction(s) if name == "auction" else _build(s, seat) if name == "build" else _develop(s)
    return out
