"""The table's seeded RNG, kept in the state (pure: every draw returns a new RNG).

`make_rng(seed)` is the single entry point: when `shared.rng.Rng` lands on main, swap its
body to build that instead; callers use only `below`, `shuffle` and `pick`.
SplitMix64: tiny, well distributed, and fully determined by one 64-bit word.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

_MASK = (1 << 64) - 1
T = TypeVar("T")


class Rng(msgspec.Struct, frozen=True):
    state: int

    def _next(self) -> tuple[int, "Rng"]:
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, "Rng"]:
        """A uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            v, rng = rng._next()
            if v < limit:
                return v % n, rng

    def shuffle(self, items: list[T]) -> tuple[list[T], "Rng"]:
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out, rng


def make_rng(seed: int) -> Rng:
    return Rng(seed & _MASK)
