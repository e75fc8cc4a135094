"""Best routes for all of a corporation's trains together.

1. Enumerate every legal single route in the corporation's network (depth-first from each
   stop it reaches, over the running gauge, never reusing an edge or a stop, passing only
   through towns and cities not blocked by other companies' tokens), each with its stops,
   track mask (bits per hex edge), length and revenue.
2. Choose one route per train, pairwise track-disjoint, maximising the total (plus a bonus
   shared by at most one route, e.g. 18Ireland's River Shannon), by branch and bound over
   routes sorted by revenue. Identical trains take routes in index order (no symmetric repeats).
The answer is exact when enumeration finished inside `limit` routes (`BestRoutes.exact`).
"""

from __future__ import annotations

import msgspec

from . import hexgrid, network
from .board import BoardState, linked, tile_at
from .mapdef import MapDef
from .routes import (
    RouteContext,
    RouteResult,
    RunGraph,
    Train,
    linked_city_bonus,
    route_bonus,
    run_graph,
    signature,
    stop_value,
)
from .tiles import NODE


class Candidate(msgspec.Struct, frozen=True):
    stops: tuple[tuple[str, int], ...]
    connections: tuple[tuple[str, ...], ...]
    mask: int
    distance: int  # hex edges crossed
    length: int  # the train length this route needs (edges for H trains, stops for N trains)
    revenue: int
    link_bonus: int = 0


class BestRoutes(msgspec.Struct, frozen=True):
    routes: list[RouteResult]
    total: int
    exact: bool
    candidates: int


def enumerate_routes(m: MapDef, b: BoardState, ctx: RouteContext, max_length: int,
                     limit: int = 500_000) -> tuple[list[Candidate], bool]:
    """All legal single routes up to `max_length`; (routes, complete)."""
    g = run_graph(m, b, ctx.rules.gauge)
    reach = network.broad(m, b, ctx.corp)
    tokens = set(network.token_nodes(m, b, ctx.corp))
    if not tokens:
        return [], True
    hexes_mode = ctx.rules.distance == "hexes"
    values: dict[tuple[str, int], int] = {}
    passable: dict[tuple[str, int], bool] = {}
    stops_all = []
    for ref in reach.nodes:
        node = g.tiles[ref[0]].tile.nodes[ref[1]] if ref[0] in g.tiles else None
        if node is None or not node.is_stop:
            continue
        stops_all.append(ref)
        values[ref] = stop_value(m, b, ctx, ref)
        passable[ref] = node.kind != "offboard" and not network.blocks(m, b, ref[0], ref[1], ctx.corp)
    links: dict[tuple[str, int], int] = {}
    if ctx.linked_cities:
        for ref in stops_all:
            links[ref] = linked_city_bonus(m, b, ctx, [ref])
    out: list[Candidate] = []
    seen: set[tuple[int, frozenset]] = set()
    complete = True
    order = m.order

    def record(stops: list, conns: list, mask: int, dist: int) -> None:
        nonlocal complete
        if len(stops) < 2 or not (tokens & set(stops)):
            return
        if (order[stops[0][0]], stops[0][1]) > (order[stops[-1][0]], stops[-1][1]):
            return  # the same route is recorded from its other end
        length = dist if hexes_mode else len(stops)
        if length > max_length:
            return
        key = (mask, frozenset(stops))
        if key in seen:
            return
        seen.add(key)
        rev = sum(values[s] for s in stops) + route_bonus(ctx, stops)
        lb = max((links.get(s, 0) for s in stops), default=0)
        out.append(Candidate(tuple(stops), tuple(tuple(c) for c in conns), mask, dist, length, rev, lb))
        if len(out) >= limit:
            complete = False

    def arrive(ref, stops, conns, mask, dist, trail) -> None:
        if not complete or ref in stops or ref not in values:
            return
        stops2 = stops + [ref]
        conns2 = conns + [trail]
        record(stops2, conns2, mask, dist)
        if not hexes_mode and len(stops2) >= max_length:
            return
        if passable[ref]:
            leave(ref, stops2, conns2, mask, dist)

    def along(coord: str, pi: int, entry: int | None, stops, conns, mask, dist, trail, junction_used) -> None:
        """Follow path `pi` of `coord` entered at `entry` (None: from the stop it starts at)."""
        t = g.tiles[coord]
        p = t.paths[pi]
        keys = 0
        for e in (p.a, p.b):
            if e < NODE:
                keys |= g.key(coord, e)
        if keys & mask:
            return
        mask |= keys
        start = NODE + stops[-1][1] if entry is None else entry
        far = p.b if p.a == start else p.a
        if far >= NODE:
            node = t.tile.nodes[far - NODE]
            if node.kind == "junction":
                if junction_used:
                    return
                for qj, q in enumerate(t.paths):
                    if qj == pi or far not in (q.a, q.b) or qj not in g.ports.get((coord, q.a if q.a < NODE else q.b), []):
                        continue
                    out_edge = q.a if q.b == far else q.b
                    if out_edge >= NODE:
                        continue
                    k2 = g.key(coord, out_edge)
                    if k2 & mask:
                        continue
                    cross(coord, out_edge, stops, conns, mask | k2, dist, trail, True)
                return
            if entry is None:
                # an in-hex path from one stop to another
                k2 = g.node_path_key(coord, pi)
                if k2 & mask:
                    return
                arrive((coord, far - NODE), stops, conns, mask | k2, dist, trail)
                return
            arrive((coord, far - NODE), stops, conns, mask, dist, trail)
            return
        cross(coord, far, stops, conns, mask, dist, trail, junction_used)

    def cross(coord: str, edge: int, stops, conns, mask, dist, trail, junction_used) -> None:
        other = linked(m, b, coord, edge)
        if other is None or other not in g.tiles:
            return
        if hexes_mode and dist + 1 > max_length:
            return
        back = hexgrid.invert(edge)
        for qi in g.ports.get((other, back), ()):
            along(other, qi, back, stops, conns, mask, dist + 1, trail + [other], junction_used)

    def leave(ref, stops, conns, mask, dist) -> None:
        coord = ref[0]
        for pi in g.node_paths.get(ref, ()):
            along(coord, pi, None, stops, conns, mask, dist, [coord], False)

    for ref in sorted(stops_all, key=lambda r: (order[r[0]], r[1])):
        if not passable[ref] and ref not in tokens:
            # a route may start at a blocked city or offboard: walk out of it once
            pass
        leave(ref, [ref], [], 0, 0)
        if not complete:
            break
    return out, complete


