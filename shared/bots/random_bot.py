"""`random`: a uniformly chosen legal move, through the engine contract only (every title).

`random_action` is also the policy of `roundhouse selfplay` and the engine benchmark
(`services/offline/random_play.py` imports it from here).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from shared.engine import Engine, is_program
from shared.families import expand

from .base import Budget, NoMove, concrete
from .kits import get_kit


def random_action(engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Any | None:
    """A uniformly chosen legal move of `seat` (a uniform value for a ranged one), or None.
    Programs are not moves: they are chosen only when nothing else is legal."""
    legal = engine.legal_actions(state, seat)
    legal = [la for la in legal if not is_program(la.action)] or legal
    if not legal:
        return None
    choice = legal[rng.randrange(len(legal))]
    if choice.choices is not None:
        members = list(expand(choice))
        return members[rng.randrange(len(members))]
    if choice.range is None:
        return choice.action
    return concrete(choice, rng.choice(choice.range.values()))


class RandomBot:
    name: ClassVar[str] = "random"

    def choose(self, engine: Engine[Any], observation: Any, seat: int, rng: random.Random, budget: Budget) -> Any:
        state = get_kit(engine).determinize(engine, observation, seat, rng)
        action = random_action(engine, state, seat, rng)
        if action is None:
            raise NoMove(f"seat {seat} has no legal action")
        return action
