"""Train routes: the running graph, route validation and revenue.

A route is given as 18xx.games gives it: the ordered stops (node signatures "HEX-part") and,
between consecutive stops, the hexes the track passes ("connections"). Rules (18xx.games'
Route#revenue and Game#check_*, facts; own code):
- at least two stops; one of them a city holding the corporation's token;
- consecutive track really connects, over the running gauge only, and never passes through
  a city whose slots are all filled by other corporations (it may start or end there);
- no stop twice in one route; no terminal (offboard) passed through;
- no hex edge used twice by the corporation's trains together (nor an in-hex node-to-node path);
- length: stops for N trains, hex edges crossed for H trains (`RouteRules.distance`);
- revenue: each stop's value in the phase, plus (`RouteRules.narrow_bonus`) the narrow-gauge bonus: from each
  stop, every node reached over narrow track whose track is all narrow, and per-route extras.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import msgspec

from shared.games.core18xx.board import hexgrid, network
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.network import NodeRef, blocks, token_nodes
from shared.games.core18xx.board.state import BoardError, BoardState, tile_at
from shared.games.core18xx.board.tiles import NODE, Path, Placed, gauge_matches
from shared.games.core18xx.memo import Last, Memo


class RouteRules(msgspec.Struct, frozen=True):
    distance: Literal["stops", "hexes"] = "stops"
    gauge: str = "broad"
    narrow_bonus: bool = False


class Train(msgspec.Struct, frozen=True):
    name: str  # e.g. "4H-0"; only used to label routes
    distance: int  # stops (N trains) or hex edges (H trains); D = 99
    # stop kinds (`stop_kind`) this train visits without counting them toward its length
    # (18xx.games' distance entries paying 99: 1841's towns, and passes for its 8-train)
    free: tuple[str, ...] = ()


class StopBonus(msgspec.Struct, frozen=True):
    """+amount once per route that stops in one of `hexes` (a port or ship token)."""

    hexes: tuple[str, ...]
    amount: int


class RouteContext(msgspec.Struct, frozen=True):
    corp: str
    phase_colors: tuple[str, ...]
    rules: RouteRules = RouteRules()
    bonuses: tuple[StopBonus, ...] = ()
    # linked cities (a river company, say): one route stopping at a city in one hex also earns the other
    # hex's city value (with its narrow bonus); pairs listed both ways
    linked_cities: tuple[tuple[str, str], ...] = ()
    # (hex, kind): stops on these hexes count as that kind instead of their node's (1841's
    # passes, read as cities, are "pass"; its ports, read as towns, "port")
    stop_kinds: tuple[tuple[str, str], ...] = ()
    # kinds that never count toward the two stops a route needs (18xx.games' route: never)
    never_kinds: tuple[str, ...] = ()
    # hexes at most one of the company's routes may touch (1841's yellow Milano)
    exclusive_hexes: tuple[str, ...] = ()


class RouteSpec(msgspec.Struct, frozen=True):
    train: str
    connections: list[list[str]]
    nodes: list[str] = []  # stop names "HEX-part"; may be left out when the hexes are unambiguous


class RouteResult(msgspec.Struct, frozen=True):
    train: str
    stops: tuple[str, ...]  # node signatures in route order
    connections: tuple[tuple[str, ...], ...]
    distance: int
    revenue: int


# ---- the running graph ---------------------------------------------------------------------

@dataclass
class RunGraph:
    """The board as trains see it (one gauge), with bit keys for overlap checks."""

    m: MapDef
    b: BoardState
    gauge: str
    tiles: dict[str, Placed] = field(default_factory=dict)
    # (hex, edge) -> indices of running paths in that hex touching that edge
    ports: dict[tuple[str, int], list[int]] = field(default_factory=dict)
    # (hex, node) -> indices of running paths touching that node
    node_paths: dict[NodeRef, list[int]] = field(default_factory=dict)

    def key(self, coord: str, edge: int) -> int:
        return 1 << (self.m.order[coord] * 6 + edge)

    def node_path_key(self, coord: str, path: int) -> int:
        # in-hex node-to-node paths get keys above all edge keys
        return 1 << (len(self.m.order) * 6 + self.m.order[coord] * 16 + path)


def run_graph(m: MapDef, b: BoardState, gauge: str = "broad") -> RunGraph:
    # The running track depends on the tiles alone, and every lay copies `tiles`: the parts
    # are computed once per tiles dict (shared, read only) and paired with this board (whose
    # tokens decide blocking). Keyed by the dicts' ids, the entry holding them. A new tiles
    # dict a few lays away from the last one built changes only those hexes' parts.
    key, held = (id(m), id(b.tiles), gauge), (m, b.tiles)
    hit = _GRAPHS.get(key, held)
    if hit is not None:
        return RunGraph(m, b, gauge, *hit)
    last = _LAST_GRAPH.value
    g = None
    if last is not None and last[0] is m and last[1] == gauge:
        before, after = last[2], b.tiles
        changed = network.changed_hexes(before, after, 8)
        if changed is not None:
            g = RunGraph(m, b, gauge, *(dict(part) for part in last[3]))
            for coord in sorted(changed):
                _drop_hex(g, coord)
                _add_hex(g, coord, tile_at(m, b, coord))
    if g is None:
        g = RunGraph(m, b, gauge)
        laid = b.tiles
        for coord, printed in m.hexes.items():
            if coord in laid or printed.tile.paths:   # a printed hex without track has no paths
                _add_hex(g, coord, tile_at(m, b, coord))
    parts = (g.tiles, g.ports, g.node_paths)
    _GRAPHS.put(key, held, parts)
    _LAST_GRAPH.put((), (m, gauge, b.tiles, parts))
    return g


def _add_hex(g: RunGraph, coord: str, t: Placed) -> None:
    if not t.paths:
        return
    g.tiles[coord] = t
    ports, node_paths = _running_parts(t, g.gauge)
    for end, indices in ports:
        g.ports[(coord, end)] = indices
    for node, indices in node_paths:
        g.node_paths[(coord, node)] = indices


def _drop_hex(g: RunGraph, coord: str) -> None:
    t = g.tiles.pop(coord, None)
    if t is None:
        return
    ports, node_paths = _running_parts(t, g.gauge)
    for end, _ in ports:
        del g.ports[(coord, end)]
    for node, _ in node_paths:
        del g.node_paths[(coord, node)]


_GRAPHS = Memo(64)       # per map and tiles dict: the graph's parts (tokens are the board's)
_LAST_GRAPH = Last()     # the newest graph, the start for a tiles dict a few lays away


@lru_cache(maxsize=4096)
def _running_parts(t: Placed, gauge: str) -> tuple[tuple[tuple[int, list[int]], ...], tuple[tuple[int, list[int]], ...]]:
    """One placed tile's share of a RunGraph: (edge, running path indices) and (node, running
    path indices), in the order the graph first meets them. The lists are shared: read only."""
    ports: dict[int, list[int]] = {}
    node_paths: dict[int, list[int]] = {}
    for i, p in enumerate(t.paths):
        if not gauge_matches(gauge, p.track):
            continue
        for end in (p.a, p.b):
            if end < NODE:
                ports.setdefault(end, []).append(i)
            else:
                node_paths.setdefault(end - NODE, []).append(i)
    return tuple(ports.items()), tuple(node_paths.items())


def signature(g: RunGraph, ref: NodeRef) -> str:
    coord, n = ref
    return f"{coord}-{g.tiles[coord].tile.nodes[n].part}" if coord in g.tiles else f"{coord}-{n}"


def node_of(m: MapDef, b: BoardState, sig: str) -> NodeRef:
    coord, _, part = sig.rpartition("-")
    if coord not in m.hexes:
        raise BoardError("bad_route", f"no hex {coord}")
    t = tile_at(m, b, coord).tile
    for i, n in enumerate(t.nodes):
        if str(n.part) == part and n.kind != "junction":
            return (coord, i)
    raise BoardError("bad_route", f"no stop {sig}")


# ---- values ----------------------------------------------------------------------------------

def narrow_bonus(m: MapDef, b: BoardState, stop: NodeRef, phase_colors: tuple[str, ...]) -> int:
    """Narrow-gauge bonus: value of nodes reached from `stop` over narrow track whose own track is all
    narrow. Follows 18xx.games' walk step by step: a path reaching a not yet counted node that
    also has broad track goes no further into its nodes; a node already counted does not stop
    the walk (so a second narrow way into a mixed node does lead beyond it)."""
    # It reads the tiles alone (narrow gauge ignores tokens), and only those of the hexes its
    # walk visits and their neighbours: the answer is kept with the tiles it read, and stays
    # right on any later board whose tiles on those hexes are the same (a lay elsewhere does
    # not change it).
    key = (id(m), stop, phase_colors, b.closed)
    hit = _BONUS.get(key, (m,))
    if hit is not None:
        tiles = b.tiles
        if all(tiles.get(c) == laid for c, laid in hit[0]):
            return hit[1]
    read: set[str] = set()
    total = _narrow_bonus(m, b, stop, phase_colors, read)
    _BONUS.put(key, (m,), (tuple((c, b.tiles.get(c)) for c in read), total))
    return total


# per stop: the answer with the tiles it read (valid on any board with those tiles there)
_BONUS = Memo(4096)


def _narrow_bonus(m: MapDef, b: BoardState, stop: NodeRef, phase_colors: tuple[str, ...], read: set[str]) -> int:
    """The walk; every hex whose tile it reads goes into `read`."""
    counted = {stop}
    total = 0
    view = network.tiles_view(m, b)     # placed tiles and links shared with the board's walks
    neighbours = m.neighbours
    none: tuple[int, ...] = ()

    def tile(coord: str) -> Placed:
        read.add(coord)
        return view.tile(coord)

    def links(coord: str) -> tuple[str | None, ...]:
        read.add(coord)                 # the links read the tiles of the neighbours too
        read.update(neighbours[coord])
        return view.links(coord)

    visited_nodes: set[NodeRef] = set()
    visited_paths: set[tuple[str, int]] = set()

    def all_narrow(t: Placed, n: int) -> bool:
        return all(t.paths[i].track == "narrow" for i in t.end_paths.get(NODE + n, none))

    def on_path(coord: str, t: Placed, p: Path, origin: NodeRef) -> None:
        nonlocal total
        abort = False
        for n in p.nodes:
            ref = (coord, n)
            if ref in counted or t.tile.nodes[n].kind == "junction":
                continue
            counted.add(ref)
            if all_narrow(t, n):
                total += t.tile.nodes[n].value(phase_colors)
            else:
                abort = True
        if abort or p.terminal:
            return
        for n in p.nodes:
            if (coord, n) != origin and t.tile.nodes[n].kind != "junction":
                node_walk((coord, n))

    def path_walk(coord: str, pi: int, skip: int | None, origin: NodeRef) -> None:
        t = tile(coord)
        p = t.paths[pi]
        if (coord, pi) in visited_paths or p.track == "broad":
            return
        visited_paths.add((coord, pi))
        on_path(coord, t, p, origin)
        here = links(coord)
        for e in p.edges:
            if e == skip:
                continue
            other = here[e]
            if other is None:
                continue
            back = hexgrid.invert(e)
            # the paths fitting this one (a broad one would end the walk at once)
            for qi in network.entries(tile(other), back, "narrow", p.track):
                path_walk(other, qi, back, origin)
        visited_paths.discard((coord, pi))

    def node_walk(ref: NodeRef) -> None:
        if ref in visited_nodes:
            return
        visited_nodes.add(ref)
        coord, n = ref
        t = tile(coord)
        for pi in t.end_paths.get(NODE + n, none):
            if t.paths[pi].track != "broad":
                path_walk(coord, pi, None, ref)
        visited_nodes.discard(ref)

    node_walk(stop)
    return total


def stop_kind(m: MapDef, b: BoardState, ctx: RouteContext, stop: NodeRef) -> str:
    """The stop's kind for counting: `ctx.stop_kinds`' for its hex, else its node's."""
    if ctx.stop_kinds:
        for coord, kind in ctx.stop_kinds:
            if coord == stop[0]:
                return kind
    return tile_at(m, b, stop[0]).tile.nodes[stop[1]].kind


