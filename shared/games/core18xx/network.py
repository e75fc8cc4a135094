"""Who reaches what: a corporation's track network, the way 18xx.games' Graph computes it.

Walking starts at the cities holding the corporation's tokens, follows track of the running
gauge (broad; 18Ireland skips narrow) across hex edges, passes through towns and through
cities unless every slot there is filled by other corporations, and records:
- `paths`: every (hex, path index) reached — used for "new track must be connected";
- `nodes`: every (hex, node index) reached — token candidates and route stops;
- `hexes`: hex -> edges from which this corporation may lay track (the token hexes count with
  all their edges).
`narrow` does the same for 18Ireland's narrow-gauge network, which starts from every node of
the broad network and is not blocked by tokens.
"""

from __future__ import annotations

from collections import deque
from typing import Any
from dataclasses import dataclass, field

from .board import FREE, BoardState, linked, slots, tile_at
from .mapdef import MapDef
from .tiles import NODE, Placed

PathRef = tuple[str, int]  # (hex, path index in the placed tile)
NodeRef = tuple[str, int]  # (hex, node index)


@dataclass
class Reach:
    paths: set[PathRef] = field(default_factory=set)
    nodes: set[NodeRef] = field(default_factory=set)
    hexes: dict[str, set[int]] = field(default_factory=dict)
    hit: bool = False


def blocks(m: MapDef, b: BoardState, coord: str, node: int, corp: str | None) -> bool:
    """A city blocks `corp` when all its slots hold other corporations' tokens."""
    if corp is None:
        return False
    t = tile_at(m, b, coord).tile
    if t.nodes[node].kind != "city":
        return False
    s = slots(m, b, coord)[node]
    return bool(s) and FREE not in s and corp not in s


def token_nodes(m: MapDef, b: BoardState, corp: str) -> list[NodeRef]:
    return [(coord, i) for coord, cities in b.tokens.items() for i, s in enumerate(cities) if corp in s]


def _paths_at(t: Placed, node: int) -> list[int]:
    return [i for i, p in enumerate(t.paths) if NODE + node in (p.a, p.b)]


def walk(
    m: MapDef,
    b: BoardState,
    starts: list[NodeRef],
    corp: str | None,
    gauge: str = "broad",
    start_paths: list[PathRef] = (),  # type: ignore[assignment]
    goal: set[PathRef] | None = None,
    enough_nodes: int | None = None,
) -> Reach:
    """Everything reachable from `starts` (nodes) and `start_paths` over track of `gauge`
    (dual fits both). With `goal`, stops as soon as a goal path is reached (then
    `Reach.hit` is True); with `enough_nodes`, as soon as that many nodes are reached (the
    Reach is then partial)."""
    reach = Reach()
    view = tiles_view(m, b)        # placed tiles and links, shared by every walk of this board
    tile, links = view.tile, view.links

    def blocked(coord: str, node: int) -> bool:
        if corp is None or tile(coord).tile.nodes[node].kind != "city":
            return False
        s = b.tokens.get(coord)
        if s is None:
            return False
        row = s[node]
        return bool(row) and FREE not in row and corp not in row

    fits = FITS.get(gauge, DUAL)      # gauge_matches(gauge, track) is `track in fits`

    seen_nodes: set[NodeRef] = set()
    queue: deque[PathRef] = deque()
    paths = reach.paths
    hexes = reach.hexes
    no_paths: tuple[int, ...] = ()

    def enter_node(coord: str, node: int) -> None:
        if (coord, node) in seen_nodes:
            return
        seen_nodes.add((coord, node))
        t = tile(coord)
        for i in t.end_paths.get(NODE + node, no_paths):
            if (coord, i) not in paths and t.paths[i].track in fits:
                paths.add((coord, i))
                queue.append((coord, i))

    for coord, node in starts:
        reach.nodes.add((coord, node))
        if enough_nodes is not None and len(reach.nodes) >= enough_nodes:
            return reach
        enter_node(coord, node)
    for ref in start_paths:
        if ref not in paths:
            paths.add(ref)
            queue.append(ref)
    # (the order of discovery is the plain walk's: paths by index, ends a then b)
    while queue:
        coord, i = queue.popleft()
        if goal is not None and (coord, i) in goal:
            reach.hit = True
            return reach
        t = tile(coord)
        p = t.paths[i]
        here = links(coord)
        for e in p.edges:   # track may be laid from both sides of each edge this path reaches
            edges = hexes.get(coord)
            if edges is None:
                edges = hexes[coord] = set()
            edges.add(e)
            other = here[e]
            if other is not None:
                edges = hexes.get(other)
                if edges is None:
                    edges = hexes[other] = set()
                edges.add((e + 3) % 6)      # hexgrid.invert
        for end in (p.a, p.b):
            if end >= NODE:
                n = end - NODE
                kind = t.tile.nodes[n].kind
                if kind == "junction":
                    for j in t.end_paths.get(end, no_paths):
                        if (coord, j) not in paths and t.paths[j].track in fits:
                            paths.add((coord, j))
                            queue.append((coord, j))
                    continue
                reach.nodes.add((coord, n))
                if enough_nodes is not None and len(reach.nodes) >= enough_nodes:
                    return reach
                if not p.terminal and not blocked(coord, n):
                    enter_node(coord, n)
                continue
            other = here[end]
            if other is None:
                continue
            ot = tile(other)
            mine = FITS.get(p.track, DUAL)
            for j in ot.end_paths.get((end + 3) % 6, no_paths):     # hexgrid.invert
                if (other, j) in paths:
                    continue
                q = ot.paths[j]
                # 18xx.games: the next path must carry this walk's gauge and fit this one's
                if q.track in fits and (p.track == "dual" or q.track in mine):
                    paths.add((other, j))
                    queue.append((other, j))
    return reach


