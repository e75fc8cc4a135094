"""The board as 1841's engine asks it: lays, tokens, homes, routes, the borders of the phase.

Glue over the core's board (`core18xx/board`) until the board rules of `g1841/board/` (written
on their own branch) take over each question; every function here is pure over the `State`.

Borders (18xx.games `setup`, `select_track_graph`, `select_token_graph`): the province borders
of the phase always bound tokens and routes; track may cross them from phase 3 (phase 2 lays
use the region graph, later ones the plain graph).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from shared.games.core18xx.board import autoroute as AR
from shared.games.core18xx.board import network as NW
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import tokens as K
from shared.games.core18xx.board import track as TR
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.g1841 import data as D
from shared.games.g1841.money import corp_info

if TYPE_CHECKING:
    from shared.games.g1841.state import State

replace = msgspec.structs.replace
TRACK_RULES = TR.TrackRules()
COLORS = {"yellow": ("yellow",), "green": ("yellow", "green"), "brown": ("yellow", "green", "brown")}


def the_map(state: State) -> MapDef:
    return D.the_map(state.variant)


def phase_colors(state: State) -> tuple[str, ...]:
    return tuple(state.depot.current_phase.tiles)


def with_borders(state: State, board: B.BoardState, phase: int) -> B.BoardState:
    return B.with_closed(the_map(state), board, D.region_borders(state.variant, phase))


def track_board(state: State) -> B.BoardState:
    """The board track is laid on: the province borders shut in phase 2 only."""
    if int(state.depot.current_phase.name) == 2:
        return state.board
    return B.with_closed(the_map(state), state.board, ())


def lay_slot(state: State) -> TR.LaySlot | None:
    turn = state.operating.turn if state.operating else None
    lays = turn.lays if turn else 0
    return TR.lay_slot(D.entities(state.variant)["tile_lays_per_base"], lays, False)


def legal_lays(state: State, corp: str) -> list[TR.Lay]:
    slot = lay_slot(state)
    if slot is None:
        return []
    turn = state.operating.turn if state.operating else None
    laid = frozenset(turn.laid) if turn else frozenset()
    return TR.legal_lays(the_map(state), track_board(state), corp, phase_colors(state), slot, rules=TRACK_RULES,
                         laid_hexes=laid, cash=state.money.cash[corp])


def check_lay(state: State, corp: str, coord: str, tile: str, rotation: int) -> TR.Lay:
    slot = lay_slot(state)
    if slot is None:
        raise B.BoardError("no_lay_left", f"{corp} has no tile lay left this turn")
    turn = state.operating.turn if state.operating else None
    laid = frozenset(turn.laid) if turn else frozenset()
    return TR.check_lay(the_map(state), track_board(state), corp, phase_colors(state), slot, coord, tile, rotation,
                        rules=TRACK_RULES, laid_hexes=laid)


def lay(state: State, coord: str, tile: str, rotation: int, instance: str | None) -> B.BoardState:
    return B.lay(the_map(state), state.board, coord, tile, rotation, instance)


def tile_copy(state: State, name: str) -> str | None:
    return B.next_tile_id(the_map(state), state.board, name)


def token_spots(state: State, corp: str) -> list[K.TokenSpot]:
    """Reachable cities with a free slot (passes take tokens too). Firenze is kept for SFMA until
    it floats or phase 4 in the default game (G1841 `check_token_hex`)."""
    spots = K.legal_tokens(the_map(state), state.board, corp, 0)
    return [s for s in spots if firenze_ok(state, corp, s.hex)]


def firenze_ok(state: State, corp: str, coord: str) -> bool:
    if state.options.lite or state.options.version_1 or int(state.depot.current_phase.name) >= 4:
        return True
    if corp == "SFMA" or state.money.corps["SFMA"].floated:
        return True
    return coord != D.map_data(state.variant)["firenze"]


def node_id(state: State, coord: str, city: int) -> str:
    return B.node_id(the_map(state), state.board, coord, city)


def find_node(state: State, ident: str) -> tuple[str, int]:
    return B.find_node(the_map(state), state.board, ident)


def place_token(state: State, corp: str, coord: str, city: int) -> B.BoardState:
    return B.place_token(the_map(state), state.board, corp, coord, city)


def free_slot(state: State, corp: str, coord: str, city: int) -> bool:
    return K.free_slot(the_map(state), state.board, corp, coord, city)


def placed_tokens(state: State, corp: str) -> int:
    return B.token_count(state.board, corp)


def token_hexes(state: State, corp: str) -> list[str]:
    return [h for h, _ in B.token_hexes(state.board, corp)]


def historical_homes(state: State, corp: str) -> B.BoardState:
    """A historical corporation's home token(s): the city reserved for it, else the first
    (18xx.games `place_home_token`; IRSFF and SFTG have two homes)."""
    m, b = the_map(state), state.board
    for coord in corp_info(state.variant)[corp].homes:
        t = B.tile_def(m, b, coord)
        res = [r.city for r in b.reservations.get(coord, ()) if r.corp == corp and r.city >= 0]
        city = res[0] if res else t.cities[0]
        b = B.place_token(m, b, corp, coord, city)
    return b


def home_cities(state: State, corp: str, hexes: list[str]) -> list[tuple[str, int]]:
    m = the_map(state)
    out = []
    for coord in hexes:
        for city in B.tile_def(m, state.board, coord).cities:
            if free_slot(state, corp, coord, city):
                out.append((coord, city))
    return out


def close_corp(state: State, corp: str) -> B.BoardState:
    m, b = the_map(state), state.board
    for coord, _ in B.token_hexes(b, corp):
        b = B.remove_token(m, b, corp, coord)
    return B.unreserve(b, corp)


def unreserve(state: State, corp: str) -> B.BoardState:
    return B.unreserve(state.board, corp)


# --- routes --------------------------------------------------------------------------------

def ctx(state: State, corp: str) -> R.RouteContext:
    return R.RouteContext(corp=corp, phase_colors=phase_colors(state))


def trains(state: State, corp: str) -> dict[str, R.Train]:
    types = state.depot.types
    return {t.id: R.Train(t.id, types[t.name].distance) for t in state.depot.owned_by(corp)}


def can_run(state: State, corp: str) -> bool:
    return NW.reaches_stops(the_map(state), state.board, corp, 2)


def run(state: State, corp: str, specs: list[R.RouteSpec]) -> tuple[list[R.RouteResult], int]:
    return R.run_routes(the_map(state), state.board, ctx(state, corp), trains(state, corp), specs)


def best(state: State, corp: str) -> AR.BestRoutes:
    return AR.best_routes(the_map(state), state.board, ctx(state, corp), list(trains(state, corp).values()),
                          limit=20_000)


def token_price(state: State, corp: str) -> int:
    """A historical corporation's tokens cost L.50; a general one's by the distance from its
    homes to existing track (G1841 `token_price`, `hex_price`): the board rules answer it."""
    info = corp_info(state.variant)[corp]
    prices = D.entities(state.variant)["token_price"]
    if info.historical:
        return int(prices["historical"])
    try:
        from shared.games.g1841.board import tokens as BT  # type: ignore[import-not-found]
    except ImportError:
        BT = None
    if BT is not None and hasattr(BT, "token_price"):
        return int(BT.token_price(the_map(state), state.board, token_hexes(state, corp)))
    # until the board rules land: the home hex with track already, else the far price
    m = the_map(state)
    by = prices["general_by_distance"]
    laid = any(h in state.board.tiles or B.tile_at(m, state.board, h).exits for h in token_hexes(state, corp))
    return int(by["0"] if laid else by["3"])
