"""Board state: which tile lies where at which rotation, station tokens and reservations.

`BoardState` is a frozen msgspec struct holding only changes from the printed map, so a
lay or a token copies one small dict. Every function here is pure: it returns a new state.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import msgspec
from msgspec.structs import replace

from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.tiles import Placed, TileDef, placed
from shared.games.core18xx.memo import Last, Memo

FREE = ""  # an empty token slot
# A city's reservations are a list by slot in 18xx.games (`City#reservations`); a token placed on
# its company's reservation leaves a nil there (`remove_reservation!`), which still counts when an
# upgrade merges cities and concatenates their lists (`Hex#lay`). Kept here as a hole.
HOLE = ""


class BoardError(ValueError):
    """A board change that cannot happen (the rules layer turns it into a RuleError)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Reservation(msgspec.Struct, frozen=True):
    corp: str  # HOLE: a city reservation used by its company's token, still holding its place
    city: int  # -1: the whole tile (a home on a multi-city hex with no city chosen yet)
    slot: int = -1


class BoardState(msgspec.Struct, frozen=True):
    tiles: dict[str, tuple[str, int]] = {}  # hex -> (tile name, rotation) where a tile was laid
    tokens: dict[str, tuple[tuple[str, ...], ...]] = {}  # hex -> per city: slot owners (FREE = empty)
    reservations: dict[str, tuple[Reservation, ...]] = {}
    # 18xx.games tile instance ids ("7-3"): which copy lies on each hex, and the copies that came
    # back to the supply, in the order they came back (they queue behind the unused ones)
    ids: dict[str, str] = {}
    returned: tuple[str, ...] = ()
    # hex edges closed now, both sides listed: borders that open or close with the game (1841's
    # province borders by phase); read like an impassable border by every walk, lay and route,
    # and part of every board cache's key
    # (sorted, so a snapshot encodes it the same way in every process; `closed_set` to test it)
    closed: tuple[tuple[str, int], ...] = ()


def initial(m: MapDef, reserve_homes: bool = True) -> BoardState:
    """The printed map, with each home city (slot) reserved for its corporation."""
    b = BoardState()
    if reserve_homes:
        for corp, (coord, city) in m.homes.items():
            b = reserve(m, b, corp, coord, city)
    return b


def tile_def(m: MapDef, b: BoardState, coord: str) -> TileDef:
    laid = b.tiles.get(coord)
    return m.tiles[laid[0]] if laid else m.hexes[coord].tile


def tile_at(m: MapDef, b: BoardState, coord: str) -> Placed:
    laid = b.tiles.get(coord)
    if laid:
        return placed(m.tiles[laid[0]], laid[1])
    return placed(m.hexes[coord].tile, 0)


def slots(m: MapDef, b: BoardState, coord: str) -> tuple[tuple[str, ...], ...]:
    """Token slots of every node of the hex's tile (empty tuple for non-cities)."""
    t = tile_def(m, b, coord)
    have = b.tokens.get(coord)
    if have is not None:
        return have
    return tuple((FREE,) * n.slots for n in t.nodes)


def linked(m: MapDef, b: BoardState, coord: str, edge: int) -> str | None:
    """The neighbour across `edge` if track may cross there (18xx.games' hex.neighbors):
    a map hex, no impassable border, and not an impassable-coloured hex (sea, offboard) unless
    its tile points back at us."""
    other = m.geometry[coord][edge]
    if other is None or (b.closed and (coord, edge) in closed_set(b.closed)):
        return None
    t = tile_at(m, b, other)
    if t.tile.color in m.impassable_colors and (edge + 3) % 6 not in t.exits:
        return None
    return other


def with_closed(m: MapDef, b: BoardState, borders: Iterable[tuple[str, int]]) -> BoardState:
    """`b` with exactly `borders` (hex, edge) closed, each also from the hex across it (a
    title's phase change passes the borders its new phase keeps shut)."""
    closed: set[tuple[str, int]] = set()
    for coord, edge in borders:
        other = m.geometry[coord][edge]
        closed.add((coord, edge))
        if other is not None:
            closed.add((other, (edge + 3) % 6))
    ordered = tuple(sorted(closed))
    return b if ordered == b.closed else replace(b, closed=ordered)


