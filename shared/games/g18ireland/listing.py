"""Who acts now, and what they may do, as the contract's families.

Tile lays are a `Choice` trie hex -> tile copy -> rotation (`track.legal_lays`), tokens a
choice of city, routes an open choice whose suggestion is the best set of routes
(`autoroute.best_routes`; any other set is `apply`'s to judge), share purchases one action
per certificate kind, bids a range. Every family is tied to the seat that decides it: a
player's own actions, a company's by its president, a private's by its owner.
"""

from __future__ import annotations

from typing import Any

from shared.engine import LegalAction, RuleError
from shared.families import Choice
from shared.games.core18xx import actions as A
from shared.games.core18xx.choice import trie
from shared.games.g18ireland import merger_round as MG
from shared.games.core18xx.rounds import stock as SR
from shared.games.core18xx.rounds import waterfall_auction as W
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import flow as F
from shared.games.g18ireland import operating_round as OPR
from shared.games.g18ireland import company_turn as OP
from shared.games.g18ireland import privates as PV
from shared.games.g18ireland import programs as PG
from shared.games.g18ireland import merging
from shared.games.g18ireland.state import State


connectivity = merging.connectivity


def seat_of_player(state: State, player: str) -> int:
    try:
        seat = int(player)
    except ValueError:
        raise RuleError("no_such_player", f"there is no player {player!r}") from None
    if not 0 <= seat < len(state.players) or state.players[seat] != player:
        raise RuleError("no_such_player", f"there is no player {player!r}")
    return seat


def president_seat(state: State, corp: str) -> int:
    c = state.money.corps.get(corp)
    if c is None or not c.ipoed or c.closed:
        raise RuleError("no_such_company", f"{corp} is not a company in play")
    return seat_of_player(state, state.money.book.president_of(corp))


def placer_seat(state: State) -> int:
    """The seat that places the first waiting token."""
    waiting = state.pending[0]
    if waiting.for_player is not None:
        return seat_of_player(state, waiting.for_player)
    return president_seat(state, waiting.placer)


def actor(state: State, action: Any) -> int:
    """The seat that decides `action`: a player itself, a company's president, a private's owner."""
    kind, entity = action.entity_type, str(action.entity)
    if kind == "player":
        return seat_of_player(state, entity)
    if kind == "corporation":
        if state.pending and state.pending[0].placer == entity:
            return placer_seat(state)
        return president_seat(state, entity)
    if kind == "company":
        owner = state.money.companies.get(entity)
        if owner is None:
            raise RuleError("no_such_company", f"{entity} is not a private in play")
        return seat_of_player(state, owner) if owner in state.players else president_seat(state, owner)
    raise RuleError("bad_entity", f"unknown entity type {kind!r}")


def active_seats(state: State) -> frozenset[int]:
    if state.round == "over":
        return frozenset()
    if state.pending:
        return frozenset({placer_seat(state)})
    ask = _ACTIVE.get(state.round)
    return ask(state) if ask is not None else frozenset()


def _one(state: State, player: str | None) -> frozenset[int]:
    return frozenset() if player is None else frozenset({seat_of_player(state, player)})


def _auction_active(state: State) -> frozenset[int]:
    return _one(state, state.auction.active_player()) if state.auction is not None else frozenset()


def _stock_active(state: State) -> frozenset[int]:
    return _one(state, SR.active_player(state.money, state.stock)) if state.stock is not None else frozenset()


def _merger_active(state: State) -> frozenset[int]:
    if state.merger is None:
        return frozenset()
    corp = merging.crowded(state)
    if corp is not None:
        return frozenset({president_seat(state, corp)})
    return _one(state, MG.active_player(state.money, state.merger))


def _operating_active(state: State) -> frozenset[int]:
    if state.operating is None or state.operating.turn is None:
        return frozenset()
    over = OP.crowded(state.money, state.depot)
    if over:        # the first company over its train limit discards first, whatever the step
        return frozenset({president_seat(state, over[0])})
    return frozenset({president_seat(state, state.operating.turn.corp)})


def everything(state: State) -> list[LegalAction]:
    """Every family open now, whoever decides it."""
    if state.round == "over":
        return []
    if state.pending:
        return _pending(state)
    ask = _EVERYTHING.get(state.round)
    return ask(state) if ask is not None else []


