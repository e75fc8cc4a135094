"""A corporation's network walked exactly as 18xx.games' Graph walks it, for 1841.

The core's network walk treats track as an undirected graph of paths. 18xx.games' walk
(`Graph#compute`, `Node#walk`, `Path#walk`; facts, own code) is directed and depth first: a
path entered across a hex edge goes on only by its other end, so two paths of one tile that
share an edge (the straight and the curve of a green 23) are not joined by that edge alone; a
path once walked is not walked again from its other side in the same walk; no hex edge is
crossed twice along one branch; a walk goes on through a node only after the path reaching it
is marked, before that path's far edge is crossed. Which tracks a corporation reaches, and so
which lays, tokens and bases 18xx.games allows, follow from that order; 1841's per-base lay
rule reads it for every lay. So 1841's board walks its networks here:

- `network(m, b, corp, regions=...)`: all its bases (tokens not on passes), each walked with
  the others' cities as already visited (18xx.games' full compute);
- `from_base(m, b, corp, base, regions=...)`: one base alone (`*_by_token`);
- `regions`: the province borders standing (the region graph: every path of a hex touching one
  of its borders is skipped, and no lay is opened across it), or none (the plain graph).
Neighbours are 18xx.games' `hex.neighbors`: a border blocks the hex that lists it (1841's
map lists one, G3's toward I3, on one side only); sea and off-board hexes only where their
track points back.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable

from shared.games.core18xx.board import state as S
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.network import NodeRef, PathRef, Reach
from shared.games.core18xx.board.state import FREE, BoardState
from shared.games.core18xx.board.tiles import NODE, Placed
from shared.games.core18xx.memo import Memo

NO_BORDERS: frozenset[tuple[str, int]] = frozenset()


# (the walk's answer is the core's `network.Reach`: paths, nodes, and the marks `hexes` reads)


class _Board:
    """The tiles as the walk reads them, built once per tiles dict and borders."""

    def __init__(self, m: MapDef, b: BoardState, regions: frozenset[tuple[str, int]]) -> None:
        # only `b.tiles` is read (the memo keeps one _Board per tiles dict)
        assert m.one_sided_borders, "18xx.games' neighbours: a border blocks the hex listing it"
        self.m, self.b, self.regions = m, b, regions
        self.placed: dict[str, Placed] = {}
        self.links: dict[str, tuple[str | None, ...]] = {}
        self.skip: set[PathRef] = set()
        for coord, edge in regions:
            if coord in m.hexes:
                t = self.tile(coord)
                for i, p in enumerate(t.paths):
                    if edge in (p.a, p.b):
                        self.skip.add((coord, i))

    def with_tile(self, b: BoardState, coord: str) -> _Board:
        """This board's walk data for `b`, whose tiles differ from this one's on `coord`
        alone (a trial lay): the neighbours stay (a lay never changes a hex's colour class)."""
        out = _Board.__new__(_Board)
        out.m, out.b, out.regions = self.m, b, self.regions
        out.placed = dict(self.placed)
        out.placed[coord] = S.tile_at(self.m, b, coord)
        out.links = self.links
        out.skip = {r for r in self.skip if r[0] != coord}
        for c, edge in self.regions:
            if c == coord:
                for i, p in enumerate(out.placed[coord].paths):
                    if edge in (p.a, p.b):
                        out.skip.add((coord, i))
        return out

    def tile(self, coord: str) -> Placed:
        t = self.placed.get(coord)
        if t is None:
            t = self.placed[coord] = S.tile_at(self.m, self.b, coord)
        return t

    def neighbours(self, coord: str) -> tuple[str | None, ...]:
        row = self.links.get(coord)
        if row is None:
            out: list[str | None] = []
            impassable = self.m.impassable_colors
            # (the map's own neighbours: 1841's borders are one-sided, a border blocking the
            # hex that lists it, as 18xx.games' `hex.neighbors`)
            for edge, other in enumerate(self.m.geometry[coord]):
                if other is not None:
                    t = self.tile(other)
                    if t.tile.color in impassable and (edge + 3) % 6 not in t.exits:
                        other = None
                out.append(other)
            row = self.links[coord] = tuple(out)
        return row


_BOARDS = Memo(64)
_TRIALS = Memo(8)       # trial lays' boards: many, short-lived, never evicting the boards they came from
_NETS = Memo(2048)


def _board(m: MapDef, b: BoardState, regions: frozenset[tuple[str, int]]) -> _Board:
    key, held = (id(m), id(b.tiles), regions), (m, b.tiles)
    hit = _TRIALS.get(key, held) or _BOARDS.get(key, held)
    return hit if hit is not None else _BOARDS.put(key, held, _Board(m, b, regions))


def _slots(b: BoardState, t: Placed, coord: str) -> tuple[tuple[str, ...], ...]:
    have = b.tokens.get(coord)
    return have if have is not None else tuple((FREE,) * n.slots for n in t.tile.nodes)


def prime(m: MapDef, before: BoardState, after: BoardState, coord: str,
          regions: frozenset[tuple[str, int]] = NO_BORDERS) -> None:
    """Let walks of `after` (a trial lay on `coord` of `before`) reuse what walks of `before`
    built: only that hex's tile is read anew."""
    key, held = (id(m), id(after.tiles), regions), (m, after.tiles)
    if _TRIALS.get(key, held) is None:
        _TRIALS.put(key, held, _board(m, before, regions).with_tile(after, coord))


def _blocks(b: BoardState, t: Placed, coord: str, node: int, corp: str) -> bool:
    kind = t.tile.nodes[node].kind
    if kind == "offboard":
        return True
    if kind != "city":
        return False
    row = _slots(b, t, coord)[node]
    return corp not in row and FREE not in row


class _Found(Exception):
    """A goal-directed walk met its goal."""


def _walk(g: _Board, b: BoardState, corp: str, start: NodeRef, seen_nodes: set[NodeRef], net: Reach,
          goal_paths: frozenset[PathRef] = frozenset(), goal_nodes: frozenset[NodeRef] = frozenset(),
          tries: dict[str, list[int]] | None = None, probe: Collection[NodeRef] = (),
          met: list[NodeRef] | None = None) -> None:
    """One `Node#walk` from `start` with its own visited paths (18xx.games' order). A walk that
    has left a hex by an edge two paths of its tile share is "converging": what it visits from
    there is unmarked again when it returns, so other ways may walk it too. `g` holds the
    tiles (shared by boards with the same tiles dict), `b` the tokens that block. With goals,
    raises `_Found` as soon as it marks one of them (the walk so far is 18xx.games' up to
    there). With `tries`, records for each hex without track the edges the walk tried to enter
    it by, in order (`entries`). With `met`, records each node of `probe` the walk goes on to
    (walked or, if already visited, turned back at)."""
    visited: set[PathRef] = set()
    # per hex, the edges the branch being walked has crossed, as bits (an edge is crossed at
    # most once along a branch, so a count is never above one)
    crossing: dict[str, int] = {}
    paths_out, nodes_out, marks = net.paths, net.nodes, net.marks
    skip_paths, regions = g.skip, g.regions
    goals = bool(goal_paths or goal_nodes)
    # (the hot loop of every walk: the board's tile and neighbour rows read from its dicts,
    # built by `tile` / `neighbours` on a first visit)
    placed_get, links_get, tile, neighbours = g.placed.get, g.links.get, g.tile, g.neighbours

    def node_walk(ref: NodeRef, converging: bool) -> None:
        if ref in probe:
            met.append(ref)     # type: ignore[union-attr]
        if ref in seen_nodes:
            return
        seen_nodes.add(ref)
        coord, n = ref
        t = g.tile(coord)
        end = NODE + n
        for i, p in enumerate(t.paths):
            if p.a == end or p.b == end:
                path_walk(coord, i, None, ref, converging)
        if converging:
            seen_nodes.discard(ref)

    def path_walk(coord: str, i: int, skip: int | None, from_node: NodeRef | None, converging: bool) -> None:
        ref = (coord, i)
        if ref in visited or ref in skip_paths:
            return
        t = placed_get(coord)
        if t is None:
            t = tile(coord)
        p = t.paths[i]
        a, z = p.a, p.b
        crossed = crossing.get(coord, 0)
        if crossed and ((a < NODE and crossed >> a & 1) or (z < NODE and crossed >> z & 1)):
            return
        visited.add(ref)
        # the graph's block: mark the path, its nodes and its exits, then on through its nodes
        paths_out.add(ref)
        if goals and ref in goal_paths:
            raise _Found
        links = links_get(coord)
        if links is None:
            links = neighbours(coord)
        for e in (a, z):
            if e < NODE:
                side = (coord, e)
                marks.append((side,))
                other = links[e]
                if other is not None and side not in regions:
                    marks.append(((other, (e + 3) % 6),))
            else:
                nodes_out.add((coord, e - NODE))
                if goals and (coord, e - NODE) in goal_nodes:
                    raise _Found
        if not p.terminal:
            for e in (a, z):
                if e >= NODE:
                    nxt = (coord, e - NODE)
                    if nxt != from_node and not _blocks(b, t, coord, e - NODE, corp):
                        node_walk(nxt, converging)
        for e in (a, z):
            if e >= NODE or e == skip:
                continue
            other = links[e]
            if other is None:
                continue
            bit = 1 << e
            crossing[coord] = crossing.get(coord, 0) | bit
            back = (e + 3) % 6
            onward = converging or len(t.end_paths.get(e, ())) > 1
            ot = placed_get(other)
            if ot is None:
                ot = tile(other)
            if tries is not None:
                tries.setdefault(other, []).append(back)
            for j in ot.end_paths.get(back, ()):
                path_walk(other, j, back, None, onward)
            crossing[coord] &= ~bit
        if converging:
            visited.discard(ref)

    try:
        node_walk(start, False)
    finally:
        # the two closures hold each other: unhooked, the walk's sets go at once, not at
        # the collector's next pass
        node_walk = path_walk = None     # type: ignore[assignment]


def network_reaches(m: MapDef, b: BoardState, corp: str, paths: frozenset[PathRef],
                    regions: frozenset[tuple[str, int]] = NO_BORDERS, only: Collection[NodeRef] | None = None) -> bool:
    """Whether the whole network (`network`) reaches any of `paths`, each base's walk stopping
    at its first goal (`only`: just those bases' walks)."""
    hit = _NETS.get(("all", id(m), id(b.tiles), id(b.tokens), regions, corp), (m, b.tiles, b.tokens))
    if hit is not None and only is None:
        return bool(hit.paths & paths)
    _deep()
    g = _board(m, b, regions)
    starts = railheads(m, b, corp)
    for start in (starts if only is None else [s for s in starts if s in only]):
        try:
            _walk(g, b, corp, start, {s for s in starts if s != start}, Reach(), paths)
        except _Found:
            return True
    return False


def _start_walk(m: MapDef, b: BoardState, corp: str, start: NodeRef, whole: bool,
                regions: frozenset[tuple[str, int]]) -> tuple[Reach, dict[str, list[int]], bool]:
    """One base's walk, kept per board: what it reached, for each hex the edges it tried to
    enter it by (`entries`), and whether it went on to another base's city. `whole`: as in a
    walk of the whole network (the other bases already visited), else the base alone. The
    whole network, one base's network, the entries a lay's check reads and the forced train
    purchase are read off the same few walks."""
    key, held = ("walk", id(m), id(b.tiles), id(b.tokens), regions, corp, start, whole), (m, b.tiles, b.tokens)
    hit = _NETS.get(key, held)
    if hit is not None:
        return hit
    # the two walks of a base differ only from where one goes on to another base's city (the
    # one walk turns back there, the other goes through): one that never does is both
    twin = _NETS.get(key[:-1] + (not whole,), held)
    # the same base's last walk, on whatever board: still this board's if no hex it read changed
    recent_key = ("recent", id(m), regions, corp, start, whole)
    recent = _RECENT.get(recent_key, (m,))
    if twin is not None and not twin[2]:
        found = twin
    elif recent is not None and _unread(m, recent[0], recent[1], b, recent[2][1], start):
        found = recent[2]
    else:
        others = [s for s in railheads(m, b, corp) if s != start]
        _deep()
        tries: dict[str, list[int]] = {}
        met: list[NodeRef] = []
        net = Reach()
        _walk(_board(m, b, regions), b, corp, start, set(others) if whole else set(), net, tries=tries,
              probe=frozenset(others), met=met)
        found = (net, tries, bool(met))
    _RECENT.put(recent_key, (m,), (b.tiles, b.tokens, found))
    return _NETS.put(key, held, found)


# each base's last walk, with the tiles and tokens it was walked on
_RECENT = Memo(512)


def _unread(m: MapDef, tiles: dict, tokens: dict, b: BoardState, tries: dict[str, list[int]], start: NodeRef) -> bool:
    """Whether a walk from `start` on `tiles` and `tokens`, which tried to enter the hexes of
    `tries`, reads nothing that differs on `b`. A walk reads the tile and tokens of its start
    hex and of each hex it tries to enter, and of a neighbour of those only whether it is of an
    impassable colour and its exits (`_Board.neighbours`): a hex changed elsewhere, in a colour
    a walk may cross both before and after, leaves the walk as it was."""
    changed: set[str] = set()
    for old, new in ((tiles, b.tiles), (tokens, b.tokens)):
        if old is not new:
            changed.update(c for c in old.keys() | new.keys() if old.get(c) != new.get(c))
    impassable = m.impassable_colors
    for coord in changed:
        if coord == start[0] or coord in tries or coord not in m.hexes:
            return False
        before, after = tiles.get(coord), b.tiles.get(coord)
        colours = (m.tiles[before[0]].color if before else m.hexes[coord].tile.color,
                   m.tiles[after[0]].color if after else m.hexes[coord].tile.color)
        if colours[0] in impassable or colours[1] in impassable:
            return False
    return True


def entries(m: MapDef, b: BoardState, corp: str, start: NodeRef, whole: bool = False) -> dict[str, list[int]]:
    """For each hex, the edges by which the plain-graph walk from `start` tries to enter it, in
    order (`whole`: as a walk of the whole network, the other bases already visited; else the
    base alone). Until a walk first enters a hex, nothing it reads depends on that hex's tile:
    on a board where only that hex's tile differs, the walk goes in at the first of these edges
    the new tile has track on (`entry`)."""
    return _start_walk(m, b, corp, start, whole, NO_BORDERS)[1]


def entry(m: MapDef, b: BoardState, corp: str, start: NodeRef, coord: str, new: Placed,
          whole: bool = False) -> int | None:
    """The edge by which the walk from `start` first enters `coord` once `new` lies there
    instead of `b`'s tile (None: it never does), for a walk not starting on `coord`."""
    return next((e for e in entries(m, b, corp, start, whole).get(coord, ()) if e in new.end_paths), None)


def sure_hit(m: MapDef, b: BoardState, corp: str, start: NodeRef, coord: str, new: Placed, goals: Collection[int],
             whole: bool = False, after: BoardState | None = None) -> bool | None:
    """Whether the plain-graph walk from `start` on `b` with `new` laid on `coord` reaches one
    of the new tile's paths `goals`, when that is known without walking: False if it never
    enters the hex; True if a goal path leaves by the edge it enters by (it walks every path
    there), or (given the board `after` the lay, whose tokens block) the first path there leads
    to a city or town of the tile the walk goes on through, which a goal path touches (walked at
    once, before anything else of the hex: every path of that node); None otherwise."""
    if start[0] == coord:
        return None
    e = entry(m, b, corp, start, coord, new, whole)
    if e is None:
        return False
    at_edge = new.end_paths[e]
    if any(j in goals for j in at_edge):
        return True
    if after is None:
        return None
    seen = {s for s in railheads(m, b, corp) if s != start} if whole else set()
    row = _slots(after, new, coord)
    p = new.paths[at_edge[0]]
    if not p.terminal:
        for end in (p.a, p.b):
            if end < NODE:
                continue
            n = end - NODE
            kind = new.tile.nodes[n].kind
            if (coord, n) in seen or kind == "offboard" or (kind == "city" and corp not in row[n] and FREE not in row[n]):
                continue
            if any(end in (new.paths[g].a, new.paths[g].b) for g in goals):
                return True
    return None


def sure_node_hit(m: MapDef, b: BoardState, corp: str, start: NodeRef, coord: str, new: Placed) -> bool | None:
    """Whether the plain-graph walk of `start` alone on `b` with `new` laid on `coord` reaches
    a node of the new tile, when known without walking: False if it never enters the hex; True
    if the first path by the edge it enters at touches a node (the first thing it walks there,
    marking its nodes); None otherwise (or for a walk starting on `coord`)."""
    if start[0] == coord:
        return None
    e = entry(m, b, corp, start, coord, new)
    if e is None:
        return False
    p = new.paths[new.end_paths[e][0]]
    return True if p.a >= NODE or p.b >= NODE else None


def base_reaches(m: MapDef, b: BoardState, corp: str, base: NodeRef, paths: frozenset[PathRef] = frozenset(),
                 nodes: frozenset[NodeRef] = frozenset(), regions: frozenset[tuple[str, int]] = NO_BORDERS) -> bool:
    """Whether the walk of one base alone reaches any of `paths` or `nodes`: `from_base`'s
    answer, stopping at the first goal it meets."""
    if base in nodes:
        return True
    _deep()
    try:
        _walk(_board(m, b, regions), b, corp, base, set(), Reach(), paths, nodes)
    except _Found:
        return True
    return False


def _deep() -> None:
    # a walk recurses once per path along a line of track: allow the longest map's
    if sys.getrecursionlimit() < 20000:
        sys.setrecursionlimit(20000)


def railheads(m: MapDef, b: BoardState, corp: str) -> list[NodeRef]:
    return [r for r in S.token_hexes(b, corp) if r[0] not in m.no_start_hexes]


def _token_marks(g: _Board, net: Reach, starts: Iterable[NodeRef]) -> None:
    for coord, _ in starts:
        for e, other in enumerate(g.neighbours(coord)):
            if other is not None:
                net.marks.append(((coord, e),))


def network(m: MapDef, b: BoardState, corp: str, regions: frozenset[tuple[str, int]] = NO_BORDERS) -> Reach:
    """The corporation's whole network (`connected_paths/nodes/hexes`)."""
    key, held = ("all", id(m), id(b.tiles), id(b.tokens), regions, corp), (m, b.tiles, b.tokens)
    hit = _NETS.get(key, held)
    if hit is not None:
        return hit
    g = _board(m, b, regions)
    starts = railheads(m, b, corp)
    net = Reach()
    for start in starts:
        net.nodes.add(start)
        one = _start_walk(m, b, corp, start, True, regions)[0]
        net.paths |= one.paths
        net.nodes |= one.nodes
        net.marks += one.marks
    _token_marks(g, net, starts)
    return _NETS.put(key, held, net)


def from_base(m: MapDef, b: BoardState, corp: str, base: NodeRef,
              regions: frozenset[tuple[str, int]] = NO_BORDERS) -> Reach:
    """The network of one base alone (`connected_*_by_token`)."""
    key, held = ("one", id(m), id(b.tiles), id(b.tokens), regions, corp, base), (m, b.tiles, b.tokens)
    hit = _NETS.get(key, held)
    if hit is not None:
        return hit
    one = _start_walk(m, b, corp, base, False, regions)[0]
    net = Reach()
    net.nodes.add(base)
    net.nodes |= one.nodes
    net.paths = one.paths      # (read only, as every answer here)
    net.marks = list(one.marks)
    _token_marks(_board(m, b, regions), net, [base])
    return _NETS.put(key, held, net)


def route_train_purchase(m: MapDef, b: BoardState, corp: str, never: Collection[str] = ()) -> bool:
    """Whether the corporation must buy a train (18xx.games `MUST_BUY_TRAIN = :route`, read by
    `Graph#route_info`): some base's walk, in the map's hex order, with the others' cities as
    visited, reaches two `:mandatory` stops (cities, off-boards and towns not on the `never`
    hexes: passes and ports are `route: :never`) on paths no earlier base's walk reached. The
    trains' lengths do not matter, nor whether a route there could pay."""
    key, held = ("must_buy", id(m), id(b.tiles), id(b.tokens), corp, tuple(never)), (m, b.tiles, b.tokens)
    hit = _NETS.get(key, held)
    if hit is not None:
        return hit
    return _NETS.put(key, held, _route_train_purchase(m, b, corp, never))


def _route_train_purchase(m: MapDef, b: BoardState, corp: str, never: Collection[str]) -> bool:
    _deep()
    g = _board(m, b, NO_BORDERS)
    order = {c: i for i, c in enumerate(m.hexes)}     # 18xx.games walks its bases in `hexes` order
    starts = sorted(railheads(m, b, corp), key=lambda r: (order.get(r[0], len(order)), r[1]))
    reached: set[PathRef] = set()
    for start in starts:
        net = _start_walk(m, b, corp, start, True, NO_BORDERS)[0]
        fresh = net.paths - reached
        reached |= net.paths
        stops: set[NodeRef] = set()
        for coord, i in fresh:
            t = g.tile(coord)
            for n in t.paths[i].nodes:
                if t.tile.nodes[n].kind != "junction" and coord not in never:
                    stops.add((coord, n))
        if len(stops) > 1:
            return True
    return False
