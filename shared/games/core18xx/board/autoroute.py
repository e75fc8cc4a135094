"""Best routes for all of a corporation's trains together.

1. Enumerate every legal single route in the corporation's network (depth-first from each
   stop it reaches, over the running gauge, never reusing an edge or a stop, passing only
   through towns and cities not blocked by other companies' tokens), each with its stops,
   track mask (bits per hex edge), length and revenue.
2. Choose one route per train, pairwise track-disjoint, maximising the total (plus a bonus
   shared by at most one route, e.g. two linked cities), by branch and bound over
   routes sorted by revenue. Identical trains take routes in index order (no symmetric repeats).
The answer is exact when enumeration finished inside `limit` routes (`BestRoutes.exact`).
"""

from __future__ import annotations

import msgspec

from shared.games.core18xx.board import hexgrid, network
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.routes import (
    RouteContext,
    RouteResult,
    RouteSpec,
    RunGraph,
    Train,
    counted_stops,
    exclusive_touched,
    linked_city_bonus,
    required_stops,
    route_bonus,
    run_graph,
    signature,
    stop_kind,
    stop_value,
)
from shared.games.core18xx.board.state import BoardState, linked
from shared.games.core18xx.board.tiles import NODE, gauge_matches


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

    def specs(self) -> list[RouteSpec]:
        """The routes as `run_routes` (and an engine's run-routes action) takes them."""
        return [RouteSpec(r.train, [list(c) for c in r.connections], list(r.stops)) for r in self.routes]


class Segment(msgspec.Struct, frozen=True):
    """Track from one stop to the next without passing another node."""

    end: tuple[str, int]
    mask: int  # hex-edge (and in-hex node-to-node path) bits; junction tiles are limited by
    # their edges only, as 18xx.games' check_overlap does
    distance: int  # hex edges crossed
    trail: tuple[str, ...]  # hexes from the start stop's hex to the end stop's hex
    terminal_start: bool = False  # leaves its start by a terminal path: only a route's first segment
    terminal_end: bool = False  # arrives by a terminal path: the route ends there


def segments(m: MapDef, b: BoardState, g: RunGraph, start: tuple[str, int], max_distance: int) -> list[Segment]:
    """Every way track leads from stop `start` to a neighbouring stop."""
    out: list[Segment] = []

    def along(coord: str, pi: int, entry: int | None, mask: int, dist: int, trail: tuple,
              first: bool = False, term0: bool = False) -> None:
        t = g.tiles[coord]
        p = t.paths[pi]
        if first:
            term0 = p.terminal
        elif p.terminal and far_is_node(t, p, entry) is False:
            return  # a terminal path in the middle of the track
        keys = 0
        for e in (p.a, p.b):
            if e < NODE:
                keys |= g.key(coord, e)
        if keys & mask:
            return
        mask |= keys
        begin = NODE + start[1] if entry is None else entry
        far = p.b if p.a == begin else p.a
        if far < NODE:
            cross(coord, far, mask, dist, trail, term0)
            return
        node = t.tile.nodes[far - NODE]
        if node.kind != "junction":
            if entry is None:  # in-hex path from one stop to another
                mask |= g.node_path_key(coord, pi)
            out.append(Segment((coord, far - NODE), mask, dist, trail, term0, p.terminal and not first))
            return
        # through a junction: on along any other path of it (18xx.games checks routes by edges
        # only, so a junction tile may be crossed again through other edges)
        for qj, q in enumerate(t.paths):
            if qj == pi or far not in (q.a, q.b) or not gauge_matches(g.gauge, q.track):
                continue
            out_edge = q.a if q.b == far else q.b
            if out_edge >= NODE:
                continue
            k2 = g.key(coord, out_edge)
            if not k2 & mask:
                cross(coord, out_edge, mask | k2, dist, trail, term0)

    def far_is_node(t, p, entry) -> bool:
        far = p.b if p.a == entry else p.a
        return far >= NODE and t.tile.nodes[far - NODE].kind != "junction"

    def cross(coord: str, edge: int, mask: int, dist: int, trail: tuple, term0: bool = False) -> None:
        other = linked(m, b, coord, edge)
        if other is None or other not in g.tiles or dist + 1 > max_distance:
            return
        back = hexgrid.invert(edge)
        for qi in g.ports.get((other, back), ()):
            along(other, qi, back, mask, dist + 1, trail + (other,), False, term0)

    for pi in g.node_paths.get(start, ()):
        along(start[0], pi, None, 0, 0, (start[0],), True)
    return out