@lru_cache(maxsize=16)
def closed_set(closed: tuple[tuple[str, int], ...]) -> frozenset[tuple[str, int]]:
    """The shut edges as a set (the struct keeps them as a sorted tuple)."""
    return frozenset(closed)


def available_tiles(m: MapDef, b: BoardState) -> dict[str, int]:
    """Tiles still in the supply (a replaced tile goes back; preprinted ones never count).
    Shared by every caller asking of the same tiles dict: read only."""
    held = (m, b.tiles)
    hit = _SUPPLY.get(held)
    if hit is not None:
        return hit
    out = dict(m.counts)
    for name, _ in b.tiles.values():
        if name in out:
            out[name] -= 1
    return _SUPPLY.put(held, out)


_SUPPLY = Last()


def supply(m: MapDef, b: BoardState) -> list[str]:
    """Tile instance ids in the supply, in 18xx.games' order: copies never laid in manifest
    order, then copies that came back, in the order they came back."""
    on_map = set(b.ids.values())
    gone = on_map | set(b.returned)
    return [i for i in m.tile_ids if i not in gone] + [i for i in b.returned if i not in on_map]


def next_tile_id(m: MapDef, b: BoardState, name: str) -> str | None:
    """The copy of `name` a lay takes (18xx.games offers the first one in its supply): the
    first of its copies never laid, else the first of them to have come back (`supply`'s
    order, without listing the whole supply)."""
    on_map = set(b.ids.values())
    gone = on_map.union(b.returned)
    for i in m.tile_ids_by_name.get(name, ()):
        if i not in gone:
            return i
    return next((i for i in b.returned if i not in on_map and i.rpartition("-")[0] == name), None)


def in_supply(m: MapDef, b: BoardState, instance: str) -> bool:
    """`instance in supply(m, b)`, without listing the supply."""
    if instance in b.ids.values():
        return False
    return instance in b.returned or instance in m.tile_ids_by_name.get(instance.rpartition("-")[0], ())


def tile_id(m: MapDef, b: BoardState, coord: str) -> str:
    """18xx.games' id of the tile on `coord` (a preprinted tile is "HEX-index")."""
    return b.ids.get(coord) or f"{coord}-{m.hexes[coord].index}"


def node_id(m: MapDef, b: BoardState, coord: str, node: int) -> str:
    """18xx.games' id of a city/town ("IR1-0-0": tile id and the node's part index)."""
    return f"{tile_id(m, b, coord)}-{tile_def(m, b, coord).nodes[node].part}"


def find_node(m: MapDef, b: BoardState, ident: str) -> tuple[str, int]:
    """(hex, node index) for an 18xx.games node id of a tile on the map."""
    tid, _, part = ident.rpartition("-")
    coord = next((h for h, i in b.ids.items() if i == tid), None)
    if coord is None:
        base, _, idx = tid.rpartition("-")
        if base in m.hexes and str(m.hexes[base].index) == idx and base not in b.tiles:
            coord = base
    if coord is None:
        raise BoardError("no_such_city", f"no tile {tid} on the map")
    nodes = tile_def(m, b, coord).nodes
    for n, node in enumerate(nodes):
        if str(node.part) == part and node.kind != "junction":
            return coord, n
    raise BoardError("no_such_city", f"{tid} has no node {part}")


def city_map(old: Placed, new: Placed) -> dict[int, int]:
    """Old city node index -> new city node index, by the edges they reach (18xx.games'
    city_map_for): an old city goes to the new city reaching all its edges; cities without
    edges go by position, then to the first unused city."""
    old_cities = old.tile.cities
    new_cities = new.tile.cities
    out: dict[int, int] = {}
    if all(not old.node_edges[i] for i in old_cities) and len(old_cities) == len(new_cities):
        return dict(zip(old_cities, new_cities))
    for i in old_cities:
        edges = set(old.node_edges[i])
        if not edges:
            continue
        for j in new_cities:
            if edges <= set(new.node_edges[j]):
                out[i] = j
                break
    used = set(out.values())
    for pos, i in enumerate(old_cities):
        if i in out:
            continue
        to = new_cities[pos] if pos < len(new_cities) else None
        if to is None or to in used:
            to = next((c for c in new_cities if c not in used), None)
        if to is not None:
            out[i] = to
            used.add(to)
    return out


