"""`Kit18xx`: the bot kit (`shared/bots/kits.py`) for any 18xx title built on the shared core,
from a `Title18xx` adapter and the title's `Params`.

- `greedy`: the heuristic's best-scored decision (`policy.ranked`);
- `options`: the heuristic's few best decisions, best first, for the search to choose among
  (an 18xx turn has hundreds of legal members; the search looks only where the heuristic
  points);
- `evaluate`: each player's win chance from `value.values` (score now plus income to come);
- nothing on an 18xx table is hidden but players' programs, which a bot does not use:
  one determinization is the truth (`exact`), unless the title hides something (sealed
  bids: then the engine's `redact` samples it).
"""

from __future__ import annotations

import random
from typing import Any

from shared.bots.base import Budget
from shared.bots.kits import GenericKit, Option, terminal_rewards
from shared.engine import Engine, encode_action

from . import policy, value
from .params import Params
from .title import Title18xx

OPTIONS = 4
# an option the heuristic scores this far below its best is not worth a search's time (a
# private bought at random, a train bought from a rival at a whim)
MARGIN = 25.0
RANKED_CACHE = 512


class Kit18xx(GenericKit):
    # the search's budget: p95 of a move stays under 2 s on a loaded 2-core machine (the
    # clock binds there; the iterations on an idle one)
    budget = Budget(ms=800.0, iterations=200)
    # the heuristic's ranking as a progressive bias (mcts.py): rivals are searched as the
    # heuristic plays, and a short search does not leave its line on a few noisy visits
    prior = 0.3
    # each leaf plays this many decisions on with the heuristic before it is valued: an 18xx
    # decision pays off moves later (a withheld dividend buys the train after it)
    rollout = 8

    def __init__(self, title: Title18xx, params: Params | None = None, options: int = OPTIONS,
                 exact: bool = True) -> None:
        super().__init__(exact=exact)
        self.title = title
        self.params = params or Params()
        self.width = options
        self._ranked: dict[tuple[int, int], tuple[Any, policy.Scored]] = {}

    def ranked(self, engine: Engine[Any], state: Any, seat: int) -> policy.Scored:
        # A search asks again of the same positions (its options, then its playouts: the
        # engine returns the very same state object for the same move from the same state),
        # so the last answers are kept by identity.
        key = (id(state), seat)
        hit = self._ranked.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        out = policy.ranked(engine, self.title, self.params, state, seat)
        if len(self._ranked) >= RANKED_CACHE:
            self._ranked.pop(next(iter(self._ranked)))
        self._ranked[key] = (state, out)
        return out

    def greedy(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Any:
        ranked = self.ranked(engine, state, seat)
        if not ranked:
            return super().greedy(engine, state, seat, rng)
        return ranked[0][1]

    def options(self, engine: Engine[Any], state: Any, seat: int) -> list[Option]:
        ranked = self.ranked(engine, state, seat)
        out: list[Option] = []
        seen: set[bytes] = set()
        best = ranked[0][0] if ranked else 0.0
        for score, action in ranked:
            if out and score < best - MARGIN:
                break
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
