"""1841's bot kit until the 18xx kit (`shared/bots/kit18xx/`) has an adapter for 1841: the
generic kit's moves, with a position judged by each player's value now (cash plus
certificates at market, less bankruptcy loans: the score 1841 ends with) instead of the
generic kit's random playout to the end, which in 1841 runs to thousands of moves (seconds a
leaf), so a search move stays within its budget."""

from __future__ import annotations

import random
from typing import Any

from shared.bots.kits import GenericKit, chances_from_values, terminal_rewards
from shared.engine import Engine
from shared.games.g1841.meta import META
from shared.games.g1841.money import player_value

# The lead, as a share of the average player's value, that makes a clear favourite.
LEAD_SCALE = 0.15


class Kit1841(GenericKit):
    def evaluate(self, engine: Engine[Any], state: Any, rng: random.Random) -> list[float]:
        result = engine.result(state)
        if result is not None:
            return terminal_rewards(result)
        values = [float(player_value(state.money, p, state.loans)) for p in state.players]
        scale = max(1.0, LEAD_SCALE * sum(values) / len(values))
        return chances_from_values(values, scale)


KIT = Kit1841(exact=META.public_view)
