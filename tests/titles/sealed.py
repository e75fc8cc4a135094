"""A test title with hidden information and simultaneous decisions: sealed-card bidding.

Each seat is dealt a hidden hand from a seeded deck. Every round all seats play one card
at once (sealed: nobody sees another's card until all have played); the highest card
alone takes the round's prize. After the last prize the most points wins. Real code
behind the real contract: the contract suite's title with hidden information and
sealed simultaneous choices. Services started by tests load it through
ROUNDHOUSE_TITLE_MODULES; in-process tests call `shared.games.register(ENGINE)`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import msgspec

from shared.engine import LegalAction, Result, RuleError, TitleMeta

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


META = TitleMeta(
    id=TITLE,
    name="Sealed bids",
    min_players=2,
    max_players=4,
    rules_version="1",
    summary="Play a card face down each round; the single highest card takes the prize.",
)


class Sealed:
    meta: ClassVar[TitleMeta] = META
    title: ClassVar[str] = TITLE
    action_type: ClassVar[Any] = Play
    state_type: ClassVar[type] = SealedState

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

    def redact(self, state: SealedState, seat: int, seed: int) -> SealedState:
        """Deal the cards `seat` has not seen at random to the other hands and, for the
        seats that have played this round, their sealed cards."""
        seen = set(state.hands[seat]) | {c for cards in state.revealed for c in cards}
        if state.played[seat]:
            seen.add(state.played[seat])
        unseen = [c for c in DECK if c not in seen]
        random.Random(seed).shuffle(unseen)
        hands, played = [], []
        for i, hand in enumerate(state.hands):
            if i == seat:
                hands.append(list(hand))
                played.append(state.played[i])
                continue
            hands.append(sorted(unseen[:len(hand)]))
            del unseen[:len(hand)]
            played.append(unseen.pop() if state.played[i] else 0)
        return SealedState(list(state.seats), hands, played, state.round, list(state.points),
                           [list(r) for r in state.revealed])

    def sealed(self, action: Any) -> bool:
        return isinstance(action, Play)  # the card played stays face down until the round ends

    def result(self, state: SealedState) -> Result | None:
        if state.round < len(PRIZES):
            return None
        return self.standings(state)

    def standings(self, state: SealedState) -> Result:
        """The points so far (also the result once every prize is taken)."""
        top = max(state.points)
        ranks = [1 + sum(1 for p in state.points if p > mine) for mine in state.points]
        return Result(scores=list(state.points), ranks=ranks,
                      winners=[i for i, p in enumerate(state.points) if p == top], reason="all prizes taken")


ENGINE = Sealed()
