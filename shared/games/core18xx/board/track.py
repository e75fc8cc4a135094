"""Track laying: which (hex, tile, rotation) a corporation may lay now, and what it costs.

Follows 18xx.games' Tracker step and Game#upgrades_to? (facts; own code):
- colour: the new tile is exactly one colour step up, and its colour is allowed in the phase;
- old track kept: every old path is inside a new path (same ends, matching gauge), at the
  chosen rotation; labels equal; town count equal; city count equal unless labelled;
- reach: the corporation must reach the hex through an edge the new tile uses (its token
  hexes count with all edges); every new exit must face a map hex across a passable edge;
- new track: some new track the corporation reaches is new, or a reached city/town changes
  value ("semi-restrictive");
- a separate narrow-gauge network (`rules.narrow`, a title's choice): a lay adding only
  narrow track may connect through the narrow network instead; exits must meet neighbouring
  track of the same gauge; terrain is free for an all-narrow tile.
Lay slots (how many lays, upgrade or not, extra cost) come from `lay_slot`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

import msgspec

from shared.games.core18xx.board import network
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.state import (
    BoardError,
    BoardState,
    available_tiles,
    lay_track,
    linked,
    tile_at,
)
from shared.games.core18xx.board.tiles import (
    COLORS,
    Placed,
    TileDef,
    gauge_matches,
    path_ends,
    path_subset,
    placed,
)
from shared.games.core18xx.choice import Choice, trie


class TrackRules(msgspec.Struct, frozen=True):
    narrow: bool = False  # narrow gauge is a network of its own (see the module's notes)
    restriction: str = "semi_restrictive"
    allow_removing_towns: bool = False


STANDARD = TrackRules()


class LaySlot(msgspec.Struct, frozen=True):
    """What the next lay of this turn may be (18xx.games' TILE_LAYS entry, resolved)."""

    lay: bool  # may lay a yellow tile
    upgrade: bool  # may upgrade
    cost: int = 0  # extra cost of a yellow lay
    upgrade_cost: int = 0  # extra cost of an upgrade
    cannot_reuse_same_hex: bool = False  # not on a hex already laid this turn (1841)


def lay_slot(tile_lays: list[dict], lays_done: int, upgraded: bool) -> LaySlot | None:
    """Resolve a title's TILE_LAYS table (18xx.games' get_tile_lay): entry `lays_done`, where
    "not_if_upgraded" means "only if no upgrade was laid this turn"; None when none is left."""
    if lays_done >= len(tile_lays):
        return None
    e = tile_lays[lays_done]

    def flag(v) -> bool:
        return (not upgraded) if v == "not_if_upgraded" else bool(v)

    cost = int(e.get("cost", 0))
    return LaySlot(flag(e.get("lay", False)), flag(e.get("upgrade", False)), cost,
                   int(e.get("upgrade_cost", cost)), bool(e.get("cannot_reuse_same_hex", False)))


class Lay(msgspec.Struct, frozen=True):
    hex: str
    tile: str
    rotation: int
    cost: int


class Special(msgspec.Struct, frozen=True):
    """A private company's special lay (18xx.games' tile_lay ability).

    `reach`: "exits" — the hex must be reached and some new exit must face the reach (as a
    normal lay; Board of Works); "hex" — the hex must be reached, any rotation on the map will
    do; "none" — no connection at all. A company's lay is not held to the "new track"
    restriction (18xx.games checks that only for operators). A lay limited to the first of two
    hexes is the title's call: it passes that hex alone.
    """

    hexes: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()
    reach: Literal["exits", "hex", "none"] = "exits"
    free: bool = False  # no terrain cost (BoW)
    water_offboard: bool = False  # a blue (water) hex may take a red offboard tile

    @property
    def connected(self) -> bool:
        return self.reach != "none"


# ---- tile-to-tile -------------------------------------------------------------------------

@lru_cache(maxsize=16384)   # pure on a placed tile (static data, cached hash)
def _ct_edges(t: Placed) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(t.node_edges[i]) for i, n in enumerate(t.tile.nodes)
                 if n.kind in ("city", "town") and t.node_edges[i])


def _ct_subset(old: TileDef, new: TileDef) -> bool:
    o = _ct_edges(placed(old, 0))
    n = _ct_edges(placed(new, 0))
    for r in range(6):
        if all(any({(e + r) % 6 for e in ct} <= other for other in n) for ct in o):
            return True
    return False


