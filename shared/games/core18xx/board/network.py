"""Who reaches what: a corporation's track network, the way 18xx.games' Graph computes it.

Walking starts at the cities holding the corporation's tokens, follows track of the running
gauge (broad; a separate narrow network is skipped) across hex edges, passes through towns and through
cities unless every slot there is filled by other corporations, and records:
- `paths`: every (hex, path index) reached — used for "new track must be connected";
- `nodes`: every (hex, node index) reached — token candidates and route stops;
- `hexes`: hex -> edges from which this corporation may lay track (the token hexes count with
  all their edges).
`narrow` does the same for a separate narrow-gauge network, which starts from every node of
the broad network and is not blocked by tokens.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.state import FREE, BoardState, closed_set, slots, tile_at
from shared.games.core18xx.board.tiles import NODE, Placed
from shared.games.core18xx.memo import Last, Memo

PathRef = tuple[str, int]  # (hex, path index in the placed tile)
NodeRef = tuple[str, int]  # (hex, node index)


class Reach:
    """What a walk reached. `hexes` is gathered from `marks` (per reached path, in order, the
    (hex, edge) pairs it opens for lays) when first asked: most walks never ask."""

    __slots__ = ("paths", "nodes", "marks", "hit", "_hexes")

    def __init__(self) -> None:
        self.paths: set[PathRef] = set()
        self.nodes: set[NodeRef] = set()
        self.marks: list[tuple[tuple[str, int], ...]] = []
        self.hit = False
        self._hexes: dict[str, set[int]] | None = None

    @property
    def hexes(self) -> dict[str, set[int]]:
        if self._hexes is None:
            out: dict[str, set[int]] = {}
            for marks in self.marks:
                for coord, e in marks:
                    edges = out.get(coord)
                    if edges is None:
                        edges = out[coord] = set()
                    edges.add(e)
            self._hexes = out
        return self._hexes


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
    """The corporation's cities, in the board's token order (board's owner index)."""
    return [(coord, i) for coord, cities in b.tokens.items() for i, s in enumerate(cities) if corp in s]


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
    view = tiles_view(m, b)
    compiled = view.compiled(gauge)    # hex -> HexTrack, shared by every walk of this tiles dict
    tokens = b.tokens

    def hex_track(coord: str) -> HexTrack:
        h = compiled.get(coord)
        return h if h is not None else view.compile(coord, gauge)

    def blocked(h: HexTrack, coord: str, node: int) -> bool:
        if corp is None or node not in h.cities:
            return False
        s = tokens.get(coord)
        if s is None:
            return False
        row = s[node]
        return bool(row) and FREE not in row and corp not in row

    seen_nodes: set[NodeRef] = set()
    queue: deque[PathRef] = deque()
    paths = reach.paths
    nodes = reach.nodes
    marked = reach.marks.append

    def enter_node(coord: str, node: int) -> None:
        if (coord, node) in seen_nodes:
            return
        seen_nodes.add((coord, node))
        for ref in hex_track(coord).node_paths[node]:
            if ref not in paths:
                paths.add(ref)
                queue.append(ref)

    for coord, node in starts:
        nodes.add((coord, node))
        if enough_nodes is not None and len(nodes) >= enough_nodes:
            return reach
        enter_node(coord, node)
    for ref in start_paths:
        if ref not in paths:
            paths.add(ref)
            queue.append(ref)
    # (the order of discovery is the plain walk's: paths by index, ends a then b)
    while queue:
        ref = queue.popleft()
        if goal is not None and ref in goal:
            reach.hit = True
            return reach
        coord, i = ref
        h = compiled.get(coord) or view.compile(coord, gauge)
        marks, ends, terminal = h.paths[i]
        marked(marks)           # track may be laid from both sides of each edge this path reaches
        for stop, nexts in ends:
            if stop >= 0:
                at = (coord, stop)
                nodes.add(at)
                if enough_nodes is not None and len(nodes) >= enough_nodes:
                    return reach
                if terminal or at in seen_nodes or blocked(h, coord, stop):
                    continue
                seen_nodes.add(at)
                nexts = h.node_paths[stop]      # on through the node (enter_node)
            for nxt in nexts:
                if nxt not in paths:
                    paths.add(nxt)
                    queue.append(nxt)
    return reach


# tiles.gauge_matches as sets: gauge_matches(mine, other) is `other in FITS.get(mine, DUAL)`
DUAL = frozenset({"dual"})
FITS = {"broad": frozenset({"broad", "dual"}), "narrow": frozenset({"narrow", "dual"}), "dual": DUAL}

# One path as a walk over one gauge sees it: `marks`, the (hex, edge) pairs from which track
# may be laid once it is reached; `ends`, per end (a, then b): (node index, ()) for a stop, or
# (-1, the paths it leads on to) across an edge or through a junction; `terminal`.
PathStep = tuple[tuple[tuple[str, int], ...], tuple[tuple[int, tuple[PathRef, ...]], ...], bool]


class HexTrack:
    """The track of one hex compiled for walks over one gauge: per path its PathStep, per node
    the paths of that gauge leaving it, and which nodes are cities (tokens may block them).
    It reads the tiles of this hex and of its neighbours only (MapDef.facing)."""

    __slots__ = ("paths", "node_paths", "cities")

    def __init__(self, paths: tuple[PathStep, ...], node_paths: tuple[tuple[PathRef, ...], ...],
                 cities: frozenset[int]) -> None:
        self.paths, self.node_paths, self.cities = paths, node_paths, cities


class TilesView:
    """Placed tiles, edge links (board.linked for the six edges) and compiled track of one tiles
    dict, filled in as walks ask: they read the tiles alone, so every walk of that board shares
    them. A view made for a tiles dict that differs from an earlier one in a few hexes starts
    from that one's entries, less those reading a changed hex."""

    __slots__ = ("m", "b", "tiles", "closed", "placed", "linked", "tracks")

    def __init__(self, m: MapDef, b: BoardState) -> None:
        self.m, self.b, self.tiles, self.closed = m, b, b.tiles, closed_set(b.closed)
        self.placed: dict[str, Placed] = {}
        self.linked: dict[str, tuple[str | None, ...]] = {}
        self.tracks: dict[str, dict[str, HexTrack]] = {}

    def inherit(self, parent: TilesView, changed: set[str]) -> None:
        """Take `parent`'s entries except those that read a hex in `changed`: a hex's placed
        tile and compiled track read that hex; a neighbour's links and compiled track read
        what it shows across their common edge (`faces`), so they stay right while that is
        the same."""
        self.placed = _without(parent.placed, changed)
        stale = set(changed)
        impassable = self.m.impassable_colors
        for coord in changed:
            was, now = faces(parent.tile(coord), impassable), faces(self.tile(coord), impassable)
            stale.update(x for x, edge in self.m.facing[coord] if was[edge] != now[edge])
        self.linked = _without(parent.linked, stale)
        self.tracks = {g: _without(hx, stale) for g, hx in parent.tracks.items()}

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
            closed = self.closed
            for edge, other in enumerate(self.m.geometry[coord]):
                if other is not None and closed and (coord, edge) in closed:
                    other = None
                if other is not None:
                    t = self.tile(other)
                    if t.tile.color in impassable and (edge + 3) % 6 not in t.exits:
                        other = None
                row.append(other)
            out = self.linked[coord] = tuple(row)
        return out

    def compiled(self, gauge: str) -> dict[str, HexTrack]:
        out = self.tracks.get(gauge)
        if out is None:
            out = self.tracks[gauge] = {}
        return out

    def compile(self, coord: str, gauge: str) -> HexTrack:
        """The walk's rules for `gauge` applied to the track of `coord` once for all walks:
        the tile's own part (`_shape`) with this hex's neighbours filled in."""
        t = self.tile(coord)
        here = self.links(coord)
        shape, node_fits, cities = _shape(t, gauge)
        steps: list[PathStep] = []
        for edges, ends, terminal, track in shape:
            marks: list[tuple[str, int]] = []
            for e in edges:
                marks.append((coord, e))
                if here[e] is not None:
                    marks.append((here[e], (e + 3) % 6))      # hexgrid.invert
            steps.append((tuple(marks), tuple(
                (-1, self._across(here[end], (end + 3) % 6, track, gauge)) if stop == ACROSS
                else (-1, tuple((coord, j) for j in through)) if stop == THROUGH
                else (stop, ())
                for stop, end, through in ends), terminal))
        node_paths = tuple(tuple((coord, i) for i in fit) for fit in node_fits)
        h = self.compiled(gauge)[coord] = HexTrack(tuple(steps), node_paths, cities)
        return h

    def _across(self, other: str | None, edge: int, track: str, gauge: str) -> tuple[PathRef, ...]:
        """The paths of `other` leaving its `edge` that a walk over `gauge` goes on to from a
        path of `track`."""
        if other is None:
            return ()
        return tuple((other, j) for j in entries(self.tile(other), edge, gauge, track))


ACROSS, THROUGH = -1, -2    # a path end leading across an edge / through a junction


@lru_cache(maxsize=8192)
def _shape(t: Placed, gauge: str) -> tuple[tuple, tuple[tuple[int, ...], ...], frozenset[int]]:
    """A tile's part of its HexTrack for `gauge`, the same wherever it lies: per path (edges,
    per end (node index of a stop, or ACROSS / THROUGH; the end; the paths of the gauge
    through a junction), terminal, gauge); per node the paths of the gauge leaving it; the
    cities."""
    nodes = t.tile.nodes
    shape = []
    for p in t.paths:
        ends: list[tuple[int, int, tuple[int, ...]]] = []
        for end in (p.a, p.b):
            if end < NODE:
                ends.append((ACROSS, end, ()))
            elif nodes[end - NODE].kind == "junction":
                ends.append((THROUGH, end, fitting(t, end, gauge)))
            else:
                ends.append((end - NODE, end, ()))
        shape.append((p.edges, tuple(ends), p.terminal, p.track))
    node_fits = tuple(fitting(t, NODE + n, gauge) for n in range(len(nodes)))
    return tuple(shape), node_fits, frozenset(t.tile.cities)


@lru_cache(maxsize=16384)
def fitting(t: Placed, end: int, gauge: str) -> tuple[int, ...]:
    """The paths of `t` with end `end` (an edge, or NODE + node) that carry `gauge`."""
    fits = FITS.get(gauge, DUAL)
    return tuple(j for j in t.end_paths.get(end, ()) if t.paths[j].track in fits)


@lru_cache(maxsize=16384)
def entries(t: Placed, edge: int, gauge: str, track: str) -> tuple[int, ...]:
    """The paths of `t` leaving `edge` that a walk over `gauge` takes from a path of `track`
    (18xx.games: of the walk's gauge, and fitting the path it comes from)."""
    fits, mine = FITS.get(gauge, DUAL), FITS.get(track, DUAL)
    return tuple(j for j in t.end_paths.get(edge, ())
                 if t.paths[j].track in fits and (track == "dual" or t.paths[j].track in mine))


@lru_cache(maxsize=4096)
def faces(t: Placed, impassable: tuple[str, ...]) -> tuple[tuple[bool, tuple[tuple[int, str], ...]], ...]:
    """Per edge of the tile, what the neighbour across it reads: whether track may cross there
    (board.linked) and the paths (index, gauge) leaving that edge."""
    shut = t.tile.color in impassable
    return tuple((not (shut and e not in t.exits), tuple((j, t.paths[j].track) for j in t.end_paths.get(e, ())))
                 for e in range(6))


def _without(d: dict, drop: set[str]) -> dict:
    out = dict(d)
    for k in drop:
        out.pop(k, None)
    return out


_VIEWS = Memo(64)
_LAST_VIEW = Last()


def forget_views() -> None:
    """Drop every tiles view (the next one built starts from nothing)."""
    _VIEWS.clear()
    _LAST_VIEW.clear()


def tiles_view(m: MapDef, b: BoardState) -> TilesView:
    """The shared TilesView of `b`'s tiles dict (keyed by its id, the entry holding it)."""
    key, held = (id(m), id(b.tiles), b.closed), (m, b.tiles)
    hit = _VIEWS.get(key, held)
    if hit is not None:
        return hit
    view = TilesView(m, b)
    last = _LAST_VIEW.value          # the newest: mostly this board's parent
    if last is not None and last.m is m and last.b.closed == b.closed:
        changed = changed_hexes(last.tiles, b.tiles)
        if changed is not None:
            view.inherit(last, changed)
    _LAST_VIEW.put((), view)
    return _VIEWS.put(key, held, view)


def changed_hexes(old: dict, new: dict, most: int = 4) -> set[str] | None:
    """The hexes whose tiles differ between two tiles dicts; None when more than `most` do
    (a view of its own is then cheaper than sorting out what still holds)."""
    if abs(len(old) - len(new)) > most:
        return None
    differ = old.items() ^ new.items()      # (hex, (tile, rotation)) on one side only
    if len(differ) > 2 * most:
        return None
    out = {c for c, _ in differ}
    return out if len(out) <= most else None


# A board is immutable and every change copies its `tiles` / `tokens` dicts, so a network
# computed for one pair of dicts stays right for as long as they are the board's. Replays and
# step machines ask for the same corporation's network many times per state: kept per map,
# tiles and tokens (core18xx.memo). Callers only read a Reach.
_REACH = Memo(1024)
T = TypeVar("T")


def _cached(kind: str, m: MapDef, b: BoardState, corp: object, make: Callable[[], T]) -> T:
    key = (kind, id(m), id(b.tiles), id(b.tokens), b.closed, corp)
    held = (m, b.tiles, b.tokens)
    hit = _REACH.get(key, held)
    return hit if hit is not None else _REACH.put(key, held, make())


def broad(m: MapDef, b: BoardState, corp: str) -> Reach:
    """The corporation's running network (graph.connected_* in 18xx.games, narrow skipped)."""
    return _cached("broad", m, b, corp, lambda: _broad(m, b, corp))


def railhead_nodes(m: MapDef, b: BoardState, corp: str) -> list[NodeRef]:
    """`token_nodes` less those on `m.no_start_hexes`: the stations a network is walked from."""
    nodes = token_nodes(m, b, corp)
    return [r for r in nodes if r[0] not in m.no_start_hexes] if m.no_start_hexes else nodes


def _broad(m: MapDef, b: BoardState, corp: str) -> Reach:
    starts = railhead_nodes(m, b, corp)
    reach = walk(m, b, starts, corp, "broad")
    links = tiles_view(m, b).links
    for coord, _ in starts:     # a token's hex may be laid from all its edges
        reach.marks.append(tuple((coord, e) for e, other in enumerate(links(coord)) if other is not None))
    return reach


def reaches_stops(m: MapDef, b: BoardState, corp: str, count: int) -> bool:
    """len(broad(m, b, corp).nodes) >= count, walking only as far as that takes unless the
    network is known already (the walk adds nodes in the same order either way)."""
    hit = _REACH.get(("broad", id(m), id(b.tiles), id(b.tokens), b.closed, corp), (m, b.tiles, b.tokens))
    if hit is not None:
        return len(hit.nodes) >= count
    return len(walk(m, b, railhead_nodes(m, b, corp), corp, "broad", enough_nodes=count).nodes) >= count


def narrow(m: MapDef, b: BoardState, corp: str, broad_reach: Reach | None = None) -> Reach:
    """A separate narrow-gauge network: narrow track reachable from any node of the broad
    network, through any node (tokens do not block narrow gauge)."""
    if broad_reach is not None and broad_reach is not broad(m, b, corp):
        return walk(m, b, sorted(broad_reach.nodes), None, "narrow")
    return _cached("narrow", m, b, corp, lambda: walk(m, b, sorted(broad(m, b, corp).nodes), None, "narrow"))


def corporations_reached(m: MapDef, b: BoardState, start: NodeRef, gauge: str = "broad") -> set[str]:
    """Owners of tokens in every city reachable from `start` over `gauge` track, passing
    through all cities (tokens do not block): connectivity for mergers."""
    found = _cached("reached", m, b, (start, gauge), lambda: _corporations_reached(m, b, start, gauge))
    return set(found)


def _corporations_reached(m: MapDef, b: BoardState, start: NodeRef, gauge: str) -> set[str]:
    out: set[str] = set()
    for coord, n in _cities_reached(m, b, start, gauge):
        out.update(o for o in slots(m, b, coord)[n] if o)
    return out


def _cities_reached(m: MapDef, b: BoardState, start: NodeRef, gauge: str) -> tuple[NodeRef, ...]:
    """The cities a walk from `start` reaches when tokens block nothing: that reads the tiles
    alone, so it is kept per tiles dict (a merger moves tokens, not track)."""
    key, held = ("cities", id(m), id(b.tiles), b.closed, start, gauge), (m, b.tiles)
    hit = _REACH.get(key, held)
    if hit is not None:
        return hit
    reach = walk(m, b, [start], None, gauge)
    return _REACH.put(key, held, tuple((coord, n) for coord, n in reach.nodes
                                       if tile_at(m, b, coord).tile.nodes[n].kind == "city"))