def counted_stops(kinds: list[str] | tuple[str, ...], free: tuple[str, ...]) -> int:
    """How many of a route's stops (by kind) count toward a train's length."""
    return sum(1 for k in kinds if k not in free) if free else len(kinds)


def required_stops(kinds: list[str] | tuple[str, ...], ctx: RouteContext) -> int:
    """How many of a route's stops count toward the two it needs."""
    return sum(1 for k in kinds if k not in ctx.never_kinds) if ctx.never_kinds else len(kinds)


def exclusive_touched(ctx: RouteContext, hexes) -> frozenset[str]:
    return frozenset(ctx.exclusive_hexes).intersection(hexes) if ctx.exclusive_hexes else frozenset()


def stop_value(m: MapDef, b: BoardState, ctx: RouteContext, stop: NodeRef) -> int:
    coord, n = stop
    v = tile_at(m, b, coord).tile.nodes[n].value(ctx.phase_colors)
    if ctx.rules.narrow_bonus:
        v += narrow_bonus(m, b, stop, ctx.phase_colors)
    return v


def route_bonus(ctx: RouteContext, stops: list[NodeRef] | tuple[NodeRef, ...]) -> int:
    hexes = {c for c, _ in stops}
    return sum(x.amount for x in ctx.bonuses if hexes & set(x.hexes))


