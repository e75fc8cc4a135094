"""A tiny title for tests of the engine contract's users (store codec, game service): Nim.

Seats take 1..max_take from a pile in turn; whoever takes the last one wins. It is real
code behind the real contract (setup, active seats, legal actions, rule errors, a result),
small enough that tests can reason about every state.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from shared.engine import AmountRange, LegalAction, Result, RuleError


class Take(msgspec.Struct, tag="take", frozen=True, forbid_unknown_fields=True):
    count: int


class Shout(msgspec.Struct, tag="shout", frozen=True, forbid_unknown_fields=True):
    """Any seat may shout at any time (an out-of-turn action), unless the game is over."""

    word: str


class NimState(msgspec.Struct, frozen=True):
    seats: list[str]
    pile: int
    max_take: int
    turn: int
    shouts: int = 0
    winner: int | None = None


class Nim:
    title: ClassVar[str] = "nim"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    action_type: ClassVar[Any] = Take | Shout
    state_type: ClassVar[type] = NimState

    def default_options(self) -> dict[str, Any]:
        return {"pile": 21, "max_take": 3}

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> NimState:
        unknown = set(options) - set(self.default_options())
        if unknown:
            raise RuleError("bad_options", f"unknown options: {', '.join(sorted(unknown))}")
        opts = {**self.default_options(), **options}
        pile, max_take = opts["pile"], opts["max_take"]
        if not (isinstance(pile, int) and 1 <= pile <= 1000 and isinstance(max_take, int) and max_take >= 1):
            raise RuleError("bad_options", "pile must be 1..1000 and max_take >= 1")
        # The seed picks who starts, as a real title's setup randomness would.
        return NimState(seats=list(seats), pile=pile, max_take=max_take, turn=seed % len(seats))

    def active_seats(self, state: NimState) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: NimState, seat: int) -> list[LegalAction]:
        if state.winner is not None:
            return []
        out = [LegalAction(Shout("hey"))]
        if seat == state.turn:
            top = min(state.max_take, state.pile)
            out.insert(0, LegalAction(Take(1), AmountRange("count", 1, top)))
        return out

    def apply(self, state: NimState, seat: int, action: Any) -> NimState:
        if state.winner is not None:
            raise RuleError("game_over", "the game has ended")
        if isinstance(action, Shout):
            return msgspec.structs.replace(state, shouts=state.shouts + 1)
        if not isinstance(action, Take):
            raise RuleError("bad_action", f"not a Nim action: {action!r}")
        if seat != state.turn:
            raise RuleError("not_your_turn", f"seat {state.turn} is to take")
        if not 1 <= action.count <= min(state.max_take, state.pile):
            raise RuleError("bad_amount", f"take 1..{min(state.max_take, state.pile)}")
        pile = state.pile - action.count
        if pile == 0:
            return msgspec.structs.replace(state, pile=0, winner=seat)
        return msgspec.structs.replace(state, pile=pile, turn=(seat + 1) % len(state.seats))

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        return msgspec.to_builtins(state)

    def result(self, state: NimState) -> Result | None:
        if state.winner is None:
            return None
        n = len(state.seats)
        return Result(
            scores=[int(s == state.winner) for s in range(n)],
            ranks=[1 if s == state.winner else 2 for s in range(n)],
            winners=[state.winner],
            reason="took the last one",
        )


ENGINE = Nim()