def best_routes(m: MapDef, b: BoardState, ctx: RouteContext, trains: list[Train],
                limit: int = 500_000) -> BestRoutes:
    """The best set of routes, one per train at most (a train may stay idle)."""
    if not trains:
        return BestRoutes([], 0, True, 0)
    order = sorted(range(len(trains)), key=lambda i: -trains[i].distance)
    ts = [trains[i] for i in order]
    cands, complete = enumerate_routes(m, b, ctx, ts[0].distance, limit)
    cands.sort(key=lambda c: -c.revenue)
    n = len(ts)
    top = []
    for t in ts:
        top.append(next((c.revenue for c in cands if c.length <= t.distance), 0))
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + top[i]
    max_link = max((c.link_bonus for c in cands), default=0)
    best_total = -1
    best_pick: list[int | None] = [None] * n
    pick: list[int | None] = [None] * n

    def rec(i: int, used: int, total: int, link: int, start: int) -> None:
        nonlocal best_total, best_pick
        if i == n:
            if total + link > best_total:
                best_total = total + link
                best_pick = list(pick)
            return
        same_as_prev = i > 0 and ts[i].distance == ts[i - 1].distance
        lo = start if same_as_prev else 0
        d = ts[i].distance
        for k in range(lo, len(cands)):
            c = cands[k]
            if total + c.revenue + suffix[i + 1] + max(link, max_link) <= best_total:
                break
            if c.length > d or c.mask & used:
                continue
            pick[i] = k
            rec(i + 1, used | c.mask, total + c.revenue, max(link, c.link_bonus), k + 1)
        pick[i] = None
        if total + suffix[i + 1] + max(link, max_link) > best_total:
            rec(i + 1, used, total, link, len(cands) if same_as_prev else 0)

    rec(0, 0, 0, 0, 0)
    g: RunGraph = run_graph(m, b, ctx.rules.gauge)
    results: list[RouteResult] = []
    chosen = [(ts[i], cands[k]) for i, k in enumerate(best_pick) if k is not None]
    bonus_at = max(range(len(chosen)), key=lambda j: chosen[j][1].link_bonus, default=None)
    for j, (t, c) in enumerate(chosen):
        rev = c.revenue + (c.link_bonus if j == bonus_at else 0)
        results.append(RouteResult(t.name, tuple(signature(g, s) for s in c.stops), c.connections, c.distance, rev))
    return BestRoutes(results, max(best_total, 0), complete, len(cands))
