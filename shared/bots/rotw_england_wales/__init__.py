"""Railways of the World (England and Wales): the bots' knowledge. Hidden information (barons,
the deck, the bag) is sampled by the engine's `redact`; a position is judged by the victory
points each player would score now (track, completed links, cards, baron if met, minus shares)
rather than by a random playout to the end, which is long and says little."""

from __future__ import annotations

import random
from typing import Any

from shared.bots.kits import GenericKit, chances_from_values, terminal_rewards
from shared.engine import Engine
from shared.games.rotw_england_wales import end
from shared.games.rotw_england_wales.advanced import end as adv_end

from . import advanced as A
from . import greedy as G

# A lead of a few points is a real edge in a game scored in tens of points.
SCALE = 4.0
# The advanced share game is scored in money ($1,000s): a lead of ~$10,000 is a real edge.
ADV_SCALE = 10.0


class RotwKit(GenericKit):
    def __init__(self) -> None:
        super().__init__(exact=False)

    # The advanced share game (state.adv): a plain-rules greedy player (`advanced.py`), the
    # generic kit's options, and the players' money as the evaluation.
    def greedy(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Any:
        if state.adv is not None:
            return A.greedy(state, seat, rng)
        return G.greedy(state, seat, rng)

    def options(self, engine: Engine[Any], state: Any, seat: int) -> list[Any]:
        if state.adv is not None:
            return super().options(engine, state, seat)
        return G.options(state, seat)

    def evaluate(self, engine: Engine[Any], state: Any, rng: random.Random) -> list[float]:
        result = engine.result(state)
        if result is not None:
            return terminal_rewards(result)
        if state.adv is not None:
            return chances_from_values([row["total"] / 1000 for row in adv_end.breakdown(state)], ADV_SCALE)
        return chances_from_values([float(row["total"]) for row in end.breakdown(state)], SCALE)


KIT = RotwKit()