def lay(m: MapDef, b: BoardState, coord: str, tile: str, rotation: int, instance: str | None = None) -> BoardState:
    """Put `tile` on `coord`, carrying tokens and reservations across (no legality checks:
    track.py decides what is legal). `instance` names the copy (18xx.games id "7-3"); by
    default the one 18xx.games would take. The replaced tile's copy returns to the supply."""
    if coord not in m.hexes:
        raise BoardError("no_such_hex", f"{coord} is not on the map")
    if tile not in m.tiles:
        raise BoardError("no_such_tile", f"there is no tile {tile}")
    if instance is None:
        instance = next_tile_id(m, b, tile)
        if instance is None:
            raise BoardError("tile_unavailable", f"no tile {tile} is left")
    elif instance.rpartition("-")[0] != tile or not in_supply(m, b, instance):
        raise BoardError("tile_unavailable", f"tile {instance} is not in the supply")
    after = lay_track(m, b, coord, tile, rotation)
    ids = dict(b.ids)
    old_id = ids.get(coord)
    ids[coord] = instance
    returned = tuple(i for i in b.returned if i != instance) + ((old_id,) if old_id else ())
    return replace(after, ids=ids, returned=returned)


def lay_track(m: MapDef, b: BoardState, coord: str, tile: str, rotation: int) -> BoardState:
    """`lay` less the tile copies (`ids` and `returned` stay as they were): the track, tokens
    and reservations after the lay, for checks that read nothing else. The tokens dict is kept
    when no token is on the hex (its owner index then stays shared too)."""
    old = tile_at(m, b, coord)
    new = placed(m.tiles[tile], rotation % 6)
    mapping = city_map(old, new)
    tiles = dict(b.tiles)
    tiles[coord] = (tile, rotation % 6)
    out_tokens = b.tokens
    res = b.reservations
    if coord in res:
        res = dict(res)
        res[coord] = _carried(b.reservations[coord], mapping)
    reserved = res.get(coord, ())
    old_slots = slots(m, b, coord)
    new_slots = [list((FREE,) * n.slots) for n in new.tile.nodes]
    moved = False
    for i, j in mapping.items():
        owners = [o for o in old_slots[i] if o]
        moved = moved or bool(owners)
        for owner in owners:
            # several old cities may merge into one (Dublin's brown to gray): fill in turn, each
            # token in its owner's reserved slot, else the first slot free and reserved by no one
            # (18xx.games' `exchange_token` / `get_slot`: a token moved by an upgrade never
            # takes another company's reserved slot), else any free slot
            taken = {r.slot: r.corp for r in reserved if r.city == j and r.slot >= 0 and r.corp != HOLE}
            row = new_slots[j]
            free = next((k for k, c in taken.items() if c == owner and k < len(row) and row[k] == FREE), None)
            if free is None:
                free = next((k for k, o in enumerate(row) if o == FREE and k not in taken), None)
            if free is None:
                free = next((k for k, o in enumerate(row) if o == FREE), None)
            if free is not None:
                row[free] = owner
            else:  # more tokens than slots: keep them (18xx.games keeps such tokens as extra)
                row.append(owner)
    if moved or coord in b.tokens:
        out_tokens = dict(b.tokens)
        out_tokens[coord] = tuple(tuple(s) for s in new_slots)
    return replace(b, tiles=tiles, tokens=out_tokens, reservations=res)