# tiles.gauge_matches as sets: gauge_matches(mine, other) is `other in FITS.get(mine, DUAL)`
DUAL = frozenset({"dual"})
FITS = {"broad": frozenset({"broad", "dual"}), "narrow": frozenset({"narrow", "dual"}), "dual": DUAL}

class TilesView:
    """Placed tiles and edge links (board.linked for the six edges) of one tiles dict, filled
    in as walks ask: they read the tiles alone, so every walk of that board shares them."""

    __slots__ = ("m", "b", "placed", "linked")

    def __init__(self, m: MapDef, b: BoardState) -> None:
        self.m, self.b = m, b
        self.placed: dict[str, Placed] = {}
        self.linked: dict[str, tuple[str | None, ...]] = {}

    def tile(self, coord: str) -> Placed:
        t = self.placed.get(coord)
        if t is None:
            t = self.placed[coord] = tile_at(self.m, self.b, coord)
        return t

    def links(self, coord: str) -> tuple[str | None, ...]:
        out = self.linked.get(coord)
        if out is None:
            row = []
            impassable = self.m.impassable_colors
            for edge, other in enumerate(self.m.geometry[coord]):
                if other is not None:
                    t = self.tile(other)
                    if t.tile.color in impassable and (edge + 3) % 6 not in t.exits:
                        other = None
                row.append(other)
            out = self.linked[coord] = tuple(row)
        return out


_VIEWS: dict[int, tuple[MapDef, dict, TilesView]] = {}


def tiles_view(m: MapDef, b: BoardState) -> TilesView:
    """The shared TilesView of `b`'s tiles dict (keyed by its id, the entry holding it)."""
    hit = _VIEWS.get(id(b.tiles))
    if hit is not None and hit[0] is m and hit[1] is b.tiles:
        return hit[2]
    if len(_VIEWS) >= 64:
        _VIEWS.clear()
    view = TilesView(m, b)
    _VIEWS[id(b.tiles)] = (m, b.tiles, view)
    return view


# A board is immutable and every change copies its `tiles` / `tokens` dicts, so a network
# computed for one pair of dicts stays right for as long as they are the board's. Replays and
# step machines ask for the same corporation's network many times per state: cache it, keyed
# by the dicts' ids, the entry holding the dicts so the ids cannot be reused while cached.
# Callers only read a Reach.
_REACH: dict[tuple, tuple[MapDef, dict, dict, Any]] = {}


