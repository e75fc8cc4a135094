"""What a run of trains would earn, before it is sent (the engine contract's optional `preview`).

A player editing routes by hand sees each route's revenue as the rules count it, or the first
route the rules refuse and why, without changing anything. The verdict is `apply`'s own (the
same turn, step and route checks), so a preview that says `legal` is an action that applies.
Everything a run reads is public (the board, the company's trains), so every seat's preview
of a run is the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board.state import BoardError
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland.state import State


def preview(apply: Callable[[State, int, Any], State], state: State, seat: int, action: Any) -> dict[str, Any]:
    if not isinstance(action, A.RunRoutes):
        raise RuleError("no_preview", "18Ireland previews a run of trains (run_routes) only")
    out: dict[str, Any] = {"legal": True, "error": None, "part": None, "routes": [], "total": 0}
    try:
        apply(state, seat, action)
    except RuleError as exc:
        out.update(legal=False, error={"code": exc.code, "message": exc.message})
    op = state.operating
    turn = op.turn if op is not None else None
    if turn is None or turn.stage != "route" or turn.corp != action.entity:
        return out  # not this company's run now: apply's refusal says so
    specs: list[R.RouteSpec] = []
    for k, r in enumerate(action.routes):
        if not r.connections:
            # the same refusal as apply's, for the route it concerns
            out.update(part=k, error={"code": "bad_routes", "message": f"the route of {r.train} names no track"})
            break
        specs.append(R.RouteSpec(r.train, r.connections, r.nodes or []))
        try:
            results, total = BO.run(state, turn.corp, specs)
        except BoardError as exc:
            # Routes are checked in order, each against the track of those before it, so the
            # first prefix refused names the route at fault.
            out.update(part=k, error={"code": exc.code, "message": exc.message})
            break
        out.update(total=total, routes=[{"train": x.train, "stops": list(x.stops), "distance": x.distance,
                                         "revenue": x.revenue} for x in results])
    return out
