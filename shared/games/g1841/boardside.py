"""The board as 1841's engine asks it: glue over the title's board rules (`g1841/board/`,
pure functions of the map, the board, the variant and the phase), reading them off the `State`.

Borders: the phase's province borders stand on `state.board` (set at the start and by the
border events); the board rules decide where they bind (track in phase 2, tokens always,
trains never).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from shared.games.core18xx.board import autoroute as AR
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as TR
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.memo import Last, Memo
from shared.games.g1841 import data as D
from shared.games.g1841.board import events as BE
from shared.games.g1841.board import graph as BG
from shared.games.g1841.board import routes as BR
from shared.games.g1841.board import stations as BST
from shared.games.g1841.board import track as BT

if TYPE_CHECKING:
    from shared.games.g1841.state import State


def the_map(state: State) -> MapDef:
    return D.the_map(state.variant)


def phase(state: State) -> int:
    return int(state.depot.current_phase.name)


def initial(variant: str) -> B.BoardState:
    return BST.initial(D.the_map(variant), variant)


def border_event(state: State, event: str) -> B.BoardState:
    return BE.border_event(the_map(state), state.board, state.variant, event)


def _kind(state: State, corp: str) -> str:
    return state.money.corps[corp].type


def _turn_start(state: State) -> tuple[B.BoardState, tuple[str, ...]]:
    turn = state.operating.turn if state.operating else None
    if turn is None or turn.start is None:
        return state.board, ()
    return turn.start, tuple(turn.laid)


# Every legal lay of a position is asked for by the track step (is it open?), the listing and
# apply's check of a decision: one enumeration per board, not three; and the lays of one hex,
# tile and rotation by apply's check of a lay and the track step's processing of it.
_LAYS = Memo(256)


def legal_lays(state: State, corp: str) -> list[TR.Lay]:
    return _kept_lays(state, corp, None)


def lays_at(state: State, corp: str, coord: str, tile: str, rotation: int) -> list[TR.Lay]:
    """The legal lays of `tile` on `coord` laying the track of that rotation (`legal_lays` of
    that hex, tile and track alone): what checking one lay needs, without listing the others."""
    if coord not in the_map(state).hexes:
        return []
    return _kept_lays(state, corp, (coord, tile, rotation))


def _kept_lays(state: State, corp: str, only: tuple[str, str, int] | None) -> list[TR.Lay]:
    start, laid = _turn_start(state)
    order = state.token_order.get(corp)
    cash = state.money.cash[corp]
    kind = _kind(state, corp)
    key = (id(state.board), id(start), laid, state.variant, phase(state), corp, kind, cash,
           tuple(order) if order is not None else None, only)
    held = (state.board, start)
    found = _LAYS.get(key, held)
    if found is None:
        coord, tile, rotation = only if only is not None else (None, None, None)
        found = _LAYS.put(key, held, BT.legal_lays(
            the_map(state), state.board, state.variant, phase(state), corp, kind,  # type: ignore[arg-type]
            start, laid, cash=cash, order=order, only_hex=coord, only_tile=tile, only_rotation=rotation))
    return found


def lays_left(state: State, corp: str, laid: int) -> bool:
    """Whether the corporation has a tile lay left this turn, legal or not: 18xx.games' track
    step waits (for a lay or a pass) while `num_laid_track < num_possible_lays`, whether or not
    any lay is legal (G1841 `Track#can_lay_tile?`)."""
    bases = BT.railheads(the_map(state), state.board, corp)
    return laid < BT.lays_allowed(_kind(state, corp), phase(state), len(bases))  # type: ignore[arg-type]


def check_lay(state: State, corp: str, coord: str, tile: str, rotation: int) -> TR.Lay:
    start, laid = _turn_start(state)
    return BT.check_lay(the_map(state), state.board, state.variant, phase(state), corp, _kind(state, corp),  # type: ignore[arg-type]
                        start, laid, coord, tile, rotation, cash=state.money.cash[corp],
                        order=state.token_order.get(corp), lays=lambda: lays_at(state, corp, coord, tile, rotation))


def new_offboards(state: State, corp: str) -> set[str]:
    """Off-board hexes of the end-trigger groups the corporation's track reaches now and no
    track had reached before (18xx.games' `Destinate` after the lays: `new_offboard_connections`
    on the track graph); once every one has been reached, none is new, and nothing is walked."""
    from shared.games.core18xx.board import network as NW
    from shared.games.g1841.board import regions as RG
    known = set(state.offboards)
    listed = {h for hexes in D.map_data(state.variant)["offboard_groups"].values() for h in hexes}
    if listed <= known:
        return set()
    m = the_map(state)
    walked = RG.track_board(m, state.board, state.variant, phase(state))
    return {coord for coord, _ in NW.broad(m, walked, corp).nodes if coord in listed} - known


def all_offboards_connected(variant: str, connected: list[str]) -> bool:
    return all(any(h in connected for h in hexes) for hexes in D.map_data(variant)["offboard_groups"].values())


def lay(state: State, coord: str, tile: str, rotation: int, instance: str | None) -> B.BoardState:
    return B.lay(the_map(state), state.board, coord, tile, rotation, instance)


def tile_copy(state: State, name: str) -> str | None:
    return B.next_tile_id(the_map(state), state.board, name)


def token_spots(state: State, corp: str, firenze_too: bool = False) -> list:
    return BST.legal_tokens(the_map(state), state.board, state.variant, phase(state), corp,
                            sfma_floated="SFMA" in state.money.corps and state.money.corps["SFMA"].floated,
                            firenze_too=firenze_too)


def node_id(state: State, coord: str, city: int) -> str:
    return B.node_id(the_map(state), state.board, coord, city)


def find_node(state: State, ident: str) -> tuple[str, int]:
    return B.find_node(the_map(state), state.board, ident)


def place_token(state: State, corp: str, coord: str, city: int) -> B.BoardState:
    return B.place_token(the_map(state), state.board, corp, coord, city)


def placed_tokens(state: State, corp: str) -> int:
    return B.token_count(state.board, corp)


def token_hexes(state: State, corp: str) -> list[str]:
    return [h for h, _ in B.token_hexes(state.board, corp)]


def places_homes_itself(state: State, corp: str) -> bool:
    return BST.places_homes_itself(state.variant, corp)


def home_hexes(state: State, corp: str, first_home: str | None) -> list[str]:
    """The hexes 18xx.games lists for a home token (`home_token_locations`), full or not."""
    return BST.home_hexes(the_map(state), state.board, state.variant, phase(state), corp, first_home)


def historical_homes(state: State, corp: str) -> B.BoardState:
    return BST.place_homes(the_map(state), state.board, state.variant, corp)


# asked for every corporation a founder might start, at every share step's "is it open?"
_HOMES = Memo(256)


def home_choices(state: State, corp: str, first_home: str | None) -> list[tuple[str, int]]:
    b, n = state.board, phase(state)
    key = (id(b), state.variant, n, corp, first_home)
    found = _HOMES.get(key, (b,))
    if found is None:
        spots = BST.home_choices(the_map(state), b, state.variant, n, corp, first_home)
        found = _HOMES.put(key, (b,), [(s.hex, s.city) for s in spots])
    return list(found)


def token_price(state: State, corp: str) -> int:
    return BST.token_price(the_map(state), state.board, state.variant, phase(state), corp,
                           state.token_order.get(corp) or token_hexes(state, corp))


def purchase_options(state: State, corp: str) -> dict[int, int]:
    fewest, most = BST.purchase_range(state.variant, _kind(state, corp))
    price = token_price(state, corp)
    return BST.purchase_options(price, price, fewest, most, state.money.cash[corp])


def buyable_tokens(state: State, corp: str) -> list:
    """Other corporations' tokens `corp` may buy (sellers: those a player presides)."""
    money = state.money
    live = [s for s, c in money.corps.items() if c.ipoed and not c.closed and s != corp]
    sellers = [s for s in live if money.book.president_of(s) in money.players]
    return BST.buyable_tokens(the_map(state), state.board, state.variant, phase(state), corp, sellers)


