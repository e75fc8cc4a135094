"""The random generator 18xx.games uses for game set-up, reproduced bit-for-bit.

18xx.games does NOT use Ruby's `Random` (MT19937) for game randomness: `Engine::Game::Base#rand`
is its own linear congruential generator, seeded from `settings.seed` (`seed % 2**31`), with the
classic ANSI C constants (a = 1103515245, c = 12345, m = 2**31). Every call returns the next state,
which is also the value drawn. Titles then shuffle with `array.sort_by! { rand }`: one draw per
element in array order, elements ordered by ascending draw. Because each draw is a distinct state of
a full-period generator within one shuffle, the keys never tie, so the sort's algorithm (and its
stability) cannot change the result.

The generator is a frozen msgspec struct with pure methods returning `(value, new_generator)` so it
can live inside game state, as the engine contract asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import msgspec

RAND_A = 1_103_515_245
RAND_C = 12_345
RAND_M = 2**31

T = TypeVar("T")


class Lcg18xx(msgspec.Struct, frozen=True):
    """State of 18xx.games' set-up generator (`@rand` in `Engine::Game::Base`)."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Lcg18xx:
        # Ruby's Integer#% is floored, like Python's, so negative seeds agree too.
        return cls(state=seed % RAND_M)

    def next(self) -> tuple[int, Lcg18xx]:
        value = (RAND_A * self.state + RAND_C) % RAND_M
        return value, Lcg18xx(state=value)

    def sort_by_rand(self, items: Sequence[T]) -> tuple[list[T], Lcg18xx]:
        """`items.sort_by { rand }`: draw one key per item in order, sort ascending by key."""
        rng = self
        keyed: list[tuple[int, int]] = []
        for index in range(len(items)):
            key, rng = rng.next()
            keyed.append((key, index))
        keyed.sort()
        return [items[index] for _, index in keyed], rng

    def rand_mod(self, n: int) -> tuple[int, Lcg18xx]:
        """`rand % n`, the other idiom 18xx.games titles use (e.g. random presidencies)."""
        if n <= 0:
            raise ValueError("rand_mod needs n > 0")
        value, rng = self.next()
        return value % n, rng