def linked_city_bonus(m: MapDef, b: BoardState, ctx: RouteContext, stops) -> int:
    """Best value a route can take from `linked_cities` (0 if it stops at none)."""
    best = 0
    for coord, n in stops:
        if tile_at(m, b, coord).tile.nodes[n].kind != "city":
            continue
        for a, other in ctx.linked_cities:
            if a != coord:
                continue
            t = tile_at(m, b, other).tile
            if t.cities:
                best = max(best, stop_value(m, b, ctx, (other, t.cities[0])))
    return best


# ---- validation ------------------------------------------------------------------------------

@dataclass
class Resolved:
    stops: list[NodeRef]
    mask: int
    distance: int
    paths: list[tuple[str, int]]


def _chain(g: RunGraph, ctx: RouteContext, a: NodeRef, bnode: NodeRef, hexes: list[str], used: int
           ) -> tuple[int, int, list[tuple[str, int]]] | None:
    """Find track from node a to node b through exactly `hexes`; (mask, crossings, paths)."""
    if not hexes or hexes[0] != a[0] or hexes[-1] != bnode[0]:
        return None
    m, b = g.m, g.b
    if len(hexes) == 1:
        t = g.tiles.get(a[0])
        for i in g.node_paths.get(a, []):
            p = t.paths[i]  # type: ignore[union-attr]
            if {p.a, p.b} == {NODE + a[1], NODE + bnode[1]}:
                k = g.node_path_key(a[0], i)
                if not k & used:
                    return k, 0, [(a[0], i)]
        return None
    for k in range(len(hexes) - 1):
        if hexgrid.direction(hexes[k], hexes[k + 1], m.layout, m.axes) is None:
            return None

    links = network.tiles_view(m, b).links    # board.linked, shared with the board's walks
    order = m.order

    def go(idx: int, entry: int | None, mask: int, paths: list) -> tuple[int, list] | None:
        coord = hexes[idx]
        t = g.tiles.get(coord)
        if t is None:
            return None
        last = idx == len(hexes) - 1
        out_edge = None if last else hexgrid.direction(coord, hexes[idx + 1], m.layout, m.axes)
        if out_edge is not None and links(coord)[out_edge] is None:
            return None
        start = NODE + a[1] if idx == 0 else entry
        goal = NODE + bnode[1] if last else out_edge
        cands = g.node_paths.get(a, []) if idx == 0 else g.ports.get((coord, entry), [])  # type: ignore[arg-type]
        for i in cands:
            p = t.paths[i]
            if start not in (p.a, p.b):
                continue
            other = p.b if p.a == start else p.a
            routes: list[tuple[int, list]] = []
            if other == goal:
                routes.append((0, [(coord, i)]))
            elif other >= NODE and t.tile.nodes[other - NODE].kind == "junction":
                for j, q in enumerate(t.paths):
                    if j != i and other in (q.a, q.b) and goal in (q.a, q.b) and gauge_matches(g.gauge, q.track):
                        routes.append((0, [(coord, i), (coord, j)]))
            base = order[coord] * 6         # g.key(coord, e) is 1 << (base + e)
            for _, ps in routes:
                keys = 0
                for _, j in ps:
                    for e in t.paths[j].edges:
                        keys |= 1 << (base + e)
                if keys & (mask | used):
                    continue
                if last:
                    return mask | keys, paths + ps
                nxt = hexgrid.invert(out_edge)  # type: ignore[arg-type]
                r = go(idx + 1, nxt, mask | keys, paths + ps)
                if r is not None:
                    return r
        return None

    r = go(0, None, 0, [])
    if r is None:
        return None
    return r[0], len(hexes) - 1, r[1]


