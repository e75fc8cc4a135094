"""Station tokens: where a corporation may place one, and home tokens.

18xx.games facts (own code): a token goes in a city the corporation reaches over its track
(a city it can reach counts even when full, but then it has no free slot), in a free slot not
reserved for another corporation, and never in a hex where it already has a token. A tile
reservation (home on a multi-city hex, city not yet chosen) holds back one slot of the hex.
The price is the corporation's next token price (the title passes it in).
"""

from __future__ import annotations

import msgspec

from shared.games.core18xx.board import network
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.state import (
    FREE,
    HOLE,
    BoardError,
    BoardState,
    place_token,
    slots,
    tile_at,
    tile_def,
)
from shared.games.core18xx.choice import Choice, trie


class TokenSpot(msgspec.Struct, frozen=True):
    hex: str
    city: int  # node index on the hex's tile
    cost: int


def free_slot(m: MapDef, b: BoardState, corp: str, coord: str, city: int) -> bool:
    """Whether `corp` could put a token in `city` on `coord` (slots and reservations only)."""
    t = tile_def(m, b, coord)
    if city >= len(t.nodes) or t.nodes[city].kind != "city":
        return False
    cities = slots(m, b, coord)
    if any(corp in s for s in cities):
        return False  # one token per hex
    res = b.reservations.get(coord, ())
    if any(r.corp == corp and r.city in (city, -1) for r in res):
        return FREE in cities[city]
    reserved = {r.slot for r in res if r.city == city and r.corp != corp and r.corp != HOLE}
    open_slots = [i for i, o in enumerate(cities[city]) if o == FREE and i not in reserved]
    if not open_slots:
        return False
    # a whole-tile reservation by another corporation keeps one slot of the hex back
    tile_res = sum(1 for r in res if r.city == -1 and r.corp != corp)
    if tile_res:
        avail = 0
        for ci in t.cities:
            rs = {r.slot for r in res if r.city == ci}
            avail += sum(1 for i, o in enumerate(cities[ci]) if o == FREE and i not in rs)
        if tile_res >= avail:
            return False
    return True


def legal_tokens(m: MapDef, b: BoardState, corp: str, cost: int, cash: int | None = None) -> list[TokenSpot]:
    """Cities reachable by `corp` where its next token (price `cost`) may go."""
    if cash is not None and cost > cash:
        return []
    reach = network.broad(m, b, corp)
    out = []
    for coord, n in sorted(reach.nodes, key=lambda r: (m.order[r[0]], r[1])):
        if tile_at(m, b, coord).tile.nodes[n].kind == "city" and free_slot(m, b, corp, coord, n):
            out.append(TokenSpot(coord, n, cost))
    return out


def token_choices(spots: list[TokenSpot]) -> Choice | None:
    return trie(("hex", "city"), [(s.hex, s.city) for s in spots])


def home_spots(m: MapDef, b: BoardState, corp: str) -> list[TokenSpot]:
    """Where a home token may go: the corporation's home if it has one (any city of it when no
    city is fixed), else (companies without a printed home) any hex with track where a city has a free slot."""
    if corp in m.homes:
        coord, city = m.homes[corp]
        t = tile_def(m, b, coord)
        cities = [c for c in t.cities if city is None or c == t.cities[min(city, len(t.cities) - 1)]]
        return [TokenSpot(coord, c, 0) for c in cities if free_slot(m, b, corp, coord, c)]
    out = []
    for coord in sorted(m.hexes, key=lambda c: m.order[c]):
        placed = tile_at(m, b, coord)
        if not placed.exits:
            continue
        for c in placed.tile.cities:
            if free_slot(m, b, corp, coord, c):
                out.append(TokenSpot(coord, c, 0))
    return out


def relocation_spots(m: MapDef, b: BoardState, corp: str, coord: str) -> list[TokenSpot]:
    """Cities of `coord` where a token lifted by `board.lay_lifting` may go back."""
    return [TokenSpot(coord, c, 0) for c in tile_def(m, b, coord).cities if free_slot(m, b, corp, coord, c)]


def place(m: MapDef, b: BoardState, corp: str, coord: str, city: int, spots: list[TokenSpot]) -> BoardState:
    """Place after checking (hex, city) is among `spots` (from legal_tokens/home_spots)."""
    if not any(s.hex == coord and s.city == city for s in spots):
        raise BoardError("illegal_token", f"{corp} cannot place a token in city {city} on {coord}")
    return place_token(m, b, corp, coord, city)
