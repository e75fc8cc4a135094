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
from shared.games.core18xx.memo import Last
from shared.games.g18ireland import flow as F
from shared.games.g18ireland import merging
from shared.games.g18ireland import programs as PG
from shared.games.g18ireland.common_steps import placer_seat, president_seat, seat_of_player
from shared.games.g18ireland.state import State

__all__ = ["actor", "active_seats", "connectivity", "everything", "for_seat", "president_seat", "seat_of_player"]

connectivity = merging.connectivity


def actor(state: State, action: Any) -> int:
    """The seat that decides `action`: a player itself, a company's president, a private's owner."""
    # asked of a decision before it is applied (an import names its seat) and again when it is
    # checked: the last answer is kept with the state and action objects (read without a call)
    known = _ACTOR.value
    if known is not None and known[0] is state and known[1] is action:
        return known[2]
    seat = _actor(state, action)
    _ACTOR.value = (state, action, seat)
    return seat


def _actor(state: State, action: Any) -> int:
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
    # asked of a decision's result (who acts next) and again of the same state when the next
    # decision is checked: the last answer is kept with the state object (read without a call)
    known = _ACTIVE.value
    if known is not None and known[0] is state:
        return known[1]
    play = F.ROUNDS.get(state.round)
    seats = frozenset() if play is None else play.active_seats(state)
    _ACTIVE.value = (state, seats)
    return seats


_ACTIVE = Last()
_ACTOR = Last()


def everything(state: State) -> list[LegalAction]:
    """Every family open now, whoever decides it."""
    play = F.ROUNDS.get(state.round)
    return [] if play is None else play.legal(state)


def for_seat(state: State, seat: int) -> list[LegalAction]:
    """The seat's decisions when it is to act, and at any time the programs it may set."""
    if state.round == "over" or not 0 <= seat < len(state.players):
        return []
    own = [la for la in everything(state) if actor(state, la.action) == seat] if seat in active_seats(state) else []
    return own + PG.offered(state, state.players[seat])
