"""The table's seeded RNG: `shared.rng.Rng`, kept in the state (pure: every draw returns a
new generator). `make_rng` is the package's one way to make one."""

from __future__ import annotations

from shared.rng import Rng

__all__ = ["Rng", "make_rng"]


def make_rng(seed: int) -> Rng:
    return Rng.from_seed(seed)
