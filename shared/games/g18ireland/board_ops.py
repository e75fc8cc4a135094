"""The board as 18Ireland's engine uses it: which hexes are blocked, which lays, tokens and
routes a company has now, and the board's side of money events (homes placed, closed
companies leaving the map, merged minors' tokens passing to the major).

Thin glue over `core18xx` (board, track, tokens, routes, autoroute) and `map.py`; the facts
are documented there. Every function is pure over the title's `State`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared.games.core18xx.board import autoroute as AR
from shared.games.core18xx.board import network as NW
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import tokens as K
from shared.games.core18xx.board import track as TR
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.memo import Last
from shared.games.g18ireland.map import (
    PHASE_COLORS,
    SHANNON_COMPANY,
    TRACK_RULES,
    blocked_hexes,
    board_map,
    route_context,
)
from shared.games.g18ireland.map import lay_slot as map_lay_slot

if TYPE_CHECKING:
    from shared.games.g18ireland.state import State

DARGAN = "WDE"


def the_map() -> MapDef:
    return board_map()


def phase(state: State) -> str:
    return state.depot.current_phase.name


def colors(state: State) -> tuple[str, ...]:
    return PHASE_COLORS[phase(state)]


def blocked(state: State) -> frozenset[str]:
    """DAR and DCR block their hexes while a player (not a company) owns them."""
    players = set(state.money.players)
    return blocked_hexes({c for c, owner in state.money.companies.items() if owner in players})


def owns_dargan(state: State, corp: str) -> bool:
    return state.money.companies.get(DARGAN) == corp


def lay_slot(state: State, corp: str, lays: int, upgraded: bool) -> TR.LaySlot | None:
    return map_lay_slot(lays, upgraded, owns_dargan(state, corp))


def legal_lays(state: State, corp: str, lays: int, upgraded: bool) -> list[TR.Lay]:
    slot = lay_slot(state, corp, lays, upgraded)
    if slot is None:
        return []
    return TR.legal_lays(the_map(), state.board, corp, colors(state), slot, rules=TRACK_RULES,
                         blocked=blocked(state), cash=state.money.cash[corp])


def check_lay(state: State, corp: str, lays: int, upgraded: bool, coord: str, tile: str, rotation: int) -> TR.Lay:
    slot = lay_slot(state, corp, lays, upgraded)
    if slot is None:
        raise B.BoardError("no_lay_left", f"{corp} has no tile lay left this turn")
    lay = TR.check_lay(the_map(), state.board, corp, colors(state), slot, coord, tile, rotation,
                       rules=TRACK_RULES, blocked=blocked(state))
    if lay.cost > state.money.cash[corp]:
        raise B.BoardError("cannot_afford", f"{corp} cannot pay {lay.cost} for that lay")
    return lay


def tile_copy(state: State, name: str) -> str | None:
    """The copy of tile `name` a lay takes (18xx.games' supply order)."""
    return B.next_tile_id(the_map(), state.board, name)


def token_spots(state: State, corp: str, cost: int) -> list[K.TokenSpot]:
    return K.legal_tokens(the_map(), state.board, corp, cost, state.money.cash[corp])


def node_id(state: State, spot: K.TokenSpot) -> str:
    return B.node_id(the_map(), state.board, spot.hex, spot.city)


def place(state: State, corp: str, coord: str, city: int, spots: list[K.TokenSpot],
          slot: int | None) -> B.BoardState:
    """The board with `corp`'s token in `city`. The token takes the slot the rules give it
    (its reservation, else the first open slot); `slot`, when given, is the slot an
    18xx.games player clicked, which may be any empty slot of that city: 18xx.games records
    the click and places the token by the rule all the same."""
    board = K.place(the_map(), state.board, corp, coord, city, spots)
    if slot is not None and slot not in empty_slots(state, coord, city):
        raise B.BoardError("wrong_slot", f"slot {slot} of that city is not an empty slot")
    return board


def empty_slots(state: State, coord: str, city: int) -> list[int]:
    return [i for i, owner in enumerate(B.slots(the_map(), state.board, coord)[city]) if owner == B.FREE]


def token_slot(before: B.BoardState, after: B.BoardState, coord: str, city: int) -> int:
    m = the_map()
    old, new = B.slots(m, before, coord)[city], B.slots(m, after, coord)[city]
    return next(i for i, (a, z) in enumerate(zip(old, new)) if a != z)


def slot_for(state: State, corp: str, spot: K.TokenSpot) -> int:
    after = B.place_token(the_map(), state.board, corp, spot.hex, spot.city)
    return token_slot(state.board, after, spot.hex, spot.city)


def slots_for(state: State, corp: str, spot: K.TokenSpot) -> list[int]:
    """The slots a token action may name: the one the token takes first, then the city's
    other empty slots (see `place`)."""
    first = slot_for(state, corp, spot)
    return [first, *(i for i in empty_slots(state, spot.hex, spot.city) if i != first)]


def find_node(state: State, ident: str) -> tuple[str, int]:
    return B.find_node(the_map(), state.board, ident)


def can_run(state: State, corp: str) -> bool:
    # 18xx.games' route_available: the broad network reaches a second stop
    return NW.reaches_stops(the_map(), state.board, corp, 2)


def ctx(state: State, corp: str) -> R.RouteContext:
    assigned = {c: (h, beneficiary) for c, (h, beneficiary) in state.assigned.items()}
    return route_context(corp, phase(state), assigned, owns_shannon=state.money.companies.get(SHANNON_COMPANY) == corp)


def trains(state: State, corp: str) -> dict[str, R.Train]:
    types = state.depot.types
    return {t.id: R.Train(t.id, types[t.name].distance) for t in state.depot.owned_by(corp)}


def run(state: State, corp: str, specs: list[R.RouteSpec]) -> tuple[list[R.RouteResult], int]:
    return R.run_routes(the_map(), state.board, ctx(state, corp), trains(state, corp), specs)


def best(state: State, corp: str) -> AR.BestRoutes:
    return AR.best_routes(the_map(), state.board, ctx(state, corp), list(trains(state, corp).values()))


# --- the board's side of what the money side does -------------------------------------------

def _home(m: MapDef, b: B.BoardState, corp: str) -> B.BoardState:
    coord, city = m.homes[corp]
    t = B.tile_def(m, b, coord)
    res = [r for r in b.reservations.get(coord, ()) if r.corp == corp and r.city >= 0]
    c = res[0].city if res else (t.cities[city] if city is not None else t.cities[0])
    return B.place_token(m, b, corp, coord, c)


def sync(state: State) -> B.BoardState:
    """The board after a money change: a minor just started gets its home token (18Ireland
    places minors' homes at once); a closed company's reservations and tokens leave the map."""
    b, corps, pending = state.board, state.money.corps, state.pending
    # asked several times per decision, mostly of the same companies and board (every change
    # copies `corps` and the board): the last answer is kept with them and (a copy of) the
    # waiting tokens (read without a call)
    known = _SYNCED.value
    if known is not None and known[0] is corps and known[1] is b and (known[2] is pending or known[2] == pending):
        return known[3]
    m = the_map()
    waiting = frozenset(p.corp for p in pending)
    # one owner index and one reservation scan for all companies (a change below touches
    # only that company's tokens and reservations)
    owners = B.token_owners(b)
    reserved: set[str] | None = None     # asked only of closed companies
    for sym, corp in corps.items():
        on_map = owners.get(sym, ())
        if corp.closed:
            if reserved is None:
                reserved = {r.corp for rs in b.reservations.values() for r in rs}
            if on_map or sym in reserved:
                for coord, _ in on_map:
                    b = B.remove_token(m, b, sym, coord)
                b = B.release(b, sym)
        elif corp.ipoed and not on_map and sym in m.homes and sym not in waiting:
            b = _home(m, b, sym)
    _SYNCED.value = (corps, state.board, list(pending), b)
    return b


_SYNCED = Last()


def needs_home(state: State, corp: str) -> bool:
    """A company just started whose president places its home token: a major (no printed home
    in 18Ireland), or a minor whose home hex it reserves as a whole (no city named) once track
    lies there, so that it must choose the city (18xx.games' `place_home_token`; with no track
    yet its token goes to the first city and moves when the first tile is laid)."""
    m, b = the_map(), state.board
    if B.token_count(b, corp):
        return False
    if corp not in m.homes:
        return True
    coord, _ = m.homes[corp]
    whole_hex = any(r.corp == corp and r.city < 0 for r in b.reservations.get(coord, ()))
    return whole_hex and bool(B.tile_at(m, b, coord).paths)


def home_spots(state: State, corp: str) -> list[K.TokenSpot]:
    return K.home_spots(the_map(), state.board, corp)


def relocation_spots(state: State, corp: str, coord: str) -> list[K.TokenSpot]:
    return K.relocation_spots(the_map(), state.board, corp, coord)
