"""1841's routes: what a train may run and what it earns, and the best routes of a corporation.

18xx.games (`game_trains`, `game_route_revenue`, `REAL_PHASE_TO_REV_PHASE`, `check_other`,
`check_overlap`, Route, facts; own code):
- a train counts cities, off-boards and passes up to its number and runs through any number of
  towns (ports among them) free; the 8-train runs passes free too;
- a pass pays nothing; a port pays its value; off-boards pay by the revenue phase: "white" in
  phases 2-3, "gray" in 4-5, "black" in 6-8 (not the tile colours);
- a route needs two stops that are neither passes nor ports, and a station of the company
  among its stops (a station on a pass counts);
- while Milano (F8) is yellow only one of a company's routes may visit it;
- the core's rules for the rest (connected track, no stop twice, no track shared by the
  company's trains, never through a city full of others' tokens nor through an off-board).
Province borders do not stop trains: 18xx.games' route check reads no border (its auto-router
walks the region graph in phase 2; we search the plain board, every route found is legal).
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.games.core18xx.board import autoroute
from shared.games.core18xx.board import routes as core
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.state import BoardError, BoardState, tile_at
from shared.games.g1841 import data
from shared.games.g1841.board import regions

REV_COLORS = ("white", "gray", "black")
# 18xx.games' node types in train distances -> our stop kinds (a port is a town there)
KINDS = {"city": ("city",), "offboard": ("offboard",), "pass": ("pass",), "town": ("town", "port")}
NEVER = ("pass", "port")


def revenue_colors(variant: str, phase: int | str) -> tuple[str, ...]:
    """The off-board colours read in `phase` (its revenue phase and those before it)."""
    table = data.entities(variant)["offboard_revenue_phase"]
    color = table[str(regions.phase_number(phase))]
    return REV_COLORS[: REV_COLORS.index(color) + 1]


def train(variant: str, name: str, ident: str | None = None) -> core.Train:
    """The core's train for 1841 train type `name` ("2".."8"), labelled `ident` ("2-0")."""
    spec = next((t for t in data.entities(variant)["trains"] if t["name"] == str(name)), None)
    if spec is None:
        raise BoardError("no_such_train", f"1841 has no {name}-train")
    counted = [d for d in spec["distance"] if int(d["pay"]) < 99]
    free = [k for d in spec["distance"] if int(d["pay"]) >= 99 for node in d["nodes"] for k in KINDS[node]]
    return core.Train(ident or str(name), sum(int(d["pay"]) for d in counted), tuple(sorted(free)))


def milano_yellow(m: MapDef, b: BoardState, variant: str) -> bool:
    milano = data.map_data(variant)["milano"]
    return milano in m.hexes and tile_at(m, b, milano).tile.color == "yellow"


def context(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str) -> core.RouteContext:
    """The core's route context for `corp` now."""
    kinds = tuple(sorted([(h, "pass") for h in data.passes(variant)] + [(h, "port") for h in data.ports(variant)]))
    exclusive = (data.map_data(variant)["milano"],) if milano_yellow(m, b, variant) else ()
    return core.RouteContext(corp, revenue_colors(variant, phase), core.RouteRules("stops"),
                             stop_kinds=kinds, never_kinds=NEVER, exclusive_hexes=exclusive)


def run_routes(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str,
               trains: dict[str, str], specs: list[core.RouteSpec]) -> tuple[list[core.RouteResult], int]:
    """Check the company's routes together: `trains` maps each train id ("4-1") to its type
    ("4"); `specs` are the routes as 18xx.games exports them. (results, total) or BoardError."""
    board = regions.open_board(m, b)
    ctx = context(m, board, variant, phase, corp)
    return core.run_routes(m, board, ctx, {i: train(variant, t, i) for i, t in trains.items()}, specs)


def best_routes(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str,
                trains: Sequence[tuple[str, str]], limit: int = 500_000) -> autoroute.BestRoutes:
    """The best legal routes for the company's trains, given as (id, type) pairs."""
    board = regions.open_board(m, b)
    ctx = context(m, board, variant, phase, corp)
    return autoroute.best_routes(m, board, ctx, [train(variant, t, i) for i, t in trains], limit)


def has_route(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str,
              trains: Sequence[tuple[str, str]]) -> bool | None:
    """Whether `best_routes` finds some route for the trains, without the whole search (None:
    only that search can tell; see `autoroute.has_route`)."""
    board = regions.open_board(m, b)
    return autoroute.has_route(m, board, context(m, board, variant, phase, corp), [train(variant, t, i) for i, t in trains])
