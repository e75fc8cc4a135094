"""The bots' knowledge of Chicago Express: options, greedy play, evaluation."""

from __future__ import annotations

import random
from typing import Any

from shared.engine import Engine
from shared.games.chicago_express.state import State

from ..kits import Option, terminal_rewards
from .options import greedy_move, search_options
from .value import DEFAULT, Weights, phases_left, seat_values, win_chances


class ChicagoExpressKit:
    # Nothing is hidden and nothing is random: the observation is the true state.
    exact = True

    def __init__(self, weights: Weights = DEFAULT) -> None:
        self.weights = weights

    def determinize(self, engine: Engine[Any], observation: State, seat: int, rng: random.Random) -> State:
        return observation

    def options(self, engine: Engine[Any], state: State, seat: int) -> list[Option]:
        return search_options(state, seat, self.weights)

    def greedy(self, engine: Engine[Any], state: State, seat: int, rng: random.Random) -> Any:
        return greedy_move(state, seat, self.weights, rng)

    def evaluate(self, engine: Engine[Any], state: State, rng: random.Random) -> list[float]:
        result = engine.result(state)
        if result is not None:
            return terminal_rewards(result)
        w = self.weights
        return win_chances(seat_values(state, w), phases_left(state, w), w)

    def seats(self, state: State) -> int:
        return len(state.players)


KIT = ChicagoExpressKit()
