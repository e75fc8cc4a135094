"""1841's station tokens: homes, where a token may go, the price of tokens bought at founding,
and buying another corporation's token.

18xx.games (`setup` reservations, `place_home_token`, `home_token_locations`,
`reserved_cities`, `austrian_cities`, `check_token_hex`, `hex_price`/`token_price`,
step/corp_start.rb, step/home_token.rb, step/token.rb, step/buy_token.rb,
step/buy_new_tokens.rb; facts, own code):
- every home hex of a historical corporation is reserved for it from the start (IRSFF: Milano
  and Venezia; SFTG: Torino's first city and Alessandria); when founded it places a token on
  each (its reserved city, else the first), except SFMA in the default game, which chooses one
  of Firenze's two cities;
- a general major chooses its home among the zones' cities, none of the historical cities
  before phase 4 (nor Lugano ever), none in Lombardy or Veneto before phase 4; it may then place
  a second token in the home's zone (phase 4: Veneto alone, or everywhere else; from phase 5
  anywhere), or not; a general minor chooses a city that is no major city and whose hex holds
  no token yet;
- tokens are placed only in cities the region graph reaches (no standing border crossed), in
  a free slot not reserved for another, one per hex; Firenze takes none in the default game
  before phase 4 unless SFMA has floated or it is SFMA's;
- at founding a major buys 2-5 tokens, a minor 1-2: L.50 each for a historical corporation; a
  general one pays by how near its home is to track (L.200 if the home hex is connected,
  L.100 at one hex, L.50 at two, L.25 farther), the dearer of its two homes;
- after its run a corporation may buy one token of another corporation (one whose president is
  a player) in a city it reaches, not on a hex where it has one, and only if that leaves the
  seller another token in a city (a token on a pass may always be bought); the price is agreed
  (at least L.1) and paid to the seller.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import msgspec

from shared.games.core18xx.board import hexgrid, network
from shared.games.core18xx.board import state as S
from shared.games.core18xx.board import tokens as core
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.network import NodeRef
from shared.games.core18xx.board.state import FREE, BoardError, BoardState, tile_at, tile_def
from shared.games.g1841 import data
from shared.games.g1841.board import graph, regions

Spot = core.TokenSpot


def _corp(variant: str, corp: str) -> dict:
    found = next((c for c in data.entities(variant)["corporations"] if c["sym"] == corp), None)
    if found is None:
        raise BoardError("no_such_corporation", f"1841 has no corporation {corp}")
    return found


def version(variant: str) -> int:
    return 1 if "version_1" in variant else 2


def initial(m: MapDef, variant: str, phase: int | str = 2) -> BoardState:
    """The board at the start: every home hex of every corporation reserved (the core's
    `initial` reserves the first), phase 2's borders closed."""
    b = S.initial(m)
    for corp, hexes in data.home_hexes(variant).items():
        city = data.homes(variant)[corp][1]
        for coord in hexes[1:]:
            b = S.reserve(m, b, corp, coord, city)
    return regions.phase_board(m, b, variant, phase)


# ---- homes -----------------------------------------------------------------------------------

def places_homes_itself(variant: str, corp: str) -> bool:
    """Historical corporations put their home tokens down when founded (SFMA only in
    version 1); the others choose (`home_choices`)."""
    c = _corp(variant, corp)
    return bool(c.get("historical")) and (corp != "SFMA" or version(variant) == 1)


def place_homes(m: MapDef, b: BoardState, variant: str, corp: str) -> BoardState:
    """A historical corporation's home tokens, one on each home hex: its reserved city there,
    else the hex's first city (`place_home_token`)."""
    for coord in data.home_hexes(variant).get(corp, ()):
        t = tile_def(m, b, coord)
        mine = [r.city for r in b.reservations.get(coord, ()) if r.corp == corp and r.city >= 0]
        city = mine[0] if mine else t.cities[0]
        b = S.place_token(m, b, corp, coord, city)
    return b


def _zones(m: MapDef, variant: str) -> list[list[str]]:
    return [[h for h in z if h in m.hexes] for z in data.map_data(variant)["zones"].values()]


