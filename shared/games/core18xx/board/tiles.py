"""Tiles as data: a reader for 18xx.games' compact tile code and the structures it yields.

A tile code is a `;`-separated list of parts, each `type=key:value,key:value`, e.g.
`city=revenue:20;path=a:0,b:_0;path=a:1,b:_0`. Path ends are edges (`0`..`5`) or `_n`, the
n-th node part (city, town, offboard, junction) declared so far. We keep the code strings
as our data (they are the facts: geometry and values) and turn them into frozen structs.

Path ends are encoded as small ints: 0..5 are edges, `NODE + i` is node i of the tile.
Rotating a tile by `r` moves edge e to (e + r) % 6 and leaves nodes alone.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Literal

import msgspec

NODE = 6  # path end encoding: ends >= NODE are nodes (NODE + index)

# 18xx.games' colour order; a normal upgrade goes exactly one step along it.
COLORS = ("white", "yellow", "green", "brown", "gray")
NodeKind = Literal["city", "town", "offboard", "junction"]
Track = Literal["broad", "narrow", "dual"]


class TileError(ValueError):
    pass


# Tiles are static data read in every walk, lay check and route: their structs cache their
# hash (lru_cache keys) and derived tuples (`dict=True`: a __dict__ neither encoded nor compared).
class Node(msgspec.Struct, frozen=True, cache_hash=True):
    kind: NodeKind
    revenue: int = 0
    # phase-coloured revenue (offboards): ((colour, value), ...); empty means `revenue` always
    phase_revenue: tuple[tuple[str, int], ...] = ()
    slots: int = 0  # city token slots (0 for towns/offboards/junctions)
    loc: str | None = None
    part: int = 0  # position among the tile code's parts: 18xx.games names nodes "HEX-part"
    groups: tuple[str, ...] = ()  # a route may visit at most one stop of each group

    @property
    def is_stop(self) -> bool:
        return self.kind != "junction"

    def value(self, phase_colors: tuple[str, ...]) -> int:
        """Revenue in a phase whose tiles are `phase_colors` (latest colour wins; none → 0)."""
        if not self.phase_revenue:
            return self.revenue
        table = dict(self.phase_revenue)
        for color in reversed(phase_colors):
            if color in table:
                return table[color]
        return 0

    @property
    def max_revenue(self) -> int:
        if not self.phase_revenue:
            return self.revenue
        return max(v for _, v in self.phase_revenue)


class Path(msgspec.Struct, frozen=True, cache_hash=True, dict=True):
    a: int
    b: int
    track: Track = "broad"
    terminal: bool = False

    @cached_property
    def edges(self) -> tuple[int, ...]:
        return tuple(e for e in (self.a, self.b) if e < NODE)

    @cached_property
    def nodes(self) -> tuple[int, ...]:
        return tuple(e - NODE for e in (self.a, self.b) if e >= NODE)


class Border(msgspec.Struct, frozen=True):
    edge: int
    type: str | None = None
    cost: int | None = None


class TileDef(msgspec.Struct, frozen=True, cache_hash=True, dict=True):
    name: str
    color: str
    code: str
    nodes: tuple[Node, ...] = ()
    paths: tuple[Path, ...] = ()
    label: str | None = None
    upgrade_cost: int = 0  # terrain cost to lay on this tile (preprinted hexes, or IR2's water)
    terrain: tuple[str, ...] = ()
    borders: tuple[Border, ...] = ()

    @cached_property
    def cities(self) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.nodes) if n.kind == "city")

    @cached_property
    def towns(self) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.nodes) if n.kind == "town")

    @cached_property
    def has_junction(self) -> bool:
        return any(n.kind == "junction" for n in self.nodes)


# node parameters we read (revenue, slots, groups) or that only affect drawing
_NODE_PARAMS = {"revenue", "slots", "groups", "loc", "hide", "visit_cost", "style", "format"}


def _params(text: str) -> dict[str, str]:
    if ":" not in text:
        return {}
    out = {}
    for item in text.split(","):
        key, _, value = item.partition(":")
        out[key] = value
    return out


def _revenue(text: str | None) -> tuple[int, tuple[tuple[str, int], ...]]:
    if not text:
        return 0, ()
    if "|" in text or "_" in text:
        pairs = []
        for item in text.split("|"):
            color, _, value = item.partition("_")
            pairs.append((color, int(value)))
        return 0, tuple(pairs)
    return int(text), ()


def parse(name: str, color: str, code: str) -> TileDef:
    """Read a tile code into a `TileDef` (raises `TileError` on anything we do not model)."""
    nodes: list[Node] = []
    paths: list[Path] = []
    label = None
    cost = 0
    terrain: list[str] = []
    borders: list[Border] = []
    for index, part in enumerate(filter(None, (p.strip() for p in code.split(";")))):
        kind, _, rest = part.partition("=")
        params = _params(rest)
        if kind in ("city", "town", "offboard"):
            unknown = set(params) - _NODE_PARAMS
            if unknown or params.get("visit_cost", "1") != "1":
                # route rules we do not model (visit costs, route:never/optional, ...)
                raise TileError(f"tile {name}: {kind} parameter(s) {sorted(unknown) or ['visit_cost']} not modelled")
            revenue, phased = _revenue(params.get("revenue"))
            slots = int(params.get("slots", 1)) if kind == "city" else 0
            groups = tuple(g for g in params.get("groups", "").split("|") if g)
            nodes.append(Node(kind, revenue, phased, slots, params.get("loc"), index, groups))  # type: ignore[arg-type]
        elif kind == "junction":
            nodes.append(Node("junction", part=index))
        elif kind == "path":
            def end(v: str) -> int:
                if v.startswith("_"):
                    i = int(v[1:])
                    if i >= len(nodes):
                        raise TileError(f"tile {name}: path refers to node {i} not yet declared")
                    return NODE + i
                e = int(v)
                if not 0 <= e <= 5:
                    raise TileError(f"tile {name}: bad edge {v}")
                return e
            track = params.get("track", "broad")
            if track not in ("broad", "narrow", "dual"):
                raise TileError(f"tile {name}: unknown track {track}")
            paths.append(Path(end(params["a"]), end(params["b"]), track, bool(params.get("terminal"))))  # type: ignore[arg-type]
        elif kind == "label":
            label = rest
        elif kind == "upgrade":
            cost += int(params.get("cost", 0))
            if params.get("terrain"):
                terrain.extend(params["terrain"].split("|"))
        elif kind == "border":
            borders.append(Border(int(params["edge"]), params.get("type"),
                                  int(params["cost"]) if "cost" in params else None))
        elif kind in ("icon", "frame", "stripes"):
            continue  # drawing only
        else:
            raise TileError(f"tile {name}: part {kind!r} is not modelled")
    return TileDef(name, color, code, tuple(nodes), tuple(paths), label, cost, tuple(terrain), tuple(borders))


# ---- rotated views ---------------------------------------------------------------------------

class Placed(msgspec.Struct, frozen=True, cache_hash=True, dict=True):
    """A tile at a rotation: paths with absolute edges, plus derived facts used everywhere."""

    tile: TileDef
    rotation: int
    paths: tuple[Path, ...]
    exits: frozenset[int]
    # per node index: the edges its paths reach (18xx.games' city_town_edges, by node)
    node_edges: tuple[tuple[int, ...], ...]

    @cached_property
    def track_key(self) -> frozenset[tuple[int, int, str]]:
        """The track as a set of (end, end, gauge): rotations with the same key lay the same track."""
        return frozenset((p.a, p.b, p.track) for p in self.paths)

    @cached_property
    def end_paths(self) -> dict[int, tuple[int, ...]]:
        """Path end (edge, or NODE + node) -> indices of the paths with that end, in order."""
        out: dict[int, list[int]] = {}
        for i, p in enumerate(self.paths):
            out.setdefault(p.a, []).append(i)
            if p.b != p.a:
                out.setdefault(p.b, []).append(i)
        return {end: tuple(v) for end, v in out.items()}


def _rot(end: int, r: int) -> int:
    return (end + r) % 6 if end < NODE else end


@lru_cache(maxsize=8192)
def placed(tile: TileDef, rotation: int) -> Placed:
    paths = tuple(Path(_rot(p.a, rotation), _rot(p.b, rotation), p.track, p.terminal) for p in tile.paths)
    exits = frozenset(e for p in paths for e in p.edges)
    node_edges = tuple(
        tuple(sorted({e for p in paths if i in p.nodes for e in p.edges})) for i in range(len(tile.nodes))
    )
    return Placed(tile, rotation, paths, exits, node_edges)


def path_ends(tile: TileDef, paths: tuple[Path, ...], index: int) -> frozenset[tuple[str, int]]:
    """The ends of path `index` for comparisons: ('e', edge) or (node kind, 0).

    Nodes compare by kind only (a city end matches any city end), as 18xx.games does; a
    junction end stands for the far ends of every other path through that junction.
    """
    out: set[tuple[str, int]] = set()
    p = paths[index]
    for end in (p.a, p.b):
        if end < NODE:
            out.add(("e", end))
            continue
        node = tile.nodes[end - NODE]
        if node.kind != "junction":
            out.add((node.kind, 0))
            continue
        for j, q in enumerate(paths):
            if j == index or end not in (q.a, q.b):
                continue
            for far in (q.a, q.b):
                if far < NODE:
                    out.add(("e", far))
                elif tile.nodes[far - NODE].kind != "junction":
                    out.add((tile.nodes[far - NODE].kind, 0))
    return frozenset(out)


def gauge_matches(mine: str, other: str) -> bool:
    """18xx.games' tracks_match?: broad fits broad/dual, narrow fits narrow/dual, dual fits dual."""
    if mine == "broad":
        return other in ("broad", "dual")
    if mine == "narrow":
        return other in ("narrow", "dual")
    return other == "dual"


@lru_cache(maxsize=65536)
def path_subset(old: Placed, new: Placed) -> bool:
    """Every path of `old` is contained in some path of `new` (same ends, matching gauge)."""
    new_ends = [path_ends(new.tile, new.paths, j) for j in range(len(new.paths))]
    for i, p in enumerate(old.paths):
        ends = path_ends(old.tile, old.paths, i)
        if not any(ends <= ne and gauge_matches(p.track, q.track) for ne, q in zip(new_ends, new.paths)):
            return False
    return True
