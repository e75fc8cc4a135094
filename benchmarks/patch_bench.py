"""Wire benchmark: the cost and size of view patches (shared/protocol/json_patch.py) against
sending the whole view, on consecutive views of random games.

    python3 -m benchmarks.patch_bench --title chicago-express --players 4 --games 20 --seed 1

For every action of every game and every seat plus the spectator, it takes the view before
and after (as the projection does) and times `diff` and the encoding of its result, next to
`engine.view` and the encoding of the whole view, which is what each update cost before.
Bytes per update: the patch frame's payload against the whole view. Per game: what one
socket receives over a whole game (a phone's download). `apply` is the client's side.
One core, one process; the last line of stdout is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from shared.games import get_engine  # noqa: E402
from shared.protocol.json_patch import apply, diff  # noqa: E402
from shared.timeline import Timeline  # noqa: E402

from services.offline.random_play import DEFAULT_MAX_ACTIONS, game_seeds, play_random_game  # noqa: E402

_encode = msgspec.json.encode


def measure(title: str, players: int, games: int, seed: int) -> dict[str, Any]:
    engine = get_engine(title)
    clock = time.perf_counter_ns
    samples: dict[str, list[float]] = {k: [] for k in ("view", "encode_view", "diff", "encode_patch", "apply")}
    view_bytes: list[int] = []
    patch_bytes: list[int] = []
    game_view_bytes: list[int] = []
    game_patch_bytes: list[int] = []
    keys: list[int | None] = [None, *range(players)]
    for g in range(games):
        playout = play_random_game(engine, players, *game_seeds(seed, g), DEFAULT_MAX_ACTIONS)
        timeline = Timeline(engine, playout.seats, playout.options, playout.seed)
        old = {k: engine.view(timeline.state, k) for k in keys}
        held = {k: msgspec.json.decode(_encode(v)) for k, v in old.items()}  # a client's copies
        full_total = patch_total = 0
        for seat, action in playout.actions:
            state = timeline.push(seat, action)
            for k in keys:
                t0 = clock()
                new = engine.view(state, k)
                t1 = clock()
                full = _encode(new)
                t2 = clock()
                ops = diff(old[k], new)
                t3 = clock()
                patch = _encode(ops)
                t4 = clock()
                decoded = msgspec.json.decode(patch)
                t5 = clock()
                held[k] = apply(held[k], decoded)
                t6 = clock()
                for name, ns in (("view", t1 - t0), ("encode_view", t2 - t1), ("diff", t3 - t2),
                                 ("encode_patch", t4 - t3), ("apply", t6 - t5)):
                    samples[name].append(ns / 1000)
                view_bytes.append(len(full))
                patch_bytes.append(len(patch))
                if k == 0:
                    full_total += len(full)
                    patch_total += len(patch)
                old[k] = new
        for k in keys:  # the client's copies must have followed exactly
            if held[k] != msgspec.json.decode(_encode(old[k])):
                raise AssertionError(f"game {g}, seat {k}: the patched copy differs from the view")
        game_view_bytes.append(full_total)
        game_patch_bytes.append(patch_total)

    def mean(xs: list[float] | list[int]) -> float:
        return round(statistics.fmean(xs), 1)

    def p99(xs: list[float] | list[int]) -> float:
        return round(sorted(xs)[int(0.99 * (len(xs) - 1))], 1)

    figures: dict[str, Any] = {"title": title, "players": players, "games": games, "updates": len(view_bytes)}
    for name, xs in samples.items():
        figures[f"{name}_us"] = mean(xs)
        figures[f"{name}_p99_us"] = p99(xs)
    figures |= {
        "view_bytes": mean(view_bytes),
        "view_bytes_max": max(view_bytes),
        "patch_bytes": mean(patch_bytes),
        "patch_bytes_p99": p99(patch_bytes),
        "patch_bytes_max": max(patch_bytes),
        "game_view_mb": round(statistics.fmean(game_view_bytes) / 1e6, 2),
        "game_patch_mb": round(statistics.fmean(game_patch_bytes) / 1e6, 3),
    }
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--title", default="chicago-express")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    f = measure(args.title, args.players, args.games, args.seed)
    print(f"{f['title']}, {f['players']} players, {f['games']} random games, {f['updates']} seat updates "
          "(each seat and the spectator, every action), one core")
    print(f"  before, per update: view {f['view_us']} us + encode {f['encode_view_us']} us "
          f"(p99 {f['view_p99_us']} + {f['encode_view_p99_us']}), {f['view_bytes']:.0f} bytes (max {f['view_bytes_max']})")
    print(f"  patch, per update:  diff {f['diff_us']} us + encode {f['encode_patch_us']} us "
          f"(p99 {f['diff_p99_us']} + {f['encode_patch_p99_us']}), {f['patch_bytes']:.0f} bytes "
          f"(p99 {f['patch_bytes_p99']:.0f}, max {f['patch_bytes_max']})")
    print(f"  client apply: {f['apply_us']} us (p99 {f['apply_p99_us']})")
    print(f"  one socket over a whole game: {f['game_view_mb']} MB of views, {f['game_patch_mb']} MB of patches")
    print(json.dumps(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