def resolve(g: RunGraph, ctx: RouteContext, spec: RouteSpec, used: int = 0) -> Resolved:
    """Find the track of a route given as 18xx.games exports it: connections in route order,
    each a hex list between two stops (either direction); `nodes` names the stops (any order)."""
    m, b = g.m, g.b
    named = [node_of(m, b, s) for s in spec.nodes]
    if not spec.connections:
        raise BoardError("route_too_short", "a route needs at least two stops")
    if any(not hexes or any(h not in m.hexes for h in hexes) for hexes in spec.connections):
        raise BoardError("bad_route", "every connection must list hexes of the map")
    by_hex: dict[str, list[NodeRef]] = {}
    for ref in named:
        by_hex.setdefault(ref[0], []).append(ref)
    if not named:  # stops not named (older exports): any stop of the end hexes may be meant
        for hexes in spec.connections:
            for coord in (hexes[0], hexes[-1]) if hexes else ():
                if coord in g.tiles and coord not in by_hex:
                    by_hex[coord] = [(coord, i) for i, n in enumerate(g.tiles[coord].tile.nodes) if n.is_stop]

    def ends(hexes: list[str]) -> list[tuple[NodeRef, NodeRef, list[str]]]:
        out = []
        for hs in (hexes, list(reversed(hexes))):
            for a in by_hex.get(hs[0], []):
                for z in by_hex.get(hs[-1], []):
                    if a != z:
                        out.append((a, z, hs))
        return out

    options = [ends(list(h)) for h in spec.connections]
    best: list[Resolved] = []
    failure = [f"no free track through {'-'.join(spec.connections[0])}"]

    def search(k: int, stops: list[NodeRef], mask: int, dist: int, paths: list) -> bool:
        if k == len(options):
            best.append(Resolved(stops, mask, dist, paths))
            return True
        for a, z, hs in options[k]:
            if k > 0 and a != stops[-1]:
                continue
            seq = [a, z] if k == 0 else [z]
            if any(x in stops for x in seq):
                continue
            got = _chain(g, ctx, a, z, hs, used | mask)
            if got is None:
                failure[0] = f"no free track from {signature(g, a)} to {signature(g, z)} through {'-'.join(hs)}"
                continue
            if search(k + 1, stops + seq, mask | got[0], dist + got[1], paths + got[2]):
                return True
        return False

    if not search(0, [], 0, 0, []):
        raise BoardError("route_not_connected", failure[0])
    r = best[0]
    stops = r.stops
    if any(g.tiles[h].paths[i].terminal for h, i in r.paths[1:-1]):
        raise BoardError("route_through_terminal", "a route cannot pass through a terminal")
    if named and set(stops) != set(named):
        raise BoardError("bad_route", "the stops named do not match the connections")
    seen_groups: set[str] = set()
    for ref in stops:
        for grp in tile_at(m, b, ref[0]).tile.nodes[ref[1]].groups:
            if grp in seen_groups:
                raise BoardError("route_reuses_group", f"a route may visit only one {grp} stop")
            seen_groups.add(grp)
    for mid in stops[1:-1]:
        t = tile_at(m, b, mid[0]).tile
        if t.nodes[mid[1]].kind == "offboard":
            raise BoardError("route_through_terminal", f"a route cannot pass through {mid[0]}")
        if blocks(m, b, mid[0], mid[1], ctx.corp):
            raise BoardError("route_blocked", f"{mid[0]} is full of other companies' tokens")
    if not set(stops) & set(token_nodes(m, b, ctx.corp)):
        raise BoardError("route_needs_token", f"a route must include a {ctx.corp} station")
    return r