def _carried(reservations: tuple[Reservation, ...], mapping: dict[int, int]) -> tuple[Reservation, ...]:
    """Reservations across a lay (18xx.games `Hex#lay`): each old city's list, holes included, is
    appended to its new city's in old-city order, so a city merged after another has its slots
    after all of the first's."""
    offset: dict[int, int] = {}
    moved: dict[int, tuple[int, int]] = {}      # old city -> (new city, slot offset)
    for i in sorted({r.city for r in reservations if r.city >= 0}):
        j = mapping.get(i, i)
        moved[i] = (j, offset.get(j, 0))
        offset[j] = offset.get(j, 0) + 1 + max(r.slot for r in reservations if r.city == i)
    return tuple(r if r.city < 0 else Reservation(r.corp, moved[r.city][0], r.slot + moved[r.city][1] if r.slot >= 0 else -1)
                 for r in reservations)


def reserve(m: MapDef, b: BoardState, corp: str, coord: str, city: int | None) -> BoardState:
    t = tile_def(m, b, coord)
    cities = t.cities
    if city is None and len(cities) == 1:
        city = cities[0]
    if city is not None and city not in cities:
        city = cities[city] if city < len(cities) else None
    existing = b.reservations.get(coord, ())
    slot = -1
    if city is not None:
        taken = {r.slot for r in existing if r.city == city}
        slot = next(s for s in range(max(1, t.nodes[city].slots) + len(taken)) if s not in taken)
    res = dict(b.reservations)
    res[coord] = existing + (Reservation(corp, -1 if city is None else city, slot),)
    return replace(b, reservations=res)


def unreserve(b: BoardState, corp: str) -> BoardState:
    """Drop every reservation of `corp` (it closed or placed its home)."""
    if not any(r.corp == corp for rs in b.reservations.values() for r in rs):
        return b
    res = {h: tuple(r for r in rs if r.corp != corp) for h, rs in b.reservations.items()}
    return replace(b, reservations={h: rs for h, rs in res.items() if rs})


def release(b: BoardState, corp: str) -> BoardState:
    """Drop every reservation of `corp` as a company closing does (18xx.games' `close_corporation`
    with CLOSED_CORP_RESERVATIONS_REMOVED: `city.reservations.delete`): a city's reservations
    are a list by slot there, so those after the closed company's slot move up one."""
    if not any(r.corp == corp for rs in b.reservations.values() for r in rs):
        return b
    res: dict[str, tuple[Reservation, ...]] = {}
    for h, rs in b.reservations.items():
        gone = {(r.city, r.slot) for r in rs if r.corp == corp and r.slot >= 0}
        kept = tuple(r if r.slot < 0 else replace(r, slot=r.slot - sum(1 for c, s in gone if c == r.city and s < r.slot))
                     for r in rs if r.corp != corp)
        if kept:
            res[h] = kept
    return replace(b, reservations=res)


def place_token(m: MapDef, b: BoardState, corp: str, coord: str, city: int) -> BoardState:
    """Put `corp`'s token in the first free slot of `city` (its reserved slot if it has one).
    Legality (reach, cost) is tokens.py's business; this only refuses a full city."""
    t = tile_def(m, b, coord)
    if city < 0 or city >= len(t.nodes) or t.nodes[city].kind != "city":
        raise BoardError("no_such_city", f"{coord} has no city {city}")
    current = [list(s) for s in slots(m, b, coord)]
    mine = [r for r in b.reservations.get(coord, ()) if r.corp == corp and r.city == city and r.slot >= 0]
    reserved_by_others = {r.slot for r in b.reservations.get(coord, ())
                          if r.corp != corp and r.corp != HOLE and r.city == city}
    if mine and mine[0].slot < len(current[city]) and current[city][mine[0].slot] == FREE:
        slot = mine[0].slot
    else:
        free = [i for i, o in enumerate(current[city]) if o == FREE and i not in reserved_by_others]
        if not free:
            raise BoardError("city_full", f"no free slot in the city on {coord}")
        slot = free[0]
    current[city][slot] = corp
    tokens = dict(b.tokens)
    tokens[coord] = tuple(tuple(s) for s in current)
    out = replace(b, tokens=tokens)
    # a corporation's reservations on this hex are used up by its token here; the one of this
    # city leaves its hole
    if any(r.corp == corp for r in b.reservations.get(coord, ())):
        res = dict(out.reservations)
        left = tuple(replace(r, corp=HOLE) if r.corp == corp and r.city == city and r.slot >= 0 else r
                     for r in res[coord] if r.corp != corp or (r.city == city and r.slot >= 0))
        if left:
            res[coord] = left
        else:
            del res[coord]
        out = replace(out, reservations=res)
    return out


