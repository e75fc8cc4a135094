"""Positions for bot tests: states met in real games, played with a mix of bots."""

from __future__ import annotations

import random
from typing import Any

from shared.bots import Budget, decide
from shared.bots.random_bot import random_action
from shared.engine import Engine, default_options

FAST = Budget(iterations=12)


def positions(engine: Engine[Any], players: int, games: int, seed: int, every: int = 1) -> list[Any]:
    """Every `every`-th state of `games` games where random and heuristic seats alternate."""
    rng = random.Random(seed)
    found: list[Any] = []
    for g in range(games):
        state = engine.setup([f"P{i}" for i in range(players)], default_options(engine), seed + g)
        count = 0
        while engine.result(state) is None:
            for seat in sorted(engine.active_seats(state)):
                if seat not in engine.active_seats(state):
                    continue
                if count % every == 0:
                    found.append(state)
                count += 1
                if (seat + g) % 2:
                    action = decide(engine, engine.redact(state, seat, g), seat, "heuristic", rng, FAST)
                else:
                    action = random_action(engine, state, seat, rng)
                state = engine.apply(state, seat, action)
        found.append(state)
    return found
