"""Fit of the Railways of England and Wales evaluation (`shared/bots/rotw_england_wales/value.py`).

    python3 -m benchmarks.rotw_value_fit --games 300 --players 2
    python3 -m benchmarks.rotw_value_fit --games 100 --players 4

Plays `--games` self-play games of the kit's heuristic, where one decision in five (at the
start of an action) is a random kit option instead, so that shares, builds, cards and
upgrades vary and the fit sees their effect. At every such position it records each seat's
features (`value.features`) and, at the end, the seat's final score. It prints the
least-squares coefficients of (final score - certain score now) on the features, in the
order of `value.FEATURES` (paste them into `Weights`), R^2, and the residual's standard
deviation by turns left (what the softmax temperature follows). The last line is JSON.
Games are seeded (`--seed`), so a run is reproducible; no clock is involved.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RANDOM_SHARE = 0.2

Sample = tuple[float, list[float], float]  # certain score now, features, final score


def play(args: tuple[int, int, int]) -> list[Sample]:
    game, players, seed = args
    from shared.bots.kits import get_kit
    from shared.bots.rotw_england_wales import value as V
    from shared.engine import default_options
    from shared.games import get_engine

    engine = get_engine("rotw-england-wales")
    kit = get_kit(engine)
    rng = random.Random(seed + game)
    s = engine.setup([f"P{i}" for i in range(players)], default_options(engine), rng.randrange(2**31))
    weights = V.weights_for(players)
    seen: list[list[tuple[float, list[float]]]] = []
    while engine.result(s) is None:
        seat = min(engine.active_seats(s))
        if s.phase == "action" and s.build is None:
            seen.append([V.features(s, q, weights) for q in range(players)])
            if rng.random() < RANDOM_SHARE:
                for action in rng.choice(kit.options(engine, s, seat)):
                    if engine.result(s) is not None or seat not in engine.active_seats(s):
                        break
                    s = engine.apply(s, seat, action)
                continue
        s = engine.apply(s, seat, kit.greedy(engine, s, seat, rng))
    result = engine.result(s)
    assert result is not None  # the loop above plays until the game is over
    final = result.scores
    return [(certain, feats, float(final[q])) for row in seen for q, (certain, feats) in enumerate(row)]


def least_squares(xs: list[list[float]], ys: list[float], ridge: float = 1e-3) -> list[float]:
    """Normal equations with a whisker of ridge, solved by Gauss-Jordan (no numpy needed)."""
    k = len(xs[0])
    m = [[sum(x[i] * x[j] for x in xs) + (ridge if i == j else 0.0) for j in range(k)]
         + [sum(x[i] * y for x, y in zip(xs, ys))] for i in range(k)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(k):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c])]
    return [m[i][k] / m[i][i] for i in range(k)]


def main() -> None:
    from shared.bots.rotw_england_wales.value import FEATURES

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        samples = [x for game in pool.map(play, [(g, args.players, args.seed) for g in range(args.games)])
                   for x in game]
    xs = [feats for _, feats, _ in samples]
    ys = [final - certain for certain, _, final in samples]
    w = least_squares(xs, ys)
    residuals = [y - sum(a * b for a, b in zip(x, w)) for x, y in zip(xs, ys)]
    mean = sum(ys) / len(ys)
    r2 = 1 - sum(r * r for r in residuals) / sum((y - mean) ** 2 for y in ys)
    print(f"rotw value fit: {args.games} games, {args.players} players, {len(samples)} seat-positions, "
          f"R^2 {r2:.3f}")
    coefficients = {name: round(c, 3) for name, c in zip(FEATURES, w)}
    for name, c in coefficients.items():
        print(f"  {name:<12} {c:>8.3f}")
    spread = {}
    turns_at = FEATURES.index("per_turn")
    for lo, hi in ((0, 2), (2, 4), (4, 6), (6, 9), (9, 99)):
        part = [r for r, x in zip(residuals, xs) if lo <= x[turns_at] < hi]
        if part:
            spread[f"{lo}-{hi}"] = round(math.sqrt(sum(r * r for r in part) / len(part)), 2)
            print(f"  residual sd, {lo}-{hi} turns left: {spread[f'{lo}-{hi}']} VP ({len(part)} samples)")
    print(json.dumps({"rotw_value_fit": {"players": args.players, "games": args.games, "r2": round(r2, 3),
                                         "weights": coefficients, "residual_sd": spread}}))


if __name__ == "__main__":
    main()