@lru_cache(maxsize=65536)
def upgrades_to(old: TileDef, new: TileDef, water_offboard: bool = False) -> bool:
    """Could `new` replace `old` at some rotation (before reach and rotation checks)?"""
    if water_offboard and old.color == "blue" and new.color == "red":
        return True
    if old.color not in COLORS or new.color not in COLORS or COLORS.index(new.color) != COLORS.index(old.color) + 1:
        return False
    if not any(path_subset(placed(old, 0), placed(new, r)) for r in range(6)):
        return False
    if old.label != new.label:
        return False
    if len(old.towns) != len(new.towns):
        return False
    if not old.label and len(old.cities) != len(new.cities):
        return False
    if len(old.cities) > 1 and len(new.cities) > 1 and not _ct_subset(old, new):
        return False
    if old.label and old.cities and not new.cities:
        return False
    if old.color == "white" and old.label == "OO" and len(old.cities) != len(new.cities):
        return False
    return True


@lru_cache(maxsize=65536)   # pure on two placed tiles (static data, cached hashes)
def uses_broad_rules(old: Placed, new: Placed) -> bool:
    """With a separate narrow network: a lay follows broad-gauge connection rules if all its track is broad, or it
    adds any broad track."""
    if all(p.track == "broad" for p in new.paths):
        return True
    old_ends = [(path_ends(old.tile, old.paths, i), p.track) for i, p in enumerate(old.paths)]
    for j, p in enumerate(new.paths):
        if p.track != "broad":
            continue
        ends = path_ends(new.tile, new.paths, j)
        if not any(ends <= oe and gauge_matches(p.track, ot) for oe, ot in old_ends):
            return True
    return False


def _rotation_ok(m: MapDef, b: BoardState, coord: str, old: Placed, new: Placed,
                 reach: set[int] | None, rules: TrackRules, connected: bool, need_exit: bool = True) -> bool:
    links = network.tiles_view(m, b).links(coord)     # board.linked, shared with the walks
    if any(links[e] is None for e in new.exits):
        return False
    if connected and (not reach or (need_exit and not (new.exits & reach))):
        return False
    if not path_subset(old, new):
        return False
    old_ct = _ct_edges(old)
    new_ct = _ct_edges(new)
    added = max(0, len(new_ct) - len(old_ct))
    if added < sum(1 for n in new_ct if all(not (n & o) for o in old_ct)):
        return False
    if rules.narrow:
        # every exit's track must fit the neighbour's track on the facing edge
        for e in new.exits:
            mine = next(p for p in new.paths if e in (p.a, p.b))
            ot = tile_at(m, b, links[e])  # type: ignore[arg-type]
            theirs = next((p for p in ot.paths if (e + 3) % 6 in (p.a, p.b)), None)
            if theirs is not None and not gauge_matches(mine.track, theirs.track):
                return False
    else:
        multi = len(new.tile.cities) > 1 and len(old.tile.cities) > 1
        if multi and not all(sum(1 for n in new_ct if (o & n) == o) == 1 for o in old_ct):
            return False
    return True


def _narrow_lay_connected(m: MapDef, b: BoardState, after: BoardState, corp: str, coord: str, old: Placed,
                          new: Placed, differing: list[int], before: network.Reach, nbefore: network.Reach) -> bool:
    """Is some differing narrow path of a narrow-rules lay in the narrow network after it?

    Such a lay adds no broad track and (checked by the caller) changes no city's slots, so the
    broad network is the same before and after; the narrow network only grows. A differing
    path is connected when it meets narrow track reached before, touches a node the broad
    network reaches, or joins either through the tile's own nodes (narrow gauge is never
    blocked); otherwise a walk back from it over narrow track decides.
    """
    old_ends = [(path_ends(old.tile, old.paths, i), p) for i, p in enumerate(old.paths)]
    broad_here: set[int] = {n for c, n in network.token_nodes(m, after, corp) if c == coord}
    for j, np in enumerate(new.paths):
        if np.track == "narrow":
            continue
        ends = path_ends(new.tile, new.paths, j)
        if any(ends <= oe and (coord, i) in before.paths for i, (oe, _) in enumerate(old_ends)):
            broad_here.update(np.nodes)
    live = _meeting(m, b, coord, new, "narrow", broad_here, nbefore.paths)
    grew = True
    while grew:
        grew = False
        for n in {n for j in live for n in new.paths[j].nodes}:
            for j, np in enumerate(new.paths):
                if j not in live and n in np.nodes and gauge_matches("narrow", np.track):
                    live.add(j)
                    grew = True
    narrow_diff = [j for j in differing if gauge_matches("narrow", new.paths[j].track)]
    if any(j in live for j in narrow_diff):
        return True
    goal = {p for p in nbefore.paths if p[0] != coord} | {(coord, j) for j in live}
    back = network.walk(m, after, [], None, "narrow", start_paths=[(coord, j) for j in narrow_diff], goal=goal)
    if back.hit:
        return True
    reached = {r for r in before.nodes if r[0] != coord} | {(coord, n) for n in broad_here}
    return bool(back.nodes & reached)


