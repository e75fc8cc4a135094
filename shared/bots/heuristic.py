"""`heuristic`: the title kit's greedy evaluator, one decision at a time, no search.

For Chicago Express that means (see `chicago_express/`): value every whole turn on offer
(each share for sale, a planned build per company, each development, or forgoing a dial)
by the seat's expected final cash against its rivals, and bid in auctions up to the price
at which owning the share beats letting the strongest rival have it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from shared.engine import Engine

from .base import Budget, NoMove
from .kits import TitleKit, get_kit


class HeuristicBot:
    name: ClassVar[str] = "heuristic"

    def __init__(self, kit: TitleKit | None = None) -> None:
        self.kit = kit  # None: the title's registered kit

    def choose(self, engine: Engine[Any], observation: Any, seat: int, rng: random.Random, budget: Budget) -> Any:
        kit = self.kit or get_kit(engine)
        state = kit.determinize(engine, observation, seat, rng)
        if seat not in engine.active_seats(state):
            raise NoMove(f"seat {seat} is not to act")
        return kit.greedy(engine, state, seat, rng)