def _cached(kind: str, m: MapDef, b: BoardState, corp: object, make) -> Reach:
    key = (kind, id(m), id(b.tiles), id(b.tokens), corp)
    hit = _REACH.get(key)
    if hit is not None and hit[0] is m and hit[1] is b.tiles and hit[2] is b.tokens:
        return hit[3]
    reach = make()
    if len(_REACH) >= 1024:
        _REACH.clear()
    _REACH[key] = (m, b.tiles, b.tokens, reach)
    return reach


def broad(m: MapDef, b: BoardState, corp: str) -> Reach:
    """The corporation's running network (graph.connected_* in 18xx.games, narrow skipped)."""
    return _cached("broad", m, b, corp, lambda: _broad(m, b, corp))


def _broad(m: MapDef, b: BoardState, corp: str) -> Reach:
    starts = token_nodes(m, b, corp)
    reach = walk(m, b, starts, corp, "broad")
    for coord, _ in starts:
        for e in range(6):
            if linked(m, b, coord, e) is not None:
                reach.hexes.setdefault(coord, set()).add(e)
    return reach


def reaches_stops(m: MapDef, b: BoardState, corp: str, count: int) -> bool:
    """len(broad(m, b, corp).nodes) >= count, walking only as far as that takes unless the
    network is known already (the walk adds nodes in the same order either way)."""
    key = ("broad", id(m), id(b.tiles), id(b.tokens), corp)
    hit = _REACH.get(key)
    if hit is not None and hit[0] is m and hit[1] is b.tiles and hit[2] is b.tokens:
        return len(hit[3].nodes) >= count
    return len(walk(m, b, token_nodes(m, b, corp), corp, "broad", enough_nodes=count).nodes) >= count


def narrow(m: MapDef, b: BoardState, corp: str, broad_reach: Reach | None = None) -> Reach:
    """18Ireland's narrow-gauge network: narrow track reachable from any node of the broad
    network, through any node (tokens do not block narrow gauge)."""
    if broad_reach is not None and broad_reach is not broad(m, b, corp):
        return walk(m, b, sorted(broad_reach.nodes), None, "narrow")
    return _cached("narrow", m, b, corp, lambda: walk(m, b, sorted(broad(m, b, corp).nodes), None, "narrow"))


def corporations_reached(m: MapDef, b: BoardState, start: NodeRef, gauge: str = "broad") -> set[str]:
    """Owners of tokens in every city reachable from `start` over `gauge` track, passing
    through all cities (tokens do not block): 18Ireland's merger connectivity."""
    found = _cached("reached", m, b, (start, gauge), lambda: _corporations_reached(m, b, start, gauge))
    return set(found)  # type: ignore[arg-type]


def _corporations_reached(m: MapDef, b: BoardState, start: NodeRef, gauge: str) -> set[str]:
    out: set[str] = set()
    for coord, n in _cities_reached(m, b, start, gauge):
        out.update(o for o in slots(m, b, coord)[n] if o)
    return out


def _cities_reached(m: MapDef, b: BoardState, start: NodeRef, gauge: str) -> tuple[NodeRef, ...]:
    """The cities a walk from `start` reaches when tokens block nothing: that reads the tiles
    alone, so it is kept per tiles dict (a merger moves tokens, not track)."""
    key = ("cities", id(m), id(b.tiles), start, gauge)
    hit = _REACH.get(key)
    if hit is not None and hit[0] is m and hit[1] is b.tiles:
        return hit[3]
    reach = walk(m, b, [start], None, gauge)
    cities = tuple((coord, n) for coord, n in reach.nodes if tile_at(m, b, coord).tile.nodes[n].kind == "city")
    if len(_REACH) >= 1024:
        _REACH.clear()
    _REACH[key] = (m, b.tiles, None, cities)  # type: ignore[assignment]
    return cities