def remove_token(m: MapDef, b: BoardState, corp: str, coord: str, city: int | None = None) -> BoardState:
    current = [list(s) for s in slots(m, b, coord)]
    found = False
    for i, s in enumerate(current):
        if city is not None and i != city:
            continue
        for k, o in enumerate(s):
            if o == corp:
                s[k] = FREE
                found = True
    if not found:
        raise BoardError("no_token", f"{corp} has no token on {coord}")
    tokens = dict(b.tokens)
    tokens[coord] = tuple(tuple(s) for s in current)
    return replace(b, tokens=tokens)


def replace_tokens(b: BoardState, old: str, new: str) -> BoardState:
    """Every token of `old` becomes `new`'s (mergers); a hex where both sit keeps one."""
    tokens: dict[str, tuple[tuple[str, ...], ...]] = {}
    for coord, cities in b.tokens.items():
        seen_new = any(new in s for s in cities)
        rows = []
        for s in cities:
            row = []
            for o in s:
                if o == old:
                    o = FREE if seen_new else new
                    seen_new = True
                row.append(o)
            rows.append(tuple(row))
        tokens[coord] = tuple(rows)
    return replace(b, tokens=tokens)


# Boards are immutable and every change copies `tokens`, so the owner index of one tokens dict
# is built once and reused by the many queries asked of the same state (a replay asks
# thousands per action): kept per tokens dict (core18xx.memo).
_TOKEN_INDEX = Memo(512)


def _token_index(tokens: dict[str, tuple[tuple[str, ...], ...]]) -> dict[str, tuple[tuple[str, int], ...]]:
    held = (tokens,)
    hit = _TOKEN_INDEX.get(id(tokens), held)
    if hit is not None:
        return hit
    index: dict[str, list[tuple[str, int]]] = {}
    for coord, cities in tokens.items():
        for i, s in enumerate(cities):
            for owner in set(s):
                index.setdefault(owner, []).append((coord, i))
    return _TOKEN_INDEX.put(id(tokens), held, {k: tuple(v) for k, v in index.items()})


def token_owners(b: BoardState) -> dict[str, tuple[tuple[str, int], ...]]:
    """owner -> the (hex, city) where it has a token, for every owner at once (shared: read only)."""
    return _token_index(b.tokens)


def token_hexes(b: BoardState, corp: str) -> list[tuple[str, int]]:
    return list(_token_index(b.tokens).get(corp, ()))


def token_count(b: BoardState, corp: str) -> int:
    """len(token_hexes(b, corp)) without building the list."""
    return len(_token_index(b.tokens).get(corp, ()))


def lay_lifting(m: MapDef, b: BoardState, coord: str, tile: str, rotation: int,
                instance: str | None = None) -> tuple[BoardState, tuple[str, ...]]:
    """`lay`, plus 18xx.games' rule for a first track tile with several cities on a hex that
    already holds tokens (a home placed before any track on a two-city hex): the
    tokens come off and each owner must choose its city again. Returns (board, owners to
    choose), in slot order."""
    old = tile_at(m, b, coord)
    new_def = m.tiles.get(tile)
    after = lay(m, b, coord, tile, rotation, instance)
    if old.paths or new_def is None or not new_def.paths or len(new_def.cities) <= 1:
        return after, ()
    owners = tuple(o for s in slots(m, after, coord) for o in s if o)
    if not owners:
        return after, ()
    tokens = dict(after.tokens)
    tokens[coord] = tuple((FREE,) * len(s) for s in slots(m, after, coord))
    return replace(after, tokens=tokens), owners