def enumerate_routes(m: MapDef, b: BoardState, ctx: RouteContext, max_length: int,
                     limit: int = 500_000, free: tuple[str, ...] = ()) -> tuple[list[Candidate], bool]:
    """All legal single routes up to `max_length`, stops of kinds in `free` not counted;
    (routes, complete). A route touching one of `ctx.exclusive_hexes` carries a mask bit of
    its own for it, so no two chosen routes touch the same one."""
    g = run_graph(m, b, ctx.rules.gauge)
    reach = network.broad(m, b, ctx.corp)
    tokens = set(network.token_nodes(m, b, ctx.corp))
    if not tokens:
        return [], True
    hexes_mode = ctx.rules.distance == "hexes"
    seg_limit = max_length if hexes_mode else 10**6
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
    groups = {ref: g.tiles[ref[0]].tile.nodes[ref[1]].groups for ref in stops_all}
    kinds = {ref: stop_kind(m, b, ctx, ref) for ref in stops_all}
    weight = {ref: 0 if kinds[ref] in free else 1 for ref in stops_all}
    # above every edge and in-hex path key (routes.RunGraph.key / node_path_key)
    exclusive_base = len(m.order) * 22
    exclusive_bit = {h: 1 << (exclusive_base + i) for i, h in enumerate(ctx.exclusive_hexes)}
    links: dict[tuple[str, int], int] = {}
    if ctx.linked_cities:
        for ref in stops_all:
            links[ref] = linked_city_bonus(m, b, ctx, [ref])
    segs = {ref: [x for x in segments(m, b, g, ref, seg_limit) if x.end in values] for ref in stops_all}
    out: list[Candidate] = []
    seen: set[tuple[int, frozenset]] = set()
    order = m.order
    rank = {ref: (order[ref[0]], ref[1]) for ref in stops_all}
    complete = True

    def walk(stops: list, trails: list, mask: int, dist: int, count: int) -> None:
        nonlocal complete
        here = stops[-1]
        for sg in segs[here]:
            if not complete:
                return
            if sg.mask & mask:
                continue
            if sg.terminal_start and len(stops) > 1:
                continue
            nxt = sg.end
            if nxt in stops:
                continue
            if groups[nxt] and any(gr in groups[s] for s in stops for gr in groups[nxt]):
                continue  # one stop per group (e.g. an offboard drawn over several hexes)
            d = dist + sg.distance
            if hexes_mode and d > max_length:
                continue
            stops2 = stops + [nxt]
            trails2 = trails + [sg.trail]
            m2 = mask | sg.mask
            count2 = count + weight[nxt]
            if ((count2 <= max_length or hexes_mode) and rank[stops2[0]] < rank[nxt] and tokens.intersection(stops2)
                    and (not ctx.never_kinds or required_stops([kinds[s] for s in stops2], ctx) >= 2)):
                key = (m2, frozenset(stops2))
                if key not in seen:
                    seen.add(key)
                    rev = sum(values[s] for s in stops2) + route_bonus(ctx, stops2)
                    lb = max((links.get(s, 0) for s in stops2), default=0)
                    cm = m2
                    for h in exclusive_touched(ctx, {x for t in trails2 for x in t}):
                        cm |= exclusive_bit[h]
                    out.append(Candidate(tuple(stops2), tuple(trails2), cm, d, d if hexes_mode else count2, rev, lb))
                    if len(out) >= limit:
                        complete = False
                        return
            # a route at its length may still go on to stops that do not count
            if passable[nxt] and not sg.terminal_end and (hexes_mode or count2 < max_length
                                                          or (free and count2 == max_length)):
                walk(stops2, trails2, m2, d, count2)

    for ref in sorted(stops_all, key=lambda r: rank[r]):
        walk([ref], [], 0, 0, weight[ref])
        if not complete:
            break
    return out, complete


def _longest_first(trains: list[Train]) -> list[Train]:
    return sorted(trains, key=lambda t: -t.distance)


def _free_stops(ctx: RouteContext, ts: list[Train]) -> tuple[str, ...]:
    """Stop kinds some train runs free (enumeration counts only the others)."""
    return tuple(sorted(set.union(*(set(t.free) for t in ts)))) if ctx.rules.distance == "stops" else ()


