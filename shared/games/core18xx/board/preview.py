"""What a run of trains would earn, before it is sent (the engine contract's optional `preview`),
for any 18xx title: each route's revenue as the title's rules count it, or the first route the
rules refuse and why, without changing anything. The verdict is the title's `apply` (the same
turn, step and route checks), so a preview that says `legal` is an action that applies.
Everything a run reads is public (the board, the company's trains), so every seat's preview of
a run is the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board.state import BoardError

# (routes so far) -> (their results, the total): the title's route rules on its state
Runner = Callable[[list[R.RouteSpec]], tuple[list[R.RouteResult], int]]


def run_preview(title: str, apply: Callable[[Any, int, Any], Any], state: Any, seat: int, action: Any,
                running: str | None, run: Runner) -> dict[str, Any]:
    """`running`: the corporation whose run is due now (None: no run is due)."""
    if not isinstance(action, A.RunRoutes):
        raise RuleError("no_preview", f"{title} previews a run of trains (run_routes) only")
    out: dict[str, Any] = {"legal": True, "error": None, "part": None, "routes": [], "total": 0}
    try:
        apply(state, seat, action)
    except RuleError as exc:
        out.update(legal=False, error={"code": exc.code, "message": exc.message})
    if running is None or running != action.entity:
        return out  # not this company's run now: apply's refusal says so
    specs: list[R.RouteSpec] = []
    for k, r in enumerate(action.routes):
        if not r.connections:
            # the same refusal as apply's, for the route it concerns
            out.update(part=k, error={"code": "bad_routes", "message": f"the route of {r.train} names no track"})
            break
        specs.append(R.RouteSpec(r.train, r.connections, r.nodes or []))
        try:
            results, total = run(specs)
        except BoardError as exc:
            # Routes are checked in order, each against the track of those before it, so the
            # first prefix refused names the route at fault.
            out.update(part=k, error={"code": exc.code, "message": exc.message})
            break
        out.update(total=total, routes=[{"train": x.train, "stops": list(x.stops), "distance": x.distance,
                                         "revenue": x.revenue} for x in results])
    return out
