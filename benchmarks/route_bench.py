"""Best-route search and track/token listing on a late-game 18Ireland-like board.

    python3 -m benchmarks.route_bench --seed 1 --lays 160 --repeat 5 [--token-rate 0.5] [--tries N]

Grows a board by random *legal* lays and tokens (our own rules) for every minor home on the
map through the phases up to D, then times, for each corporation with a station:
`autoroute.best_routes` for late train sets (D + 10H, 8H + 8H, and four trains 6H 6H 4H 3H'),
`track.legal_lays` and
`tokens.legal_tokens`. Prints figures per call (median, max) and the number of single routes
enumerated; the last line of stdout is JSON. With `--tries N`, also four late trains
(D 10H 8H 6H) both exact and with the choice of routes bounded to N tries (the bots' bound,
`shared/bots/g18ireland/adapter.ROUTE_TRIES`), in the same run: time and revenue of each.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.games.core18xx.board import autoroute as A  # noqa: E402
from shared.games.core18xx.board import routes as R  # noqa: E402
from shared.games.core18xx.board import state as B  # noqa: E402
from shared.games.core18xx.board import tokens as K  # noqa: E402
from shared.games.core18xx.board import track as T  # noqa: E402
from shared.games.g18ireland.map import PHASE_COLORS, ROUTE_RULES, TRACK_RULES, board_map  # noqa: E402

PHASES = ["2", "4", "6", "8", "10", "D"]


def grow(seed: int, lays: int, token_rate: float = 0.12) -> tuple[B.BoardState, list[str], int]:
    m = board_map()
    rng = random.Random(seed)
    b = B.initial(m)
    corps = sorted(m.homes)
    for corp in corps:
        spots = K.home_spots(m, b, corp)
        if spots:
            b = B.place_token(m, b, corp, spots[0].hex, spots[0].city)
    done = 0
    for i, phase in enumerate(PHASES):
        for _ in range(lays // len(PHASES)):
            corp = rng.choice(corps)
            opts = T.legal_lays(m, b, corp, PHASE_COLORS[phase], T.LaySlot(True, True), rules=TRACK_RULES)
            if not opts:
                continue
            # late phases favour upgrades, as real games do
            ups = [x for x in opts if m.tiles[x.tile].color != "yellow"]
            x = rng.choice(ups if ups and rng.random() < 0.6 + 0.05 * i else opts)
            b = B.lay(m, b, x.hex, x.tile, x.rotation)
            done += 1
            if rng.random() < token_rate:
                spots = K.legal_tokens(m, b, corp, 0)
                if spots:
                    s = rng.choice(spots)
                    b = B.place_token(m, b, corp, s.hex, s.city)
    return b, corps, done

Out = TypeVar("Out")


def timed(fn: Callable[[], Out], repeat: int) -> tuple[float, Out]:
    """The best of `repeat` timings (at least one) and the last result."""
    t0 = time.perf_counter()
    out = fn()
    best = [time.perf_counter() - t0]
    for _ in range(repeat - 1):
        t0 = time.perf_counter()
        out = fn()
        best.append(time.perf_counter() - t0)
    return min(best), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lays", type=int, default=160)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--token-rate", type=float, default=0.12, help="chance of a station token after each lay")
    ap.add_argument("--tries", type=int, default=None, help="also time four late trains exact and bounded")
    args = ap.parse_args()
    m = board_map()
    t0 = time.perf_counter()
    b, corps, done = grow(args.seed, args.lays, args.token_rate)
    grow_s = time.perf_counter() - t0
    colors = PHASE_COLORS["D"]
    rows = []
    for corp in corps:
        if not B.token_hexes(b, corp):
            continue
        ctx = R.RouteContext(corp, colors, ROUTE_RULES)
        row: dict[str, Any] = {"corp": corp, "tokens": len(B.token_hexes(b, corp))}
        for label, trains in (("D+10H", [R.Train("D-0", 99), R.Train("10H-0", 10)]),
                              ("8H+8H", [R.Train("8H-0", 8), R.Train("8H-1", 8)]),
                              ("4 trains", [R.Train("6H-0", 6), R.Train("6H-1", 6), R.Train("4H-0", 4),
                                            R.Train("3H'-0", 3)])):
            s, res = timed(partial(A.best_routes, m, b, ctx, trains), args.repeat)
            row[label] = {"ms": round(s * 1000, 1), "revenue": res.total, "routes": res.candidates, "exact": res.exact}
        s, lays = timed(partial(T.legal_lays, m, b, corp, colors, T.LaySlot(True, True), rules=TRACK_RULES), args.repeat)
        row["legal_lays"] = {"ms": round(s * 1000, 1), "count": len(lays)}
        s, spots = timed(partial(K.legal_tokens, m, b, corp, 0), args.repeat)
        row["legal_tokens"] = {"ms": round(s * 1000, 2), "count": len(spots)}
        if args.tries is not None:
            late = [R.Train("D-0", 99), R.Train("10H-0", 10), R.Train("8H-0", 8), R.Train("6H-0", 6)]
            for label, tries in (("late exact", None), ("late bounded", args.tries)):
                s, res = timed(partial(A.best_routes, m, b, ctx, late, tries=tries), args.repeat)
                row[label] = {"ms": round(s * 1000, 1), "revenue": res.total, "exact": res.exact}
            print(f"{corp:6} D 10H 8H 6H: exact {row['late exact']['ms']:8.1f} ms £{row['late exact']['revenue']}, "
                  f"bounded {row['late bounded']['ms']:8.1f} ms £{row['late bounded']['revenue']}")
        rows.append(row)
        print(f"{corp:6} tokens {row['tokens']}  "
              f"D+10H {row['D+10H']['ms']:7.1f} ms ({row['D+10H']['routes']:6d} routes, £{row['D+10H']['revenue']})  "
              f"8H+8H {row['8H+8H']['ms']:7.1f} ms  4 trains {row['4 trains']['ms']:7.1f} ms  "
              f"lays {row['legal_lays']['ms']:6.1f} ms ({len(lays)})  "
              f"tokens {row['legal_tokens']['ms']:.2f} ms")
    tiles = len(b.tiles)
    summary = {
        "board": {"seed": args.seed, "lays": done, "tiles_on_map": tiles, "grow_s": round(grow_s, 1)},
        "best_routes_ms": {
            k: {"median": round(statistics.median(r[k]["ms"] for r in rows), 1), "max": max(r[k]["ms"] for r in rows)}
            for k in ("D+10H", "8H+8H", "4 trains")
        },
        "max_routes": max(r["D+10H"]["routes"] for r in rows),
        "all_exact": all(r[k]["exact"] for r in rows for k in ("D+10H", "8H+8H", "4 trains")),
        "legal_lays_ms": {"median": round(statistics.median(r["legal_lays"]["ms"] for r in rows), 1),
                          "max": max(r["legal_lays"]["ms"] for r in rows)},
    }
    if args.tries is not None:
        summary["late_4_trains"] = {
            k: {"max_ms": max(r[k]["ms"] for r in rows), "revenue": sum(r[k]["revenue"] for r in rows)}
            for k in ("late exact", "late bounded")} | {"tries": args.tries}
    print(f"board: {done} lays, {tiles} hexes with tiles; grown in {grow_s:.1f} s")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
