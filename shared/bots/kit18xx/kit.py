"""`Kit18xx`: the bot kit (`shared/bots/kits.py`) for any 18xx title built on the shared core,
from a `Title18xx` adapter and the title's `Params`.

- `greedy`: the heuristic's best-scored decision (`policy.ranked`);
- `options`: the heuristic's few best decisions, best first, for the search to choose among
  (an 18xx turn has hundreds of legal members; the search looks only where the heuristic
  points);
- `evaluate`: each player's win chance from `value.values` (score now plus income to come);
- nothing on an 18xx table is hidden but players' programs, which a bot does not use:
  one determinization is the truth (`exact`).
"""

from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Budget
from shared.bots.kits import GenericKit, Option, terminal_rewards
from shared.engine import Engine

from . import policy, value
from .params import Params
from .title import Title18xx

OPTIONS = 4


class Kit18xx(GenericKit):
    # the search's budget: p95 of a move stays under 2 s on a loaded 2-core machine
    budget = Budget(ms=1200.0, iterations=300)
    # the heuristic's ranking as a progressive bias (mcts.py): rivals are searched as the
    # heuristic plays, and a short search does not leave its line on a few noisy visits
    prior = 0.3

    def __init__(self, title: Title18xx, params: Params | None = None, options: int = OPTIONS) -> None:
        super().__init__(exact=True)
        self.title = title
        self.params = params or Params()
        self.width = options

    def ranked(self, engine: Engine[Any], state: Any, seat: int) -> policy.Scored:
        return policy.ranked(engine, self.title, self.params, state, seat)

    def greedy(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Any:
        ranked = self.ranked(engine, state, seat)
        if not ranked:
            return super().greedy(engine, state, seat, rng)
        return ranked[0][1]

    def options(self, engine: Engine[Any], state: Any, seat: int) -> list[Option]:
        ranked = self.ranked(engine, state, seat)
        out: list[Option] = []
        seen: set[bytes] = set()
        from shared.engine import encode_action
        for _, action in ranked:
            key = encode_action(action)
            if key in seen:
                continue
            seen.add(key)
            out.append((action,))
            if len(out) >= self.width:
                break
        return out

    def evaluate(self, engine: Engine[Any], state: Any, rng: random.Random) -> list[float]:
        result = engine.result(state)
        if result is not None:
            return terminal_rewards(result)
        return value.win_chances(self.title, self.params, state)