def _meeting(m: MapDef, b: BoardState, coord: str, new: Placed, gauge: str, seeds: set[int],
             reached: set | frozenset) -> set[int]:
    """Paths of `new` (laid on `coord`) carrying `gauge` that touch a node in `seeds`, or meet
    track in `reached` across a hex edge in a matching gauge."""
    live: set[int] = set()
    for j, np in enumerate(new.paths):
        if not gauge_matches(gauge, np.track):
            continue
        if any(n in seeds for n in np.nodes):
            live.add(j)
            continue
        for e in np.edges:
            other = linked(m, b, coord, e)
            if other is None:
                continue
            ot = tile_at(m, b, other)
            if any((e + 3) % 6 in (q.a, q.b) and (other, k) in reached and gauge_matches(np.track, q.track)
                   for k, q in enumerate(ot.paths)):
                live.add(j)
                break
    return live


def _new_track_ok(m: MapDef, b: BoardState, corp: str, coord: str, old: Placed, new: Placed,
                  broad_rules: bool, rules: TrackRules, before: network.Reach | None = None,
                  nbefore: network.Reach | None = None) -> bool:
    """18xx.games' check_track_restrictions, evaluated on the board after the lay."""
    if rules.restriction == "permissive" or not old.paths:
        return True
    old_ends = [(path_ends(old.tile, old.paths, i), p) for i, p in enumerate(old.paths)]
    differing = []
    for j, np in enumerate(new.paths):
        ends = path_ends(new.tile, new.paths, j)
        op = next((p for oe, p in old_ends if ends <= oe and gauge_matches(np.track, p.track)), None)
        if op is None:
            differing.append(j)
            continue
        if rules.restriction == "semi_restrictive":
            olds = sorted(old.tile.nodes[n].max_revenue for n in op.nodes)
            news = sorted(new.tile.nodes[n].max_revenue for n in np.nodes)
            if olds != news:
                differing.append(j)
    if not differing:
        return False
    after = lay_track(m, b, coord, new.tile.name, new.rotation)   # the tile copy is not read
    if before is not None and (broad_rules or not rules.narrow):
        # Track only grows when a tile is upgraded (old paths are kept), so whatever the
        # corporation reached before it still reaches. Paths of the new tile meeting reached
        # track across an edge are connected, and so is every path through a node they reach
        # (unless other companies' tokens block it). Only when that local view finds nothing
        # is the whole network walked again.
        gauge = "broad"
        mine = {n for c, n in network.token_nodes(m, after, corp) if c == coord}
        live = _meeting(m, b, coord, new, gauge, mine, before.paths)
        grew = True
        while grew:
            grew = False
            for n in {n for j in live for n in new.paths[j].nodes}:
                if n not in mine and network.blocks(m, after, coord, n, corp):
                    continue
                for j, np in enumerate(new.paths):
                    if j not in live and n in np.nodes and gauge_matches(gauge, np.track):
                        live.add(j)
                        grew = True
        if any(j in live for j in differing):
            return True
        # Otherwise walk back from the differing paths: reaching (as corporations walk, so
        # blocked cities stop it both ways) any track reached before, or a live path, or one of
        # the corporation's stations means they are connected.
        goal = {p for p in before.paths if p[0] != coord} | {(coord, j) for j in live}
        starts = [(c, n) for c, n in network.railhead_nodes(m, after, corp)]
        back = network.walk(m, after, [], corp, gauge,
                            start_paths=[(coord, j) for j in differing if gauge_matches(gauge, new.paths[j].track)],
                            goal=goal)
        if back.hit or any(ref in back.nodes for ref in starts):
            return True
        return False
    if (before is not None and nbefore is not None and not broad_rules and rules.narrow
            and len(new.tile.cities) <= 1 and len(old.tile.cities) <= 1
            and [new.tile.nodes[c].slots for c in new.tile.cities] == [old.tile.nodes[c].slots for c in old.tile.cities]):
        return _narrow_lay_connected(m, b, after, corp, coord, old, new, differing, before, nbefore)
    reach = network.broad(m, after, corp)
    if not broad_rules and rules.narrow:
        reach = network.narrow(m, after, corp, reach)
    return any((coord, j) in reach.paths for j in differing)