def home_hexes(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str,
               first_home: str | None = None) -> list[str]:
    """Hexes a general corporation (or SFMA) may put its home token on (`first_home` None),
    or a general major its optional second one (`first_home` its home hex)."""
    c = _corp(variant, corp)
    md = data.map_data(variant)
    n = regions.phase_number(phase)
    if corp == "SFMA":
        return [c["coordinates"]]
    zones = _zones(m, variant)
    every = [h for z in zones for h in z]
    reserved = (md["historical_cities"] + [md["lugano"]]) if n < 4 else [md["lugano"]]
    austrian = (zones[3] + zones[4]) if n < 4 else []
    if c["type"] == "major":
        if first_home is None:
            pool = every
        else:
            zone = next(i for i, z in enumerate(zones) if first_home in z)
            if n < 4:
                pool = list(zones[zone])
            elif n == 4:
                pool = [h for h in every if h not in zones[4]] if zone < 4 else list(zones[4])
            else:
                pool = every
            pool = [h for h in pool if h != first_home]
        return [h for h in pool if h not in reserved and h not in austrian]
    pool = [h for h in every if h not in reserved and h not in austrian and h not in md["major_cities"]]
    return [h for h in pool if not any(o for s in S.slots(m, b, h) for o in s)]


def home_choices(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str,
                 first_home: str | None = None) -> list[Spot]:
    """(hex, city) where the chosen home (or second) token may go: a free slot not reserved
    for another corporation, in one of `home_hexes`."""
    out = []
    for coord in home_hexes(m, b, variant, phase, corp, first_home):
        for city in tile_def(m, b, coord).cities:
            if core.free_slot(m, b, corp, coord, city):
                out.append(Spot(coord, city, 0))
    return out


# ---- ordinary token placement ----------------------------------------------------------------

def firenze_open(variant: str, phase: int | str, corp: str, sfma_floated: bool) -> bool:
    """Whether `corp` may token Firenze now (`check_token_hex`)."""
    return ("lite" in variant or version(variant) == 1 or regions.phase_number(phase) >= 4
            or sfma_floated or corp == "SFMA")


def legal_tokens(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str,
                 sfma_floated: bool = False, firenze_too: bool = False) -> list[Spot]:
    """Cities where the corporation may place a station token now (tokens are bought at
    founding: placing one costs nothing); `firenze_too`: Firenze as well while it is closed
    to the corporation (what 18xx.games' token step waits on: see `TokenStep.open`)."""
    open_ = firenze_too or firenze_open(variant, phase, corp, sfma_floated)
    firenze = None if open_ else data.map_data(variant)["firenze"]
    out = []
    for coord, n in sorted(reached(m, b, variant, phase, corp), key=lambda r: (m.order[r[0]], r[1])):
        if coord != firenze and tile_at(m, b, coord).tile.nodes[n].kind == "city" and core.free_slot(m, b, corp, coord, n):
            out.append(Spot(coord, n, 0))
    return out


# ---- token prices at founding ----------------------------------------------------------------

