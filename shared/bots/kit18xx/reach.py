"""A company's network read off a board without a route search, for any title on the shared
18xx core: the summed value of the stops it reaches (`network_value`) and how near it is to
the stops it does not reach yet (`reach`). A title's adapter calls `prospects` with its map
and the phase's tile colours (`Title18xx.reach`, `network_value`).

Reach: every stop hex off the network counts its best value, halved for each hex between it
and the nearest hex the company may lay track on (a lay there joins it: full value). Lays
that lead toward revenue raise it before any train can run there. Printed cities and towns
with no tile yet count at what a yellow tile usually gives them (`UNBUILT`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from shared.games.core18xx.board import hexgrid as HG
from shared.games.core18xx.board import network as NW
from shared.games.core18xx.board import state as B
from shared.games.core18xx.memo import Last

UNBUILT = {"city": 20, "town": 10}


class Scan(NamedTuple):
    """What `reach` and `network_value` read off one board for one company."""

    values: tuple[float, float]      # (network value, reach)
    frontier: frozenset[str]         # hexes the company may lay on
    stops: dict[str, int]            # stop hex -> its best value
    near: dict[str, int]             # stop hex -> hexes from the frontier


def prospects(m: Any, own: B.BoardState, b: B.BoardState, corp: str, colors: tuple[str, ...],
              walked: Any = None) -> tuple[float, float]:
    """(network value, reach) of `corp` on `b`, which is the state's own board `own` or a lay or
    two away from it (then only what the lay changed is recomputed). `walked(board)`, when
    given, is the board the company's network is walked on (a title's borders closed)."""
    base = None if b is own else scan(m, own, own, corp, colors, None, walked)
    return scan(m, own, b, corp, colors, base, walked).values


def scan(m: Any, own: B.BoardState, b: B.BoardState, corp: str, colors: tuple[str, ...], base: Scan | None,
         walked: Any = None) -> Scan:
    """`Scan` of `corp` on `b`; with `base` (the scan of `own`, which `b` is a lay or two away
    from), only what the lay changed is recomputed: the laid hexes' stop values and the
    distances to the network's new hexes."""
    key = (id(b.tiles), id(b.tokens), corp, colors, id(m))
    hit = _REACH.get(key)
    if hit is not None and hit[0] is b.tiles and hit[1] is b.tokens:
        return hit[2]
    net = NW.broad(m, walked(b) if walked is not None else b, corp)
    frontier = frozenset(net.hexes)
    reached = {coord for coord, _ in net.nodes}
    on_net = float(sum(_node_value(m, b, coord, node, colors) for coord, node in net.nodes))
    changed = NW.changed_hexes(own.tiles, b.tiles) if base is not None else None
    incremental = base is not None and changed is not None and base.frontier <= frontier
    if incremental:
        assert base is not None and changed is not None
        stops = dict(base.stops)
        for coord in changed:
            value = _hex_value(m, b, coord, colors)
            if value > 0:
                stops[coord] = value
            else:
                stops.pop(coord, None)
    else:
        stops = dict(_stop_values(m, b, colors))
    near: dict[str, int] = {}
    if frontier:
        dist = distances(m)
        extra = frontier - base.frontier if incremental and base is not None else frontier
        for coord in stops:
            row = dist[coord]
            d = min((row[f] for f in extra), default=99)
            if incremental and base is not None:
                # the distance to the frontier does not depend on the stop's own tile
                was = base.near.get(coord)
                d = min(d, was if was is not None else min(row[f] for f in frontier))
            near[coord] = d
    total = 0.0
    for coord, value in stops.items():
        d = near.get(coord, 99)
        if coord not in reached and d <= 6:
            total += value * 0.5 ** d
    if len(_REACH) > 4096:
        _REACH.clear()
    out = Scan((on_net, total), frontier, stops, near)
    _REACH[key] = (b.tiles, b.tokens, out)
    return out


def _node_value(m: Any, b: B.BoardState, coord: str, node: int, colors: tuple[str, ...]) -> int:
    n = B.tile_at(m, b, coord).tile.nodes[node]
    return (n.value(colors) or UNBUILT.get(n.kind, 0)) if n.is_stop else 0


def _hex_value(m: Any, b: B.BoardState, coord: str, colors: tuple[str, ...]) -> int:
    """The best stop value on `coord` (0: no stop). It depends only on the tile there: kept
    per map, hex, tile and phase colours."""
    laid = b.tiles.get(coord)
    key = (id(m), coord, laid[0] if laid else None, colors)
    best = _HEX_VALUE.get(key)
    if best is None:
        nodes = B.tile_at(m, b, coord).tile.nodes
        best = _HEX_VALUE[key] = max((n.value(colors) or UNBUILT.get(n.kind, 0) for n in nodes if n.is_stop), default=0)
    return best


def hex_value(m: Any, b: B.BoardState, coord: str, colors: tuple[str, ...]) -> int:
    return _hex_value(m, b, coord, colors)


def _stop_values(m: Any, b: B.BoardState, colors: tuple[str, ...]) -> list[tuple[str, int]]:
    """(hex, best stop value there) for every hex with a stop, on the board as it is."""
    hit = _STOPS.get((b.tiles, m), colors)
    if hit is not None:
        return hit
    out = [(coord, v) for coord in m.hexes if (v := _hex_value(m, b, coord, colors)) > 0]
    return _STOPS.put((b.tiles, m), out, colors)


def distances(m: Any) -> dict[str, dict[str, int]]:
    """Hex distance between every two hexes of the map (computed once per map)."""
    hit = _DIST.get((m,))
    if hit is not None:
        return hit
    hexes = list(m.hexes)
    table = {a: {z: HG.distance(a, z, m.layout, m.axes) for z in hexes} for a in hexes}
    return _DIST.put((m,), table)


_REACH: dict[tuple, tuple[Any, Any, Scan]] = {}
_STOPS = Last()
_DIST = Last()
_HEX_VALUE: dict[tuple[Any, str, str | None, tuple[str, ...]], int] = {}