def has_route(m: MapDef, b: BoardState, ctx: RouteContext, trains: list[Train]) -> bool | None:
    """Whether `best_routes` gives some route, from the first legal route found (each one the
    enumeration yields fits the longest train when that train runs free every kind some train
    runs free, and the best set takes one that fits); None when only the whole search can tell."""
    if not trains:
        return False
    ts = _longest_first(trains)
    free = _free_stops(ctx, ts)
    if free and tuple(sorted(ts[0].free)) != free:
        return None
    cands, _ = enumerate_routes(m, b, ctx, ts[0].distance, 1, free)
    return bool(cands)


def best_routes(m: MapDef, b: BoardState, ctx: RouteContext, trains: list[Train],
                limit: int = 500_000, tries: int | None = None) -> BestRoutes:
    """The best set of routes, one per train at most (a train may stay idle). `tries` bounds
    the choice of one route per train (candidates looked at, over all trains): the search keeps
    the best set found when it runs out (`exact` False). None: no bound, the exact answer."""
    if not trains:
        return BestRoutes([], 0, True, 0)
    ts = _longest_first(trains)
    # enumerate once, counting only what no train runs free; each train then counts its own
    free = _free_stops(ctx, ts)
    cands, complete = enumerate_routes(m, b, ctx, ts[0].distance, limit, free)
    cands.sort(key=lambda c: -c.revenue)
    n = len(ts)
    kind_memo: dict[tuple[str, int], str] = {}

    def length(c: Candidate, t: Train) -> int:
        if not free or tuple(sorted(t.free)) == free:
            return c.length
        kinds = []
        for s in c.stops:
            if s not in kind_memo:
                kind_memo[s] = stop_kind(m, b, ctx, s)
            kinds.append(kind_memo[s])
        return counted_stops(kinds, t.free)

    fits = [[length(c, t) <= t.distance for c in cands] for t in ts]
    top = []
    for i in range(n):
        top.append(next((c.revenue for k, c in enumerate(cands) if fits[i][k]), 0))
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + top[i]
    max_link = max((c.link_bonus for c in cands), default=0)
    # per train: the candidates it can run, as parallel lists (index into `cands`), best first
    lists = []
    for i in range(n):
        idx = [k for k in range(len(cands)) if fits[i][k]]
        lists.append((idx, [cands[k].revenue for k in idx], [cands[k].mask for k in idx],
                      [cands[k].link_bonus for k in idx]))
    best_total = -1
    best_pick: list[int | None] = [None] * n
    pick: list[int | None] = [None] * n
    # the branch and bound is exponential in the trains where many routes share track (four
    # late trains on a grown board: seconds to minutes); candidates are tried best first, so
    # a bounded search has the greedy set and its first improvements
    left = -1 if tries is None else tries

    def rec(i: int, used: int, total: int, link: int, start: int) -> None:
        nonlocal best_total, best_pick, left
        if i == n or left == 0:     # a whole set, or the bound reached: the rest stay idle
            if total + link > best_total:
                best_total = total + link
                best_pick = list(pick)
            return
        idx, revs, masks, lbs = lists[i]
        same_as_prev = i > 0 and ts[i].distance == ts[i - 1].distance and ts[i].free == ts[i - 1].free
        lo = start if same_as_prev else 0
        rest = suffix[i + 1] + (link if link > max_link else max_link)
        last = i == n - 1
        for k in range(lo, len(idx)):
            if total + revs[k] + rest <= best_total:
                break
            if left == 0:
                break
            left -= 1
            if masks[k] & used:
                continue
            pick[i] = idx[k]
            lb = lbs[k] if lbs[k] > link else link
            if last:
                if total + revs[k] + lb > best_total:
                    best_total = total + revs[k] + lb
                    best_pick = list(pick)
                # later candidates pay less; only a bigger shared bonus could still win
                if lb >= max_link:
                    break
                continue
            rec(i + 1, used | masks[k], total + revs[k], lb, k + 1)
        pick[i] = None
        if total + rest > best_total:
            rec(i + 1, used, total, link, len(idx) if same_as_prev else 0)

    rec(0, 0, 0, 0, 0)
    g: RunGraph = run_graph(m, b, ctx.rules.gauge)
    results: list[RouteResult] = []
    chosen = [(ts[i], cands[k]) for i, k in enumerate(best_pick) if k is not None]
    bonus_at = max(range(len(chosen)), key=lambda j: chosen[j][1].link_bonus, default=None)
    for j, (t, c) in enumerate(chosen):
        rev = c.revenue + (c.link_bonus if j == bonus_at else 0)
        results.append(RouteResult(t.name, tuple(signature(g, s) for s in c.stops), c.connections, c.distance, rev))
    return BestRoutes(results, max(best_total, 0), complete and left != 0, len(cands))