def _auction_legal(state: State) -> list[LegalAction]:
    player = state.auction.active_player() if state.auction is not None else None
    return W.legal(state.auction, player) if player else []     # type: ignore[arg-type]


def _stock_legal(state: State) -> list[LegalAction]:
    player = SR.active_player(state.money, state.stock) if state.stock is not None else None
    return SR.legal(state.money, state.stock, player, F.STOCK_RULES) if player else []   # type: ignore[arg-type]


def _merger_legal(state: State) -> list[LegalAction]:
    if state.merger is None:
        return []
    corp = merging.crowded(state)
    if corp is not None:
        return merging.discard_legal(state, corp)
    player = MG.active_player(state.money, state.merger)
    return merging.legal(state, player) if player else []


def for_seat(state: State, seat: int) -> list[LegalAction]:
    """The seat's decisions when it is to act, and at any time the programs it may set."""
    if state.round == "over" or not 0 <= seat < len(state.players):
        return []
    own = [la for la in everything(state) if actor(state, la.action) == seat] if seat in active_seats(state) else []
    return own + PG.offered(state, state.players[seat])


def _pending(state: State) -> list[LegalAction]:
    waiting = state.pending[0]
    if waiting.kind == "home":
        spots = BO.home_spots(state, waiting.corp)
    else:
        spots = BO.relocation_spots(state, waiting.corp, waiting.hex or "")
    return _token_family(state, waiting.corp, spots, waiting.placer)


def _token_family(state: State, corp: str, spots: list[Any], placer: str | None = None) -> list[LegalAction]:
    """`corp`'s token to one of `spots`, placed by `placer` (the company itself by default)."""
    rows = [(BO.node_id(state, s), slot) for s in spots for slot in BO.slots_for(state, corp, s)]
    choices = trie(("city", "slot"), rows)
    if choices is None:
        return []
    placer = placer or corp
    base = A.PlaceToken(entity=placer, entity_type="corporation", city=rows[0][0], slot=rows[0][1], tokener=placer)
    return [LegalAction(action=base, choices=choices)]


def _operating(state: State) -> list[LegalAction]:
    op = state.operating
    if op is None or op.turn is None:
        return []
    if op.turn.stage == "done":
        return []
    if OP.crowded(state.money, state.depot):
        return OPR.money_legal(state, A.DiscardTrain)     # a discard comes first
    if state.pair is not None:
        return PV.legal(state)        # the second tile of a private's pair, nothing else
    turn = op.turn
    corp = turn.corp
    out: list[LegalAction] = PV.legal(state)
    if turn.stage == "track":
        lays = BO.legal_lays(state, corp, turn.lays, turn.upgraded)
        rows = []
        for lay in lays:
            copy = BO.tile_copy(state, lay.tile)
            if copy is not None:
                rows.append((lay.hex, copy, lay.rotation))
        choices = trie(("hex", "tile", "rotation"), rows)
        if choices is not None:
            first = rows[0]
            out.append(LegalAction(action=A.LayTile(entity=corp, entity_type="corporation", hex=first[0],
                                                    tile=first[1], rotation=first[2]), choices=choices))
    elif turn.stage == "token":
        out += _token_family(state, corp, BO.token_spots(state, corp, OPR.token_cost(state, corp)))
    elif turn.stage == "route":
        best = BO.best(state, corp)
        routes = [A.Route(train=r.train, connections=[list(c) for c in r.connections], nodes=list(r.stops),
                          revenue=r.revenue) for r in best.routes]
        out.append(LegalAction(action=A.RunRoutes(entity=corp, entity_type="corporation", routes=routes),
                               choices=Choice("routes", [routes], open=True)))
    out += OPR.money_legal(state)
    out += [LegalAction(action=a) for a in OPR.assignments(state)]
    return out


# who acts and what is open, by round (the round in play names its own answers)
_ACTIVE = {"auction": _auction_active, "stock": _stock_active, "merger": _merger_active,
           "operating": _operating_active}
_EVERYTHING = {"auction": _auction_legal, "stock": _stock_legal, "merger": _merger_legal,
               "operating": _operating}
