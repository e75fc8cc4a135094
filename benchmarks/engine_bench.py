"""Engine benchmark: random playouts per second on one core, replay time, and the cost of `apply` and `legal_actions`.

    python3 -m benchmarks.engine_bench --title chicago-express --players 4 --games 200 --seed 1

Playouts go through the same random policy as `roundhouse selfplay`, so both measure one thing.
Replay time is a whole recorded game folded from set-up with `apply` alone (what loading a
table from its log costs without a snapshot). Per-call costs are timed on another pass that
refolds the recorded games, so the clock calls stay out of the playout figure. `--profile N`
then plays the games once more under cProfile and prints the N functions with the most own
time (stderr), to show where an engine spends it. The last line of stdout is JSON.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.engine import Engine  # noqa: E402
from shared.games import get_engine  # noqa: E402

from services.collector import tune_gc  # noqa: E402
from services.offline.random_play import DEFAULT_MAX_ACTIONS, Playout, game_seeds, play_random_game  # noqa: E402


def play(engine: Engine[Any], players: int, games: int, seed: int) -> list[Playout]:
    return [play_random_game(engine, players, *game_seeds(seed, i), DEFAULT_MAX_ACTIONS) for i in range(games)]


def time_calls(engine: Engine[Any], playouts: list[Playout]) -> tuple[list[int], list[int]]:
    """Nanoseconds of each `legal_actions` (of the seat about to act) and each `apply`."""
    clock = time.perf_counter_ns
    legal_ns: list[int] = []
    apply_ns: list[int] = []
    for playout in playouts:
        state = engine.setup(playout.seats, playout.options, playout.seed)
        for seat, action in playout.actions:
            t0 = clock()
            engine.legal_actions(state, seat)
            t1 = clock()
            state = engine.apply(state, seat, action)
            t2 = clock()
            legal_ns.append(t1 - t0)
            apply_ns.append(t2 - t1)
    return legal_ns, apply_ns


def replay_ms(engine: Engine[Any], playouts: list[Playout]) -> list[float]:
    """Milliseconds to fold each recorded game from set-up, `apply` only."""
    times = []
    for playout in playouts:
        t0 = time.perf_counter()
        state = engine.setup(playout.seats, playout.options, playout.seed)
        for seat, action in playout.actions:
            state = engine.apply(state, seat, action)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def us(ns: list[int], q: float | None = None) -> float:
    if not ns:
        return 0.0
    value = statistics.fmean(ns) if q is None or len(ns) < 2 else statistics.quantiles(ns, n=100)[int(q) - 1]
    return round(value / 1000, 2)


def profile(engine: Engine[Any], players: int, games: int, seed: int, top: int) -> None:
    profiler = cProfile.Profile()
    profiler.runcall(play, engine, players, games, seed)
    stats = pstats.Stats(profiler, stream=sys.stderr)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--title", default="chicago-express")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--profile", type=int, default=0, metavar="N", help="also profile; print the top N functions")
    args = p.parse_args(argv)
    tune_gc()       # as every roundhouse process runs (services/collector.py)
    engine = get_engine(args.title)

    play(engine, args.players, 1, args.seed - 1)  # warm-up: imports, caches
    started = time.perf_counter()
    playouts = play(engine, args.players, args.games, args.seed)
    elapsed = time.perf_counter() - started
    actions = sum(len(p.actions) for p in playouts)
    replays = replay_ms(engine, playouts)
    legal_ns, apply_ns = time_calls(engine, playouts)

    figures = {
        "title": args.title,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "finished": sum(p.finished for p in playouts),
        "actions": actions,
        "actions_per_game": round(actions / max(args.games, 1), 1),
        "seconds": round(elapsed, 3),
        "playouts_per_s": round(args.games / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "replay_ms_per_game": round(statistics.fmean(replays), 1) if replays else 0.0,
        "replay_ms_max": round(max(replays), 1) if replays else 0.0,
        "apply_us": us(apply_ns),
        "apply_p99_us": us(apply_ns, 99),
        "legal_actions_us": us(legal_ns),
        "legal_actions_p99_us": us(legal_ns, 99),
        "python": platform.python_version(),
    }
    print(f"{args.title}, {args.players} players, {args.games} random games (seed {args.seed}), one core")
    print(f"  {figures['playouts_per_s']} playouts/s, {figures['actions_per_s']} actions/s, "
          f"{figures['actions_per_game']} actions/game, {figures['finished']} finished")
    print(f"  replay (apply only, from set-up): {figures['replay_ms_per_game']} ms/game mean, "
          f"{figures['replay_ms_max']} ms max")
    print(f"  apply: {figures['apply_us']} us mean, {figures['apply_p99_us']} us p99")
    print(f"  legal_actions: {figures['legal_actions_us']} us mean, {figures['legal_actions_p99_us']} us p99")
    if args.profile:
        profile(engine, args.players, args.games, args.seed, args.profile)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