def terrain_cost(old: Placed, new: Placed, rules: TrackRules, special: Special | None) -> int:
    if special is not None and special.free:
        return 0
    if rules.narrow and new.paths and all(p.track == "narrow" for p in new.paths):
        return 0
    return old.tile.upgrade_cost


# ---- enumeration --------------------------------------------------------------------------

def legal_lays(
    m: MapDef,
    b: BoardState,
    corp: str,
    phase_colors: tuple[str, ...],
    slot: LaySlot,
    *,
    rules: TrackRules = STANDARD,
    blocked: frozenset[str] = frozenset(),
    cash: int | None = None,
    special: Special | None = None,
    only_hex: str | None = None,
    fast: bool = True,
    laid_hexes: frozenset[str] = frozenset(),
    only_tile: str | None = None,
    only_rotation: int | None = None,
    reach: network.Reach | None = None,
) -> list[Lay]:
    """Every legal lay for `corp` now, in map order, cheapest information first (with
    `only_hex` / `only_tile`: just those of that hex / tile; with `only_rotation`, just the
    rotations sharing that one's track, whose verdict it takes).

    `reach`: the corporation's network as a title walks it (default: `network.broad`), for a
    title whose network is not the core's walk (1841 walks 18xx.games' directed graph, its
    borders stopping the walk but not track); the new-track rule then reads the core's walk
    unless the title checks it itself (`rules.restriction` "permissive")."""
    if reach is None:
        reach = network.broad(m, b, corp)
    # The narrow network (a walk of its own) only widens what is reached: it is asked for only
    # where the broad network alone cannot give the verdict (a lay check of one tile mostly
    # needs none). `narrow_reach()` is the same network each time.
    narrow_found: list[network.Reach | None] = []

    def narrow_reach() -> network.Reach | None:
        if not narrow_found:
            narrow_found.append(network.narrow(m, b, corp, reach) if rules.narrow else None)
        return narrow_found[0]

    supply = available_tiles(m, b)
    out: list[Lay] = []
    connected = special is None or special.connected
    hexes = sorted(m.hexes, key=lambda c: m.order[c]) if only_hex is None else [only_hex]
    for coord in hexes:
        if special is not None and special.hexes and coord not in special.hexes:
            continue
        if coord in blocked:
            continue
        broad_here = set(reach.hexes.get(coord, ()))
        either: set[int] | None = None       # broad | narrow edges here, when asked

        # called only in this iteration; the defaults bind this hex's values all the same
        def either_here(broad_here: set[int] = broad_here, coord: str = coord) -> set[int]:
            nonlocal either
            if either is None:
                nreach = narrow_reach()
                either = broad_here | set(nreach.hexes.get(coord, ()) if nreach else ())
            return either

        if connected and not broad_here and not either_here():
            continue
        old = tile_at(m, b, coord)
        color = old.tile.color
        if color == "white" and not slot.lay:
            continue
        if color != "white" and not slot.upgrade and not (special and special.water_offboard):
            continue
        if color != "white" and slot.cannot_reuse_same_hex and coord in laid_hexes:
            continue
        if only_tile is None:
            tiles = list(m.tiles.items())
        else:
            tiles = [(only_tile, m.tiles[only_tile])] if only_tile in m.tiles else []
        for name, tdef in tiles:
            if supply.get(name, 0) <= 0:
                continue
            if special is not None and special.tiles and name not in special.tiles:
                continue
            if tdef.color not in phase_colors and not (special and special.water_offboard and tdef.color == "red"):
                continue
            if tdef.color == "yellow" and not slot.lay:
                continue
            if not upgrades_to(old.tile, tdef, bool(special and special.water_offboard)):
                continue
            verdicts: dict[frozenset, int | None] = {}
            wanted = None if only_rotation is None else placed(tdef, only_rotation).track_key
            for r in range(6):
                new = placed(tdef, r)
                key = new.track_key
                if wanted is not None and key != wanted:
                    continue        # another track layout: its verdict cannot be this one's
                if key in verdicts:  # a symmetric tile: same track, same verdict
                    if verdicts[key] is not None:
                        out.append(Lay(coord, name, r, verdicts[key]))  # type: ignore[arg-type]
                    continue
                verdicts[key] = None
                broad_rules = uses_broad_rules(old, new) if rules.narrow else True
                if rules.narrow and not broad_rules:
                    nreach = narrow_reach()
                    direct = (nreach.hexes.get(coord) if nreach else None) or reach.hexes.get(coord)
                else:
                    direct = reach.hexes.get(coord)
                if connected and not direct:
                    continue
                need_exit = special is None or special.reach == "exits"
                # the broad edges decide when they already meet the tile's exits (the union can
                # only say yes too); otherwise the union does
                exits_met = bool(broad_here) and (not need_exit or bool(new.exits & broad_here))
                reach_here = (broad_here if exits_met else either_here()) if connected else None
                if not _rotation_ok(m, b, coord, old, new, reach_here, rules, connected, need_exit):
                    continue
                before = reach if fast else None
                # (the narrow network matters to `_new_track_ok` only for a lay under narrow
                # rules, which asked for it above)
                nbefore = narrow_found[0] if fast and narrow_found else None
                if special is None and not _new_track_ok(m, b, corp, coord, old, new, broad_rules, rules, before,
                                                         nbefore):
                    continue
                extra = slot.cost if tdef.color == "yellow" else slot.upgrade_cost
                cost = terrain_cost(old, new, rules, special) + extra
                if cash is not None and cost > cash:
                    continue
                verdicts[key] = cost
                out.append(Lay(coord, name, r, cost))
    return out


