"""Nim, the test title for the contract's users (store codec, game service, offline tools).

Seats take 1..max_take counters from one of the piles in turn; whoever takes the last
counter wins; any seat may shout at any time (an out-of-turn action) until the game ends.
Real code behind the real contract, small enough that tests can reason about every state;
with a big `pile` it is also the long synthetic game of the fold benchmark.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from shared.engine import AmountRange, Choice, LegalAction, OptionSpec, Result, RuleError, TitleMeta

MAX_PILE = 100_000

META = TitleMeta(
    id="nim",
    name="Nim",
    min_players=2,
    max_players=4,
    rules_version="1",
    summary="Take counters in turn; whoever takes the last one wins.",
    options=[
        OptionSpec("piles", "int", 1, label="Piles", min=1, max=9),
        OptionSpec("pile", "int", 21, label="Counters per pile", min=1, max=MAX_PILE),
        OptionSpec("max_take", "int", 3, label="Most counters per take", min=1, max=99),
    ],
    undo="own",
    public_view=True,
)


class Take(msgspec.Struct, tag="take", frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    count: int
    pile: int = 0


class Shout(msgspec.Struct, tag="shout", frozen=True, forbid_unknown_fields=True):
    word: str


class NimState(msgspec.Struct, frozen=True):
    seats: list[str]
    piles: tuple[int, ...]
    max_take: int
    turn: int
    shouts: int = 0
    winner: int | None = None


class Nim:
    meta: ClassVar[TitleMeta] = META
    title: ClassVar[str] = META.id
    action_type: ClassVar[Any] = Take | Shout
    state_type: ClassVar[type] = NimState

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> NimState:
        known = {o.name: o.default for o in META.options}
        unknown = set(options) - set(known)
        if unknown:
            raise RuleError("bad_options", f"unknown options: {', '.join(sorted(unknown))}")
        opts = {**known, **options}
        piles, pile, max_take = opts["piles"], opts["pile"], opts["max_take"]
        if not all(type(v) is int for v in (piles, pile, max_take)) or not (
            1 <= piles <= 9 and 1 <= pile <= MAX_PILE and max_take >= 1
        ):
            raise RuleError("bad_options", f"piles must be 1..9, pile 1..{MAX_PILE} and max_take >= 1")
        if not META.min_players <= len(seats) <= META.max_players:
            raise RuleError("bad_players", f"nim takes 2..4 players, not {len(seats)}")
        # The seed picks who starts, as a real title's setup randomness would.
        return NimState(seats=list(seats), piles=(pile,) * piles, max_take=max_take, turn=seed % len(seats))

    def active_seats(self, state: NimState) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: NimState, seat: int) -> list[LegalAction]:
        if state.winner is not None:
            return []
        out = []
        if seat == state.turn:
            out = [LegalAction(Take(1, pile), AmountRange("count", 1, min(state.max_take, size)))
                   for pile, size in enumerate(state.piles) if size]
        # Any word of 1-20 characters: an open field, "hey" suggested.
        return [*out, LegalAction(Shout("hey"), choices=Choice("word", ["hey"], open=True))]

    def apply(self, state: NimState, seat: int, action: Any) -> NimState:
        if state.winner is not None:
            raise RuleError("game_over", "the game has ended")
        if isinstance(action, Shout):
            if not 1 <= len(action.word) <= 20:
                raise RuleError("bad_word", "a shout is 1 to 20 characters")
            return msgspec.structs.replace(state, shouts=state.shouts + 1)
        if not isinstance(action, Take):
            raise RuleError("bad_action", f"not a Nim action: {action!r}")
        if seat != state.turn:
            raise RuleError("not_your_turn", f"seat {state.turn} is to take")
        if type(action.pile) is not int or not 0 <= action.pile < len(state.piles) or not state.piles[action.pile]:
            raise RuleError("bad_pile", f"pile {action.pile} is empty or does not exist")
        top = min(state.max_take, state.piles[action.pile])
        if type(action.count) is not int or not 1 <= action.count <= top:
            raise RuleError("bad_amount", f"take 1..{top} from pile {action.pile}")
        piles = list(state.piles)
        piles[action.pile] -= action.count
        if not any(piles):
            return msgspec.structs.replace(state, piles=tuple(piles), winner=seat)
        return msgspec.structs.replace(state, piles=tuple(piles), turn=(seat + 1) % len(state.seats))

    def view(self, state: NimState, seat: int | None) -> dict[str, Any]:
        return msgspec.to_builtins(state)

    def redact(self, state: NimState, seat: int, seed: int) -> NimState:
        return state  # nothing is hidden

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