def token_buy_stops(state: State, corp: str) -> bool:
    return BST.token_buy_stops(the_map(state), state.board, state.variant, phase(state), corp)


def buy_token(state: State, corp: str, coord: str, city: int, slot: int) -> B.BoardState:
    return BST.buy_token(the_map(state), state.board, corp, coord, city, slot)


def merge_partners(state: State, corp: str) -> set[str]:
    return BE.merge_partners(the_map(state), state.board, state.variant, phase(state), corp)


def unreserve(state: State, corp: str) -> B.BoardState:
    return B.unreserve(state.board, corp)


# --- routes --------------------------------------------------------------------------------

def _trains(state: State, corp: str) -> tuple[tuple[str, str], ...]:
    return tuple((t.id, t.name) for t in state.depot.owned_by(corp))


def run(state: State, corp: str, specs: list[R.RouteSpec]) -> tuple[list[R.RouteResult], int]:
    return BR.run_routes(the_map(state), state.board, state.variant, phase(state), corp,
                         dict(_trains(state, corp)), specs)


def best(state: State, corp: str) -> AR.BestRoutes:
    trains = _trains(state, corp)
    held, extra = (state.board, state.depot), (corp, phase(state))
    hit = _BEST.get(held, extra)
    if hit is not None:
        return hit
    return _BEST.put(held, BR.best_routes(the_map(state), state.board, state.variant, phase(state), corp,
                                          list(trains), limit=20_000), extra)


_BEST = Last()


def route_available(state: State, corp: str) -> bool:
    """18xx.games' `route_info` of the corporation: one base reaching two stops neither passes
    nor ports (`graph.route_train_purchase`), whatever the trains could run. Both its
    `route_available` (the route step waits for a run) and `route_train_purchase` (a
    corporation without a train must buy one): 1841 has no `:optional` stop to tell them apart."""
    m = the_map(state)
    return BG.route_train_purchase(m, state.board, corp, _never(state.variant))


@cache
def _never(variant: str) -> frozenset[str]:
    return frozenset(D.ports(variant)) | D.the_map(variant).no_start_hexes


