"""`legal_actions` per call in one phase, over fixed positions of seeded random games.

    python3 -m benchmarks.legal_phase_bench --title chicago-express --phase build --games 60

Records every position of `--games` random games (the random policy of `roundhouse
selfplay`), then times `legal_actions` for the seat to act over all of them and over those
in `--phase`, `--passes` times each, and prints the fastest pass per call (the minimum is
the figure least moved by other work on a shared machine). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.bots.random_bot import random_action  # noqa: E402
from shared.engine import Engine, default_options  # noqa: E402
from shared.games import get_engine  # noqa: E402


def positions(engine: Engine[Any], players: int, games: int) -> list[tuple[Any, int]]:
    out = []
    for g in range(games):
        rng = random.Random(g)
        s = engine.setup([f"P{i}" for i in range(players)], default_options(engine), rng.randrange(2**31))
        while engine.result(s) is None:
            seat = min(engine.active_seats(s))
            out.append((s, seat))
            s = engine.apply(s, seat, random_action(engine, s, seat, rng))
    return out


def fastest_us(engine: Engine[Any], pos: list[tuple[Any, int]], passes: int) -> float:
    best = float("inf")
    for _ in range(passes):
        started = time.perf_counter()
        for s, seat in pos:
            engine.legal_actions(s, seat)
        best = min(best, (time.perf_counter() - started) / len(pos) * 1e6)
    return round(best, 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--title", default="chicago-express")
    ap.add_argument("--phase", default="build")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--passes", type=int, default=7)
    args = ap.parse_args()
    engine = get_engine(args.title)
    pos = positions(engine, args.players, args.games)
    phase = [(s, q) for s, q in pos if getattr(s, "phase", None) == args.phase]
    if not phase:
        raise SystemExit(f"no position in phase {args.phase!r}")
    report = {"title": args.title, "phase": args.phase, "positions": len(pos), "phase_positions": len(phase),
              "all_us": fastest_us(engine, pos, args.passes), "phase_us": fastest_us(engine, phase, args.passes)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