def hex_distance(a: str, b: str) -> int:
    """18xx.games' `hex_distance` for 1841's map (double-height coordinates: the number is
    the column, the letter the row)."""
    if a == b:
        return 0
    xa, ya = int(a[1:]), ord(a[0]) - ord("A")
    xb, yb = int(b[1:]), ord(b[0]) - ord("A")
    dx, dy = abs(xa - xb), abs(ya - yb)
    return max(0, dx + max(0, (dy - dx) // 2) - 1) + 1


def _walled(m: MapDef, borders: frozenset[tuple[str, int]], coord: str, edge: int) -> bool:
    """The hex's own side lists an impassable or a standing province border on `edge`."""
    return (coord, edge) in borders or any(
        x.edge == edge and x.type == "impassable" for x in m.hexes[coord].tile.borders)


def _neighbour(m: MapDef, coord: str, edge: int) -> str | None:
    other = hexgrid.neighbour(coord, edge, m.layout, m.axes)  # type: ignore[arg-type]
    return other if other in m.hexes else None


def _connected(m: MapDef, b: BoardState, borders: frozenset[tuple[str, int]], coord: str) -> bool:
    """`hex_connected?`: a tile was laid there, or its printed track has a city, or its
    printed track meets a laid tile across an exit."""
    if coord in b.tiles:
        return True
    t = tile_at(m, b, coord)
    if not t.paths:
        return False
    if t.tile.cities:
        return True
    for e in t.exits:
        if _walled(m, borders, coord, e):
            continue
        other = _neighbour(m, coord, e)
        if other is not None and other in b.tiles and hexgrid.invert(e) in tile_at(m, b, other).exits:
            return True
    return False


def hex_price(m: MapDef, b: BoardState, variant: str, phase: int | str, coord: str) -> int:
    """The token price a general corporation's home on `coord` sets (`hex_price`): by the
    nearest connected hex within two, searched as 18xx.games does (depth first, edges in
    order, over neither impassable nor standing province borders)."""
    borders = regions.borders(variant, phase)
    seen: list[str] = []
    nearest = 3

    def search(here: str) -> None:
        nonlocal nearest
        seen.append(here)
        d = hex_distance(here, coord)
        if _connected(m, b, borders, here) and d < nearest:
            nearest = d
        if d >= 2:
            return
        for edge in range(6):
            other = _neighbour(m, here, edge)
            if other is None or other in seen or hex_distance(other, coord) > 2:
                continue
            if _walled(m, borders, here, edge):
                continue
            search(other)

    search(coord)
    table = data.entities(variant)["token_price"]["general_by_distance"]
    return int(table[str(nearest)])


def token_price(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str,
                homes: Iterable[str] = ()) -> int:
    """Price of each token a corporation buys at founding: L.50 if historical, else the
    dearer `hex_price` of its home hexes (`homes`: its first token's hex and, if placed, its
    second's)."""
    if _corp(variant, corp).get("historical"):
        return int(data.entities(variant)["token_price"]["historical"])
    prices = [hex_price(m, b, variant, phase, h) for h in homes]
    if not prices:
        raise BoardError("no_home", f"{corp} has no home token yet")
    return max(prices)


def purchase_range(variant: str, kind: str) -> tuple[int, int]:
    """(fewest, most) tokens bought at founding: 2-5 for a major, 1-2 for a minor."""
    lo, hi = data.entities(variant)["token_purchase"][kind]
    return int(lo), int(hi)


def purchase_options(first_price: int, price: int, fewest: int, most: int, cash: int) -> dict[int, int]:
    """number of tokens -> total price, as `BuyNewTokens#choices` offers them: the first at
    `first_price`, each further one at `price`; more than the fewest only if affordable (the
    fewest are always offered, with emergency money if need be)."""
    out = {}
    for n in range(fewest, most + 1):
        total = 0 if n == 0 else first_price + (n - 1) * price
        if n > fewest and total > cash:
            continue
        out[n] = total
    return out


# ---- buying another corporation's token ------------------------------------------------------

class BuyableToken(msgspec.Struct, frozen=True):
    hex: str
    city: int
    slot: int
    owner: str


def _city_tokens(m: MapDef, b: BoardState, corp: str) -> int:
    return sum(1 for coord, _ in network.token_nodes(m, b, corp) if coord not in m.no_start_hexes)


def buyable_tokens(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str,
                   sellers: Collection[str]) -> list[BuyableToken]:
    """Other corporations' tokens `corp` may buy now (`can_replace_token?`): `sellers` are the
    corporations whose president is a player; the buyer must still have a token to place."""
    out = []
    for coord, n in sorted(reached(m, b, variant, phase, corp), key=lambda r: (m.order[r[0]], r[1])):
        if tile_at(m, b, coord).tile.nodes[n].kind != "city":
            continue
        row = S.slots(m, b, coord)
        if any(corp in s for s in row):
            continue
        for k, owner in enumerate(row[n]):
            if owner in (FREE, corp) or owner not in sellers:
                continue
            if coord in m.no_start_hexes or _city_tokens(m, b, owner) > 1:
                out.append(BuyableToken(coord, n, k, owner))
    return out


def token_buy_stops(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str) -> bool:
    """Whether 18xx.games' buy-token step stops for `corp` (G1841 `BuyToken#auto_actions`,
    `any_buyable_tokens_placed?`): some city it reaches holds another corporation's token, that
    corporation having more than one token placed. Looser than `buyable_tokens`: it counts a
    city `corp` already has a token in and any seller, so the step may stop with nothing to buy."""
    for coord, n in reached(m, b, variant, phase, corp):
        if tile_at(m, b, coord).tile.nodes[n].kind != "city":
            continue
        for owner in S.slots(m, b, coord)[n]:
            if owner not in (FREE, corp) and S.token_count(b, owner) > 1:
                return True
    return False


def buy_token(m: MapDef, b: BoardState, corp: str, coord: str, city: int, slot: int) -> BoardState:
    """`corp` buys the token in (`coord`, `city`, `slot`): that token comes off and `corp`'s
    goes in the city's first open slot (its reserved one if any: `City#exchange_token`)."""
    row = S.slots(m, b, coord)
    if city >= len(row) or slot >= len(row[city]) or row[city][slot] in (FREE, corp):
        raise BoardError("no_token", f"no other corporation's token in slot {slot} of {coord}")
    cleared = [list(s) for s in row]
    cleared[city][slot] = FREE
    tokens = dict(b.tokens)
    tokens[coord] = tuple(tuple(s) for s in cleared)
    return S.place_token(m, msgspec.structs.replace(b, tokens=tokens), corp, coord, city)


def reached(m: MapDef, b: BoardState, variant: str, phase: int | str, corp: str) -> set[NodeRef]:
    """The nodes the corporation's region graph reaches (tokens, token purchases, mergers)."""
    return graph.network(m, regions.open_board(m, b), corp, regions.borders(variant, phase)).nodes
