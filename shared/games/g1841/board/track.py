"""1841's track lays: how many a corporation has, which are legal next, and their cost.

18xx.games (`TILE_LAYS`, step/track.rb, `upgrades_to?`, `legal_tile_rotation?`, facts; own code):
- a major lays one tile per base (a railhead: a station token in a city, not on a pass) in
  phase 2, at most two in phases 3 and 4, one from phase 5; a minor always one; the turn's
  second and later lays may not upgrade a hex laid this turn (`cannot_reuse_same_hex`);
- every lay must connect to a base not used by an earlier lay of the turn: the hex must be
  reached from such a base alone, and after the lay some new track (or, failing that, a node of
  the tile) must be reached from it; the earlier lays claim their bases in turn, each the first
  base (in the corporation's token order) its new track reaches, on the board as it is now;
  that check walks the plain graph, borders or not (`find_railhead`);
- track reach is walked on the region graph in phase 2 (no standing border crossed) and on the
  plain graph after; tile exits may face a border (the border stops walks, not track);
- passes and only passes replace passes, of the same size (`upgrades_to?`);
- Venezia's yellow 601 lies in its printed rotation only (`NO_ROTATION_TILES`);
- everything else is the core's (colour steps, old track kept, semi-restrictive new track,
  terrain cost of the replaced hex, which a lay must be able to pay).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from shared.games.core18xx.board import network
from shared.games.core18xx.board import track as core
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.network import NodeRef
from shared.games.core18xx.board.state import BoardError, BoardState, lay_track, tile_at
from shared.games.core18xx.board.tiles import Placed, gauge_matches, path_ends, placed
from shared.games.g1841 import data
from shared.games.g1841.board import graph, regions

Kind = Literal["major", "minor"]
# the core checks tiles and exits; new track is checked here, on 18xx.games' graph
PERMISSIVE = core.TrackRules(restriction="permissive")


def phase_colors(variant: str, phase: int | str) -> tuple[str, ...]:
    """The tile colours a phase allows."""
    name = str(regions.phase_number(phase))
    return tuple(next(p["tiles"] for p in data.entities(variant)["phases"] if p["name"] == name))


def railheads(m: MapDef, b: BoardState, corp: str, order: Sequence[NodeRef | str] | None = None) -> list[NodeRef]:
    """The corporation's bases: its station tokens in cities, not on passes. `order` is its
    token order (18xx.games' `corporation.tokens`, which decides which base an earlier lay
    claims), as hexes or (hex, city): a corporation has one token per hex, and a city's index
    may change when its tile is upgraded; without it, the board's order."""
    here = [r for r in network.token_nodes(m, b, corp) if r[0] not in m.no_start_hexes]
    if order is None:
        return here
    rank: dict[str, int] = {}
    for i, item in enumerate(order):
        rank.setdefault(item if isinstance(item, str) else item[0], i)
    return sorted(here, key=lambda r: rank.get(r[0], len(rank)))


def lays_allowed(kind: Kind, phase: int | str, bases: int) -> int:
    """How many tiles the corporation may lay this turn (`num_possible_lays`), capped by the
    five entries of 1841's TILE_LAYS."""
    if kind != "major":
        return 1
    n = regions.phase_number(phase)
    allowed = bases if n == 2 else min(bases, 2) if n <= 4 else 1
    return min(allowed, len(data.entities("default")["tile_lays_per_base"]))


def _new_path_indices(old: Placed, new: Placed) -> list[int]:
    """Paths of `new` not kept from `old` (18xx.games' `old_paths.find { np <= path }` fails)."""
    old_ends = [(path_ends(old.tile, old.paths, i), p) for i, p in enumerate(old.paths)]
    out = []
    for j, np in enumerate(new.paths):
        ends = path_ends(new.tile, new.paths, j)
        if not any(ends <= oe and gauge_matches(np.track, op.track) for oe, op in old_ends):
            out.append(j)
    return out


def claimed_base(m: MapDef, b_open: BoardState, corp: str, bases: Sequence[NodeRef], coord: str,
                 old: Placed, new: Placed) -> NodeRef | None:
    """The base a lay of `new` over `old` on `coord` connects to (`find_railhead`), on the plain
    board `b_open` holding `new`: the first base reaching some new path of the tile (a new path
    of an upgrade counts only if the whole network reaches it), else the first reaching one of
    the tile's nodes."""
    if not bases:
        return None
    full = graph.network(m, b_open, corp)
    for j in _new_path_indices(old, new):
        if old.paths and (coord, j) not in full.paths:
            continue
        for base in bases:
            if (coord, j) in graph.from_base(m, b_open, corp, base).paths:
                return base
    for n in range(len(new.tile.nodes)):
        for base in bases:
            if (coord, n) in graph.from_base(m, b_open, corp, base).nodes:
                return base
    return None


