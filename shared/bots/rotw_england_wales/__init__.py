"""Railways of the World (England and Wales): the bots' knowledge. Hidden information (barons,
the deck, the bag) is sampled by the engine's `redact`. Options and the greedy move come from
`greedy.py` (deliveries and link plans in `plans.py`, cached so a search can afford them). The
search's leaves are played to the end by the greedy policy (not a random one, which is long
and says little); a playout cut short by the clock is judged by each seat's projected final
score (`value.py`, fitted on self-play)."""

from __future__ import annotations

import math
import random
from typing import Any

from shared.bots.base import Budget
from shared.bots.kits import GenericKit, chances_from_values, terminal_rewards
from shared.engine import Engine, Result
from shared.games.rotw_england_wales.advanced import end as adv_end

from . import advanced as A
from . import greedy as G
from .value import Weights, win_chances

# The advanced share game is scored in money ($1,000s): a lead of ~$10,000 is a real edge.
ADV_SCALE = 10.0
# A lead of this many VP is most of the margin reward (two-player games end near 20 VP each).
MARGIN_SCALE = 8.0


class RotwKit(GenericKit):
    # Hidden: the rivals' barons and the deck order. Few trees, each deeper.
    determinizations = 4
    # Nearly every move uses the whole clock (400 iterations take longer than 0.55 s on this
    # machine); 0.7 s put the move time's p95 at 1.01 s with a load average of 7 to 9 on two
    # cores (docs/benchmarks.md), so the clock is shorter here.
    budget = Budget(ms=550.0, iterations=400)
    # Progressive bias toward the greedy ranking of options (mcts.py): without it the search
    # left the heuristic's builds on few noisy visits and built too little (6 two-player games
    # at 200 iterations: 4 won without, 6 with).
    prior = 0.3
    # Leaves are played out to the end by the greedy policy (about 10 ms a game) and scored
    # by the result: the fitted projection ranks options worse than the heuristic does (a
    # one-ply search on it won 3 of 12 two-player games against the heuristic; it delivers
    # where the heuristic builds); with greedy playouts the search is ahead in 55 of 80
    # arena games on fresh seeds (docs/benchmarks.md).
    rollout = 1000

    def __init__(self, weights: Weights | None = None, margin: float = 0.0, margin_scale: float = MARGIN_SCALE,
                 builds: int = 1, cap: int = 6) -> None:
        super().__init__(exact=False)
        self.builds, self.cap = builds, cap  # link plans among the options; options at most
        self.weights = weights  # None: the fitted weights for the table's player count
        self.margin = margin  # share of a finished game's reward that is the score margin
        self.margin_scale = margin_scale

    def final_rewards(self, result: Result) -> list[float]:
        """A finished game's rewards: the win (terminal_rewards), blended with each seat's lead
        over its best rival squashed into [0, 1]: a playout's result says more than who won."""
        plain = terminal_rewards(result)
        if not self.margin:
            return plain
        out = []
        for seat, score in enumerate(result.scores):
            lead = score - max(s for i, s in enumerate(result.scores) if i != seat)
            out.append((1 - self.margin) * plain[seat] + self.margin * 0.5 * (1 + math.tanh(lead / self.margin_scale)))
        return out

    # The advanced share game (state.adv): a plain-rules greedy player (`advanced.py`), the
    # generic kit's options, and the players' money as the evaluation.
    def greedy(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Any:
        if state.adv is not None:
            return A.greedy(state, seat, rng)
        return G.greedy(state, seat, rng)

    def options(self, engine: Engine[Any], state: Any, seat: int) -> list[Any]:
        if state.adv is not None:
            return super().options(engine, state, seat)
        return G.options(state, seat, self.builds, self.cap)

    def evaluate(self, engine: Engine[Any], state: Any, rng: random.Random) -> list[float]:
        result = engine.result(state)
        if result is not None:
            return self.final_rewards(result)
        if state.adv is not None:
            return chances_from_values([row["total"] / 1000 for row in adv_end.breakdown(state)], ADV_SCALE)
        return win_chances(state, self.weights)


KIT = RotwKit()
