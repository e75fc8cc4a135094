"""A seeded random generator that lives inside a title's state.

Titles draw randomness only from here (the contract forbids global random state), so a
table's whole game follows from its seed, snapshots carry the generator, and `redact`
can replace it (a seat must not be able to predict the next draw). The generator is
SplitMix64: one 64-bit word of state, fast, and good enough for shuffles and draws; every
method is pure and returns the new generator beside its value.
"""

from __future__ import annotations

import hashlib
from typing import Any, TypeVar

import msgspec

_MASK = (1 << 64) - 1
T = TypeVar("T")


class Rng(msgspec.Struct, frozen=True, array_like=True):
    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK)

    def next64(self) -> tuple[int, Rng]:
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - (1 << 64) % n
        rng = self
        while True:
            value, rng = rng.next64()
            if value < limit:
                return value % n, rng

    def shuffled(self, items: list[T] | tuple[T, ...]) -> tuple[list[T], Rng]:
        """A uniformly shuffled copy (Fisher-Yates)."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out, rng

    def choice(self, items: list[T] | tuple[T, ...]) -> tuple[T, Rng]:
        index, rng = self.below(len(items))
        return items[index], rng

    def fork(self, salt: Any) -> Rng:
        """An independent generator derived from this one and `salt` (for redaction)."""
        # blake2b, not hash(): str hashes differ between processes.
        digest = hashlib.blake2b(repr(salt).encode(), digest_size=8).digest()
        value, _ = Rng(self.state ^ int.from_bytes(digest, "little")).next64()
        return Rng(value)
