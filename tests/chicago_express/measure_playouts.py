"""Prints how many full random Chicago Express playouts the engine runs per second on one core.

    python3 -m tests.chicago_express.measure_playouts [--games 300] [--players 4] [--seed 1]

Uniform random legal moves through the engine contract only (legal_actions + apply), a
value uniformly in each range. A measuring script, not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import random
import time

import msgspec

from shared.engine import default_options
from shared.games import get_engine


def playout(engine, players: int, rng: random.Random) -> int:
    state = engine.setup([f"p{k}" for k in range(players)], default_options(engine), rng.randrange(1 << 30))
    actions = 0
    while True:
        active = engine.active_seats(state)
        if not active:
            return actions
        seat = min(active)
        la = rng.choice(engine.legal_actions(state, seat))
        action = la.action
        if la.range is not None:
            value = rng.randint(la.range.min, la.range.max)
            action = msgspec.structs.replace(action, **{la.range.field: value})
        state = engine.apply(state, seat, action)
        actions += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine = get_engine("chicago-express")
    rng = random.Random(args.seed)
    start = time.perf_counter()
    total = sum(playout(engine, args.players, rng) for _ in range(args.games))
    elapsed = time.perf_counter() - start
    print(
        f"{args.games} playouts, {args.players} players: {args.games / elapsed:.0f} playouts/s, "
        f"{total / args.games:.0f} actions per game, {total / elapsed:.0f} actions/s"
    )


if __name__ == "__main__":
    main()
