"""A test title with hidden information and simultaneous decisions: sealed-card bidding.

Each seat is dealt a hidden hand from a seeded deck. Every round all seats play one card
at once (sealed: nobody sees another's card until all have played); the highest card
alone takes the round's prize. After the last prize the most points wins. Real code
behind the real contract; importing this module registers the title and its bot kit
(the bot worker's process pool imports it through its preload setting).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import msgspec

import shared.games
from shared.bots.kits import GenericKit, register_kit
from shared.engine import Engine, LegalAction, Result, RuleError

TITLE = "sealed"
HAND = 3
DECK = tuple(range(1, 16))
PRIZES = (3, 5, 4)


class Play(msgspec.Struct, tag="play", frozen=True, forbid_unknown_fields=True):
    card: int


class SealedState(msgspec.Struct, frozen=True):
    seats: list[str]
    hands: list[list[int]]
    played: list[int]  # this round, 0 = not yet
    round: int
    points: list[int]
    revealed: list[list[int]]  # cards of each finished round


class Sealed:
    title: ClassVar[str] = TITLE
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    action_type: ClassVar[Any] = Play
    state_type: ClassVar[type] = SealedState

    def default_options(self) -> dict[str, Any]:
        return {}

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> SealedState:
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        hands = [sorted(deck[i * HAND:(i + 1) * HAND]) for i in range(len(seats))]
        n = len(seats)
        return SealedState(list(seats), hands, [0] * n, 0, [0] * n, [])

    def active_seats(self, state: SealedState) -> frozenset[int]:
        if state.round >= len(PRIZES):
            return frozenset()
        return frozenset(i for i, card in enumerate(state.played) if card == 0)

    def legal_actions(self, state: SealedState, seat: int) -> list[LegalAction]:
        if seat not in self.active_seats(state):
            return []
        return [LegalAction(Play(card)) for card in state.hands[seat]]

    def apply(self, state: SealedState, seat: int, action: Any) -> SealedState:
        if not isinstance(action, Play):
            raise RuleError("bad_action", f"not a sealed action: {action!r}")
        if seat not in self.active_seats(state):
            raise RuleError("not_your_turn", "you have played this round already, or the game is over")
        if action.card not in state.hands[seat]:
            raise RuleError("not_in_hand", f"card {action.card} is not in your hand")
        hands = [list(h) for h in state.hands]
        hands[seat].remove(action.card)
        played = list(state.played)
        played[seat] = action.card
        if 0 in played:
            return msgspec.structs.replace(state, hands=hands, played=played)
        points = list(state.points)
        top = max(played)
        if played.count(top) == 1:
            points[played.index(top)] += PRIZES[state.round]
        return SealedState(state.seats, hands, [0] * len(played), state.round + 1, points,
                           state.revealed + [played])

    def view(self, state: SealedState, seat: int | None) -> dict[str, Any]:
        return {
            "seats": state.seats,
            "hand": None if seat is None else state.hands[seat],
            "hand_sizes": [len(h) for h in state.hands],
            # Your own sealed card (0: not played yet); for the others only whether they played.
            "played": [card if i == seat else card != 0 for i, card in enumerate(state.played)],
            "round": state.round,
            "points": state.points,
            "revealed": state.revealed,
        }

    def result(self, state: SealedState) -> Result | None:
        if state.round < len(PRIZES):
            return None
        top = max(state.points)
        ranks = [1 + sum(1 for p in state.points if p > mine) for mine in state.points]
        return Result(scores=list(state.points), ranks=ranks,
                      winners=[i for i, p in enumerate(state.points) if p == top], reason="all prizes taken")


class SealedKit(GenericKit):
    """Determinizes by dealing the unseen cards at random to the other seats' hands (and, for a
    seat that has played this round, one of them as its sealed card)."""

    exact = False

    def determinize(self, engine: Engine[Any], view: dict[str, Any], seat: int, rng: random.Random) -> SealedState:
        n = len(view["seats"])
        seen = set(view["hand"]) | {c for cards in view["revealed"] for c in cards}
        mine = view["played"][seat]
        if mine:
            seen.add(mine)
        unseen = [c for c in DECK if c not in seen]
        rng.shuffle(unseen)
        hands, played = [], []
        for i in range(n):
            if i == seat:
                hands.append(list(view["hand"]))
                played.append(mine)
                continue
            size = view["hand_sizes"][i]
            hands.append(sorted(unseen[:size]))
            del unseen[:size]
            if view["played"][i]:
                played.append(unseen.pop())
            else:
                played.append(0)
        return SealedState(list(view["seats"]), hands, played, view["round"], list(view["points"]),
                           [list(r) for r in view["revealed"]])


ENGINE = Sealed()
KIT = SealedKit()


def register() -> None:
    shared.games._loaded[TITLE] = ENGINE
    register_kit(TITLE, KIT)


register()
