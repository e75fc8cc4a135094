"""Railways of the World (England and Wales): the bots' knowledge. Hidden information (barons,
the deck, the bag) is sampled by the engine's `redact`. Options and the greedy move come from
`greedy.py` (deliveries and link plans in `plans.py`, cached so a search can afford them); a
position is judged by each seat's projected final score (`value.py`, fitted on self-play),
not by a random playout to the end, which is long and says little."""

from __future__ import annotations

import random
from typing import Any

from shared.bots.kits import GenericKit, terminal_rewards
from shared.engine import Engine

from . import greedy as G
from .value import Weights, win_chances


class RotwKit(GenericKit):
    # Hidden: the rivals' barons and the deck order. Few trees, each deeper.
    determinizations = 4

    def __init__(self, weights: Weights | None = None) -> None:
        super().__init__(exact=False)
        self.weights = weights  # None: the fitted weights for the table's player count

    def greedy(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Any:
        return G.greedy(state, seat, rng)

    def options(self, engine: Engine[Any], state: Any, seat: int) -> list[Any]:
        return G.options(state, seat)

    def evaluate(self, engine: Engine[Any], state: Any, rng: random.Random) -> list[float]:
        result = engine.result(state)
        if result is not None:
            return terminal_rewards(result)
        return win_chances(state, self.weights)


KIT = RotwKit()