def new_track_ok(m: MapDef, after: BoardState, corp: str, coord: str, old: Placed, new: Placed,
                 regions: frozenset[tuple[str, int]], before: BoardState | None = None) -> bool:
    """18xx.games' `check_track_restrictions` (semi-restrictive), on the board after the lay as
    the track graph walks it: every old city or town kept with its exits, and some new track
    of the tile reached, or a reached stop's value changed (a first tile on a hex always
    passes)."""
    for i, node in enumerate(old.tile.nodes):
        if node.kind in ("city", "town") and not any(
                n.kind in ("city", "town") and set(old.node_edges[i]) <= set(new.node_edges[k])
                for k, n in enumerate(new.tile.nodes)):
            return False
    if not old.paths:
        return True
    old_ends = [(path_ends(old.tile, old.paths, i), p) for i, p in enumerate(old.paths)]
    counting: set[int] = set()        # new paths that would pass the rule if reached
    for j, np in enumerate(new.paths):
        ends = path_ends(new.tile, new.paths, j)
        op = next((p for oe, p in old_ends if ends <= oe and gauge_matches(np.track, p.track)), None)
        if op is None or sorted(old.tile.nodes[n].max_revenue for n in op.nodes) != sorted(
                new.tile.nodes[n].max_revenue for n in np.nodes):
            counting.add(j)
    if not counting:
        return False
    if before is not None:
        return _whole_reaches(m, before, after, corp, coord, new, counting, regions)
    return graph.network_reaches(m, after, corp, frozenset((coord, j) for j in counting), regions)


def unused_bases(m: MapDef, b: BoardState, corp: str, start: BoardState, laid: Sequence[str],
                 order: Sequence[NodeRef | str] | None = None) -> list[NodeRef]:
    """The bases no lay of this turn has claimed yet. `start` is the board when the turn's
    first lay was made, `laid` the hexes laid since, in order; `b` the board now."""
    bases = railheads(m, b, corp, order)
    b_open = regions.open_board(m, b)
    for coord in laid:
        got = claimed_base(m, b_open, corp, bases, coord, tile_at(m, start, coord), tile_at(m, b, coord))
        if got is not None:
            bases.remove(got)
    return bases


def _moved(m: MapDef, after: BoardState, corp: str, bases: list[NodeRef], coord: str) -> list[NodeRef]:
    """`bases` on the board after a lay on `coord`, whose cities may be numbered anew."""
    if not any(c == coord for c, _ in bases):
        return bases
    there = [r for r in network.token_nodes(m, after, corp) if r[0] == coord]
    return [there[0] if c == coord and there else (c, n) for c, n in bases]


def pass_size(m: MapDef, b: BoardState, coord: str, variant: str) -> int:
    """The size of the pass on `coord` now (0: no pass)."""
    laid = b.tiles.get(coord)
    if laid is None:
        return data.passes(variant).get(coord, 0)
    return data.pass_tiles(variant).get(laid[0], 0)


def legal_lays(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str, kind: Kind,
               start: BoardState, laid: Sequence[str] = (), cash: int | None = None,
               order: Sequence[NodeRef | str] | None = None, only_hex: str | None = None,
               only_tile: str | None = None, only_rotation: int | None = None) -> list[core.Lay]:
    """Every lay the corporation may make next this turn (empty when it has none left).

    `b`: the board now (borders closed or not: they are set here from `phase`); `start` and
    `laid`: the board at the turn's first lay and the hexes laid since (see `unused_bases`);
    `cash`: what it can spend; `order`: its token order."""
    bases = railheads(m, b, corp, order)
    if len(laid) >= lays_allowed(kind, phase, len(bases)):
        return []
    slot = core.lay_slot(data.entities(variant)["tile_lays_per_base"], len(laid), False)
    if slot is None:
        return []
    free = unused_bases(m, b, corp, start, laid, order)
    if not free:
        return []
    b_open = regions.open_board(m, b)
    shut = regions.borders(variant, phase) if regions.phase_number(phase) == 2 else graph.NO_BORDERS
    no_rotation = set(data.map_data(variant).get("no_rotation_tiles", ()))
    pass_tiles = data.pass_tiles(variant)
    lays = core.legal_lays(m, b_open, corp, phase_colors(variant, phase), slot, cash=cash,
                           laid_hexes=frozenset(laid), reach=graph.network(m, b_open, corp, shut),
                           rules=PERMISSIVE, only_hex=only_hex, only_tile=only_tile, only_rotation=only_rotation)
    out = []
    verdicts: dict[tuple[str, str, frozenset], bool] = {}   # rotations laying the same track agree
    for lay in lays:
        # (each base's reach walked only when the bases before it do not reach the hex)
        if not any(lay.hex in graph.from_base(m, b_open, corp, base, shut).hexes for base in free):
            continue
        if lay.tile in no_rotation and lay.rotation != 0:
            continue
        if pass_size(m, b, lay.hex, variant) != pass_tiles.get(lay.tile, 0):
            continue
        new = placed(m.tiles[lay.tile], lay.rotation)
        key = (lay.hex, lay.tile, new.track_key)
        if key not in verdicts:
            verdicts[key] = _lay_connects(m, b_open, corp, free, lay.hex, new, shut)
        if verdicts[key]:
            out.append(lay)
    return out