def route_distance(ctx: RouteContext, r: Resolved, free: tuple[str, ...] = (), m: MapDef | None = None,
                   b: BoardState | None = None) -> int:
    """Hex edges crossed (H trains) or stops counted (N trains; kinds in `free` not counted,
    which needs the board)."""
    if ctx.rules.distance == "hexes":
        return r.distance
    if not free or m is None or b is None:
        return len(r.stops)
    return counted_stops([stop_kind(m, b, ctx, s) for s in r.stops], free)


def revenue(m: MapDef, b: BoardState, ctx: RouteContext, stops) -> int:
    return sum(stop_value(m, b, ctx, s) for s in stops) + route_bonus(ctx, stops)


def run_routes(m: MapDef, b: BoardState, ctx: RouteContext, trains: dict[str, Train],
               specs: list[RouteSpec]) -> tuple[list[RouteResult], int]:
    """Validate the corporation's routes together; (per-route results, total revenue).
    Raises BoardError (code, message) on the first broken rule."""
    g = run_graph(m, b, ctx.rules.gauge)
    used = 0
    seen_trains: set[str] = set()
    out: list[RouteResult] = []
    resolved: list[Resolved] = []
    exclusive: set[str] = set()
    for spec in specs:
        if spec.train not in trains:
            raise BoardError("no_such_train", f"{ctx.corp} has no train {spec.train}")
        if spec.train in seen_trains:
            raise BoardError("train_reused", f"train {spec.train} runs only once")
        seen_trains.add(spec.train)
        r = resolve(g, ctx, spec, used)
        if r.mask & used:
            raise BoardError("route_reuses_track", "routes cannot share track")
        used |= r.mask
        if ctx.never_kinds and required_stops([stop_kind(m, b, ctx, s) for s in r.stops], ctx) < 2:
            raise BoardError("route_too_short", "a route needs two stops that count (not "
                             + " or ".join(ctx.never_kinds) + ")")
        touched = exclusive_touched(ctx, {h for h, _ in r.paths})
        if touched & exclusive:
            raise BoardError("route_reuses_hex", f"only one route may visit {', '.join(sorted(touched & exclusive))}")
        exclusive |= touched
        d = route_distance(ctx, r, trains[spec.train].free, m, b)
        if d > trains[spec.train].distance:
            unit = "hex edges" if ctx.rules.distance == "hexes" else "stops"
            raise BoardError("route_too_long", f"{d} {unit} is too far for train {spec.train}")
        resolved.append(r)
        out.append(RouteResult(spec.train, tuple(signature(g, x) for x in r.stops),
                               tuple(tuple(c) for c in spec.connections), r.distance, revenue(m, b, ctx, r.stops)))
    if ctx.linked_cities and out:
        bonus = [linked_city_bonus(m, b, ctx, r.stops) for r in resolved]
        k = max(range(len(out)), key=lambda i: bonus[i])
        if bonus[k]:
            x = out[k]
            out[k] = RouteResult(x.train, x.stops, x.connections, x.distance, x.revenue + bonus[k])
    return out, sum(x.revenue for x in out)
