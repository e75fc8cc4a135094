"""A tiny title that meets the engine contract, so the offline tools are tested on a second title
and not only on Chicago Express: Nim with 2..4 players, take 1..3 from one pile, whoever takes
the last counter wins."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import msgspec

from shared.engine import AmountRange, LegalAction, Result, RuleError


class Take(msgspec.Struct, tag="take", frozen=True):
    pile: int
    count: int


class NimState(msgspec.Struct, frozen=True):
    piles: tuple[int, ...]
    players: int
    turn: int = 0
    winner: int | None = None


class NimEngine:
    title: ClassVar[str] = "nim"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    action_type: ClassVar[Any] = Take
    state_type: ClassVar[type] = NimState

    def default_options(self) -> dict[str, Any]:
        return {"piles": 3}

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> NimState:
        if not self.min_players <= len(seats) <= self.max_players:
            raise RuleError("bad_players", f"nim takes 2..4 players, not {len(seats)}")
        rng = random.Random(seed)
        return NimState(piles=tuple(rng.randint(3, 7) for _ in range(options["piles"])), players=len(seats))

    def active_seats(self, state: NimState) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: NimState, seat: int) -> list[LegalAction]:
        if seat not in self.active_seats(state):
            return []
        return [
            LegalAction(Take(pile, 1), AmountRange("count", 1, min(3, size)))
            for pile, size in enumerate(state.piles)
            if size
        ]

    def apply(self, state: NimState, seat: int, action: Any) -> NimState:
        if state.winner is not None:
            raise RuleError("game_over", "the game has ended")
        if seat != state.turn:
            raise RuleError("not_your_turn", f"it is seat {state.turn}'s turn")
        if not isinstance(action, Take):
            raise RuleError("bad_action", "nim only knows take")
        if not 0 <= action.pile < len(state.piles) or not state.piles[action.pile]:
            raise RuleError("bad_pile", f"pile {action.pile} is empty or does not exist")
        if not 1 <= action.count <= min(3, state.piles[action.pile]):
            raise RuleError("bad_count", f"take 1..{min(3, state.piles[action.pile])} from pile {action.pile}")
        piles = list(state.piles)
        piles[action.pile] -= action.count
        won = not any(piles)
        return msgspec.structs.replace(
            state,
            piles=tuple(piles),
            turn=(seat + 1) % state.players,
            winner=seat if won else None,
        )

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        return {"piles": list(state.piles), "turn": state.turn}

    def result(self, state: NimState) -> Result | None:
        if state.winner is None:
            return None
        scores = [int(s == state.winner) for s in range(state.players)]
        return Result(scores=scores, ranks=[1 if s else 2 for s in scores], winners=[state.winner], reason="last_counter")


ENGINE = NimEngine()