def tiles_connect(m: MapDef, b: BoardState, a: str, z: str) -> bool:
    """Some track of hex `a` meets track of hex `z` across their shared edge (18xx.games'
    connects_to? between two special lays that must be laid together)."""
    ta, tz = tile_at(m, b, a), tile_at(m, b, z)
    for e in ta.exits:
        if linked(m, b, a, e) == z and (e + 3) % 6 in tz.exits:
            return True
    return False


def lay_choices(lays: list[Lay]) -> Choice | None:
    """The contract's trie hex -> tile -> rotation over `lays`."""
    return trie(("hex", "tile", "rotation"), [(x.hex, x.tile, x.rotation) for x in lays])


def check_lay(
    m: MapDef,
    b: BoardState,
    corp: str,
    phase_colors: tuple[str, ...],
    slot: LaySlot,
    coord: str,
    tile: str,
    rotation: int,
    **kw,
) -> Lay:
    """The lay if legal, else BoardError with a specific code."""
    if coord not in m.hexes:
        raise BoardError("no_such_hex", f"{coord} is not on the map")
    if tile not in m.tiles:
        raise BoardError("no_such_tile", f"there is no tile {tile}")
    if coord in kw.get("blocked", frozenset()):
        raise BoardError("hex_blocked", f"{coord} is blocked by a private company")
    if available_tiles(m, b).get(tile, 0) <= 0:
        raise BoardError("tile_unavailable", f"no tile {tile} is left")
    if not 0 <= rotation <= 5:
        raise BoardError("bad_rotation", "rotation must be 0..5")
    # verdicts are per tile and track layout (symmetric rotations share one, decided at the
    # first of them), so checking only this tile's rotations with this track is exact
    for x in legal_lays(m, b, corp, phase_colors, slot, only_hex=coord, only_tile=tile, only_rotation=rotation,
                        **kw):
        if x.tile == tile and x.rotation == rotation:
            return x
    raise BoardError("illegal_lay", f"{corp} cannot lay {tile} on {coord} at rotation {rotation}")
