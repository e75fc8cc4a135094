"""18Ireland's random set-up, as 18xx.games draws it from the game seed.

Order of draws (18xx.games `G18Ireland::Game#setup_preround`, then `#setup`), one generator:
1. Privates: DAR and DK always stay; the other nine, in entities order, are shuffled with
   `sort_by { rand }` and the first (count - 5) are removed, so three random ones join DAR and DK.
2. Minors: DKR is set aside; the other minors, in entities order, are shuffled the same way; the
   first is removed from the game, and the order of play/listing is DKR followed by the rest.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from shared.games.core18xx.ruby_random import Lcg18xx

PROTECTED_COMPANIES = ("DAR", "DK")
PROTECTED_MINOR = "DKR"
KEEP_COMPANIES = 5


class RandomSetup(msgspec.Struct, frozen=True):
    companies: list[str]          # kept privates, in entities order
    removed_companies: list[str]  # in draw order
    minors: list[str]             # DKR first, then the shuffled survivors
    removed_minor: str
    rng: Lcg18xx                  # generator after set-up (18xx.games draws nothing more in 18Ireland)


def draw_setup(seed: int, companies: Sequence[str], minors: Sequence[str]) -> RandomSetup:
    rng = Lcg18xx.from_seed(seed)
    candidates = [c for c in companies if c not in PROTECTED_COMPANIES]
    shuffled, rng = rng.sort_by_rand(candidates)
    removed = shuffled[: len(companies) - KEEP_COMPANIES]
    kept = [c for c in companies if c not in removed]

    others = [m for m in minors if m != PROTECTED_MINOR]
    shuffled_minors, rng = rng.sort_by_rand(others)
    removed_minor = shuffled_minors[0]
    order = [PROTECTED_MINOR, *shuffled_minors[1:]] if PROTECTED_MINOR in minors else shuffled_minors[1:]
    return RandomSetup(companies=kept, removed_companies=list(removed), minors=order,
                       removed_minor=removed_minor, rng=rng)