def _lay_connects(m: MapDef, b_open: BoardState, corp: str, free: list[NodeRef], coord: str, new: Placed,
                  shut: frozenset[tuple[str, int]]) -> bool:
    """The checks 18xx.games makes once a tile is down: new track, and a base not used yet."""
    old = tile_at(m, b_open, coord)
    after = lay_track(m, b_open, coord, new.tile.name, new.rotation)
    for borders in {shut, graph.NO_BORDERS}:
        graph.prime(m, b_open, after, coord, borders)
    if not new_track_ok(m, after, corp, coord, old, new, shut, b_open):
        return False
    # `claimed_base(...) is not None`, each walk stopping at its first goal, or answered from
    # where it would enter the hex (graph.sure_hit)
    bases = _moved(m, after, corp, free, coord)
    fresh = _new_path_indices(old, new)
    if old.paths:
        fresh = [j for j in fresh if _whole_reaches(m, b_open, after, corp, coord, new, {j}, graph.NO_BORDERS)]
    if fresh:
        for base, moved in zip(free, bases):
            known = graph.sure_hit(m, b_open, corp, base, coord, new, fresh, after=after)
            if known or (known is None and graph.base_reaches(
                    m, after, corp, moved, paths=frozenset((coord, j) for j in fresh))):
                return True
    nodes = frozenset((coord, n) for n in range(len(new.tile.nodes)))
    for base, moved in zip(free, bases):
        known = graph.sure_node_hit(m, b_open, corp, base, coord, new)
        if known or (known is None and graph.base_reaches(m, after, corp, moved, nodes=nodes)):
            return True
    return False


def _whole_reaches(m: MapDef, before: BoardState, after: BoardState, corp: str, coord: str, new: Placed,
                   goals: set[int], regions: frozenset[tuple[str, int]]) -> bool:
    """Whether the whole network on `after` reaches one of the new tile's paths `goals`, walks
    of the plain graph answered from their entry into the hex where they can be."""
    if regions:
        return graph.network_reaches(m, after, corp, frozenset((coord, j) for j in goals), regions)
    unsure = []
    for start in graph.railheads(m, before, corp):
        known = graph.sure_hit(m, before, corp, start, coord, new, goals, whole=True, after=after)
        if known:
            return True
        if known is None:
            unsure.append(start)
    return bool(unsure) and graph.network_reaches(m, after, corp, frozenset((coord, j) for j in goals), regions,
                                                  only=_moved(m, after, corp, unsure, coord))


def reached_nodes(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str) -> set[NodeRef]:
    """The nodes the corporation's track graph reaches now (18xx.games' selected graph after
    the track step: the region graph in phase 2, the plain one after), e.g. the off-boards
    of the end trigger (`new_offboard_connections`)."""
    shut = regions.borders(variant, phase) if regions.phase_number(phase) == 2 else graph.NO_BORDERS
    return graph.network(m, regions.open_board(m, b), corp, shut).nodes


def check_lay(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str, kind: Kind,
              start: BoardState, laid: Sequence[str], coord: str, tile: str, rotation: int,
              cash: int | None = None, order: Sequence[NodeRef | str] | None = None,
              lays: Callable[[], list[core.Lay]] | None = None) -> core.Lay:
    """The lay if legal now, else BoardError saying why. `lays`: gives `legal_lays` of that
    hex, tile and rotation (a caller that keeps them), asked once the plain checks pass."""
    if coord not in m.hexes:
        raise BoardError("no_such_hex", f"{coord} is not on the map")
    if tile not in m.tiles:
        raise BoardError("no_such_tile", f"there is no tile {tile}")
    if not 0 <= rotation <= 5:
        raise BoardError("bad_rotation", "rotation must be 0..5")
    bases = railheads(m, b, corp, order)
    if len(laid) >= lays_allowed(kind, phase, len(bases)):
        raise BoardError("no_lays_left", f"{corp} has no tile lay left this turn")
    if laid and coord in laid:
        raise BoardError("hex_laid_this_turn", f"{coord} was already laid this turn")
    if tile in data.map_data(variant).get("no_rotation_tiles", ()) and rotation != 0:
        raise BoardError("bad_rotation", f"tile {tile} may only lie in its printed rotation")
    if pass_size(m, b, coord, variant) != data.pass_tiles(variant).get(tile, 0):
        raise BoardError("illegal_lay", "only a pass of the same size may replace a pass")
    found = lays() if lays is not None else legal_lays(m, b, variant, phase, corp, kind, start, laid, cash, order,
                                                       only_hex=coord, only_tile=tile, only_rotation=rotation)
    for lay in found:
        if lay.rotation == rotation:
            return lay
    if not unused_bases(m, b, corp, start, laid, order):
        raise BoardError("no_base_left", f"every base of {corp} has laid a tile this turn")
    raise BoardError("illegal_lay", f"{corp} cannot lay {tile} on {coord} at rotation {rotation}")
