"""History (services/projection/history.py): what a table's HistoryBook costs in the
projection's history thread, per title, for random games played to the end (or a cap).

Prints, per title: actions in the game, the time to build the book (fold the whole log and
label every entry's round: done once per watched table, in the worker thread), and the
time of `view_at` for a seat at random seqs, cold (the first visit of a stretch: folded
from the nearest checkpoint) and warm (again), as mean / p99 milliseconds. The last line
is JSON.

    python3 -m benchmarks.history_bench --games 3 --views 200 --seed 1
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.engine import encode_action
from shared.games import get_engine
from shared.store.models import LoggedAction

from services.collector import tune_gc
from services.offline.random_play import game_seeds, play_random_game
from services.projection.history import HistoryBook

TITLES = {"chicago-express": 4, "rotw-england-wales": 4, "18ireland": 4}


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def bench(title: str, players: int, games: int, views: int, seed: int, max_actions: int) -> dict[str, float]:
    engine = get_engine(title)
    builds, cold, warm, lengths = [], [], [], []
    for g in range(games):
        game_seed, rng = game_seeds(seed, g)
        played = play_random_game(engine, players, game_seed, rng, max_actions=max_actions)
        logged = [LoggedAction(i + 1, seat, encode_action(a), "", 0) for i, (seat, a) in enumerate(played.actions)]
        book = HistoryBook(engine, played.seats, played.options, played.seed)
        t0 = time.perf_counter()
        book._fold("bench", logged)
        builds.append((time.perf_counter() - t0) * 1000)
        lengths.append(len(logged))
        # The book as a long-lived table has it: only checkpoints and the head keep states.
        picks = [rng.randrange(0, len(logged) + 1) for _ in range(views)]
        for seq in picks:
            seat = rng.randrange(players)
            t0 = time.perf_counter()
            book._view(seq, seat)
            cold.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            book._view(seq, seat)
            warm.append((time.perf_counter() - t0) * 1000)
    return {
        "actions": statistics.mean(lengths),
        "build_ms": statistics.mean(builds),
        "view_cold_ms": statistics.mean(cold), "view_cold_p99_ms": p99(cold),
        "view_warm_ms": statistics.mean(warm), "view_warm_p99_ms": p99(warm),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--views", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-actions", type=int, default=3000)
    parser.add_argument("--title", action="append", choices=sorted(TITLES))
    args = parser.parse_args()
    tune_gc()
    out = {}
    print(f"{'title':20} {'actions':>8} {'build ms':>9} {'view cold ms (p99)':>20} {'view warm ms (p99)':>20}")
    for title in args.title or list(TITLES):
        r = out[title] = bench(title, TITLES[title], args.games, args.views, args.seed, args.max_actions)
        print(f"{title:20} {r['actions']:8.0f} {r['build_ms']:9.1f} {r['view_cold_ms']:12.2f} ({r['view_cold_p99_ms']:5.2f})"
              f" {r['view_warm_ms']:12.2f} ({r['view_warm_p99_ms']:5.2f})")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
