"""A throwaway title for developing the projection before Chicago Express lands: seats draw
hidden cards in turn. Real code behind the real contract, with hidden information."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import msgspec

from shared.engine import LegalAction, Result, RuleError


class Draw(msgspec.Struct, tag="draw", frozen=True):
    pass


class Pass(msgspec.Struct, tag="pass", frozen=True):
    pass


class TinyState(msgspec.Struct, frozen=True):
    seats: list[str]
    deck: list[int]
    hands: list[list[int]]
    turn: int


class Tiny:
    title: ClassVar[str] = "tiny"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    action_type: ClassVar[Any] = Draw | Pass
    state_type: ClassVar[type] = TinyState

    def default_options(self) -> dict[str, Any]:
        return {}

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> TinyState:
        deck = list(range(1000))
        random.Random(seed).shuffle(deck)
        return TinyState(seats=list(seats), deck=deck, hands=[[] for _ in seats], turn=0)

    def active_seats(self, state: TinyState) -> frozenset[int]:
        return frozenset() if not state.deck else frozenset({state.turn})

    def legal_actions(self, state: TinyState, seat: int) -> list[LegalAction]:
        return [LegalAction(Draw()), LegalAction(Pass())] if seat in self.active_seats(state) else []

    def apply(self, state: TinyState, seat: int, action: Any) -> TinyState:
        if seat not in self.active_seats(state):
            raise RuleError("not_your_turn", "wait")
        nxt = (state.turn + 1) % len(state.seats)
        if isinstance(action, Pass):
            return msgspec.structs.replace(state, turn=nxt)
        hands = [list(h) for h in state.hands]
        hands[seat].append(state.deck[0])
        return msgspec.structs.replace(state, deck=state.deck[1:], hands=hands, turn=nxt)

    def view(self, state: TinyState, seat: int | None) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "deck": len(state.deck),
            "hand": None if seat is None else state.hands[seat],
            "hand_sizes": [len(h) for h in state.hands],
            # Real titles' views run to tens of kB (a whole map); slow-client tests need that weight.
            "board": _BOARD,
        }

    def result(self, state: TinyState) -> Result | None:
        return None


_BOARD = [{"hex": i, "terrain": "plain"} for i in range(800)]

ENGINE = Tiny()
