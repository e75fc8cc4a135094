"""Steps more than one of 18Ireland's rounds holds: a waiting token placed first (18xx.games'
HomeToken: a major's home after its par, a home lifted by a lay), and a company over its train
limit discarding before anything else (DiscardTrain). Plus what every 18Ireland step shares:
its refusal, and who acts for an entity."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import LegalAction, RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.choice import trie
from shared.games.core18xx.legal import covers
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.rounds import operating_legal as OM
from shared.games.core18xx.rounds.base import Round
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import company_turn as OP
from shared.games.g18ireland.state import State
from shared.games.g18ireland.turn_context import board_changed

replace = msgspec.structs.replace
NONE: frozenset[str] = frozenset()


def kind(action: Any) -> str:
    """An action's 18xx.games type tag (what a round routes by)."""
    return type(action).__struct_config__.tag


def seat_of_player(state: State, player: str) -> int:
    # player ids are the seats' numbers ("0", "1", ...): read off a table, not parsed
    seat = _SEAT_OF.get(player)
    players = state.players
    if seat is None or seat >= len(players) or players[seat] != player:
        raise RuleError("no_such_player", f"there is no player {player!r}")
    return seat


_SEAT_OF = {str(i): i for i in range(64)}


def president_seat(state: State, corp: str) -> int:
    c = state.money.corps.get(corp)
    if c is None or not c.ipoed or c.closed:
        raise RuleError("no_such_company", f"{corp} is not a company in play")
    return seat_of_player(state, state.money.book.president_of(corp))


def board_error(exc: B.BoardError) -> RuleError:
    return RuleError(exc.code, exc.message)


class IrelandStep:
    """What 18Ireland's steps share: a decision this waiting step stands in front of is refused
    as not open now. Non-blocking by default, with no decisions and nobody of its own to decide."""

    name = "step"

    def refusal(self, state: State, kind: str) -> RuleError:
        return RuleError("not_allowed", f"{kind} is not open now ({self.name} step)")

    def actions(self, state: State, entity: str) -> frozenset[str]:
        return NONE

    def blocking(self, state: State) -> bool:
        return False

    def legal(self, state: State) -> list[LegalAction]:
        return []

    def active_entities(self, state: State) -> list[int]:
        """Who decides at this step, when not the round's own (an operating company's president)."""
        return []

    def process(self, state: State, action: Any) -> State:
        raise RuleError("not_allowed", f"{kind(action)} is not open now")


# --- a waiting token -------------------------------------------------------------------------

def placer_seat(state: State) -> int:
    """The seat that places the first waiting token."""
    waiting = state.pending[0]
    if waiting.for_player is not None:
        return seat_of_player(state, waiting.for_player)
    return president_seat(state, waiting.placer)


def token_family(state: State, corp: str, spots: list[Any], placer: str | None = None) -> list[LegalAction]:
    """`corp`'s token to one of `spots`, placed by `placer` (the company itself by default)."""
    rows = [(BO.node_id(state, s), slot) for s in spots for slot in BO.slots_for(state, corp, s)]
    choices = trie(("city", "slot"), rows)
    if choices is None:
        return []
    placer = placer or corp
    base = A.PlaceToken(entity=placer, entity_type="corporation", city=rows[0][0], slot=rows[0][1], tokener=placer)
    return [LegalAction(action=base, choices=choices)]


def plain_token(action: A.PlaceToken) -> None:
    if action.cost is not None or action.token_type is not None or (
            action.tokener is not None and action.tokener != action.entity):
        raise RuleError("not_allowed", "a company places its own token at its own price")


def _waiting_spots(state: State) -> list[Any]:
    waiting = state.pending[0]
    if waiting.kind == "home":
        return BO.home_spots(state, waiting.corp)
    return BO.relocation_spots(state, waiting.corp, waiting.hex or "")


class PendingToken(IrelandStep):
    """A token that must be placed before play goes on (`State.pending`)."""

    name = "home_token"
    kinds = frozenset({"place_token"})

    def blocking(self, state: State) -> bool:
        return bool(state.pending)

    def actions(self, state: State, entity: str) -> frozenset[str]:
        return self.kinds if state.pending else NONE

    def refusal(self, state: State, kind: str) -> RuleError:
        waiting = state.pending[0]
        return RuleError("token_first", f"{waiting.placer} must place {waiting.corp}'s token first")

    def active_entities(self, state: State) -> list[int]:
        return [placer_seat(state)]

    def legal(self, state: State) -> list[LegalAction]:
        if not state.pending:
            return []
        waiting = state.pending[0]
        return token_family(state, waiting.corp, _waiting_spots(state), waiting.placer)

    def process(self, state: State, action: A.PlaceToken) -> State:
        waiting = state.pending[0]
        if action.entity != waiting.placer or action.entity_type != "corporation":
            raise RuleError("not_your_turn", f"{waiting.placer} must place {waiting.corp}'s token first")
        plain_token(action)
        try:
            coord, city = BO.find_node(state, action.city)
            board = BO.place(state, waiting.corp, coord, city, _waiting_spots(state), action.slot)
        except B.BoardError as exc:
            raise board_error(exc) from None
        return replace(board_changed(state, board), pending=state.pending[1:])


# --- a company over its train limit ----------------------------------------------------------

class DiscardTrain(IrelandStep):
    """The first company over its train limit hands a train to the pool, whatever else waits."""

    name = "discard_train"
    kinds = frozenset({"discard_train"})

    def _first(self, state: State) -> str | None:
        over = OP.crowded(state.money, state.depot)
        return over[0] if over else None

    def blocking(self, state: State) -> bool:
        return bool(OP.crowded(state.money, state.depot))

    def actions(self, state: State, entity: str) -> frozenset[str]:
        return self.kinds if self.blocking(state) else NONE

    def refusal(self, state: State, kind: str) -> RuleError:
        return RuleError("discard_first", f"{self._first(state)} must discard a train first")

    def active_entities(self, state: State) -> list[int]:
        corp = self._first(state)
        return [] if corp is None else [president_seat(state, corp)]

    def legal(self, state: State) -> list[LegalAction]:
        corp = self._first(state)
        return [] if corp is None else OM.discard(state.money, state.depot, corp)

    def process(self, state: State, action: A.DiscardTrain) -> State:
        corp = self._first(state)
        if action.entity != corp:
            raise self.refusal(state, "discard_train")
        if not covers(self.legal(state), action):
            raise RuleError("not_owner", f"{corp} does not own {action.train}")
        return replace(state, depot=T.discard(state.depot, corp, action.train))


# --- a round in play -------------------------------------------------------------------------

class Play:
    """One of 18Ireland's rounds as the flow drives it: its steps (`round`), a decision routed
    to the step that takes it, moving on by itself, whether it is finished, who acts, what is
    open. The operating round overrides these for its turn after turn."""

    def __init__(self, round_: Round[State]) -> None:
        self.round = round_

    def decide(self, state: State, seat: int, action: Any) -> State:
        return self.round.process(state, str(action.entity), kind(action), action)

    def advance(self, state: State) -> State:
        return self.round.advance(state)

    def finished(self, state: State) -> bool:
        return self.round.finished(state)

    def active_seats(self, state: State) -> frozenset[int]:
        return frozenset(self.round.active_entities(state))

    def legal(self, state: State) -> list[LegalAction]:
        return self.round.legal(state)
