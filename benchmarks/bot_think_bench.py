"""A bot's think time over whole games, for one or more source trees in the same run.

    python3 -m benchmarks.bot_think_bench --title 18ireland --bots mcts,heuristic,heuristic \\
        --games 2 --seed 1 [--tree /path/to/a/checkout --tree /path/to/another ...]

Plays `--games` games per tree (game g seats the lineup rotated by g, as the arena does), every
move from the seat's view through `shared.bots.decide`, and times each decision: wall time
(what a player waits) and the thread's CPU time (what the bot computed; on a loaded machine
the wall time also holds the waits for a core). Trees are played in turn, round by round
(`--rounds`), so a change of load hits them alike. A tree is a checkout of this repository
(`git archive <commit> | tar -x -C DIR`, outside the repository; by default this one); each
is played in a child process of its own with only that tree importable, so trees share no
code and no caches.
Prints per tree and bot name p50 / p95 / max of both times, moves, end reasons and wins; the
last line of stdout is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


def play(title: str, lineup: list[str], game: int, seed: int, max_actions: int) -> dict[str, Any]:
    """One game in this process (the tree is whatever `shared` imports from)."""
    from shared.bots import Budget, decide
    from shared.bots.random_bot import random_action
    from shared.engine import default_options
    from shared.games import get_engine

    engine = get_engine(title)
    n = len(lineup)
    shift = game % n
    seats = lineup[shift:] + lineup[:shift]
    rng = random.Random(seed * 1_000_003 + game)
    state = engine.setup([f"P{i}" for i in range(n)], default_options(engine), rng.randrange(2**31))
    wall: list[list[float]] = [[] for _ in range(n)]
    cpu: list[list[float]] = [[] for _ in range(n)]
    illegal = actions = 0
    result = engine.result(state)
    while result is None and actions < max_actions:
        active = sorted(engine.active_seats(state))
        if not active:
            break
        for seat in active:
            if seat not in engine.active_seats(state):
                continue
            w0, c0 = time.perf_counter(), time.thread_time()
            try:
                action = decide(engine, engine.redact(state, seat, rng.getrandbits(63)), seat, seats[seat], rng,
                                Budget())
                after = engine.apply(state, seat, action)
            except Exception:  # noqa: BLE001 - counted, and the game goes on
                after = None
            cpu[seat].append((time.thread_time() - c0) * 1000.0)
            wall[seat].append((time.perf_counter() - w0) * 1000.0)
            if after is None:
                illegal += 1
                after = engine.apply(state, seat, random_action(engine, state, seat, rng))
            state = after
            actions += 1
        result = engine.result(state)
    return {"seats": seats, "wall": wall, "cpu": cpu, "actions": actions, "illegal": illegal,
            "reason": result.reason if result else "unfinished",
            "winners": list(result.winners) if result else [], "scores": list(result.scores) if result else []}


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    by_bot: dict[str, dict[str, list[float]]] = {}
    wins: dict[str, float] = {}
    reasons: dict[str, int] = {}
    for g in games:
        reasons[g["reason"]] = reasons.get(g["reason"], 0) + 1
        for seat, bot in enumerate(g["seats"]):
            d = by_bot.setdefault(bot, {"wall": [], "cpu": []})
            d["wall"] += g["wall"][seat]
            d["cpu"] += g["cpu"][seat]
            if seat in g["winners"]:
                wins[bot] = wins.get(bot, 0.0) + 1.0 / len(g["winners"])
    bots = {}
    for bot, d in by_bot.items():
        bots[bot] = {"moves": len(d["wall"]), "wins": wins.get(bot, 0.0),
                     **{f"{k}_ms_{name}": round(pct(d[k], q), 1)
                        for k in ("wall", "cpu") for name, q in (("p50", 0.5), ("p95", 0.95), ("max", 1.0))}}
    return {"games": len(games), "end_reasons": reasons, "illegal": sum(g["illegal"] for g in games), "bots": bots}


def child(args: argparse.Namespace) -> int:
    tree = args.tree[-1]
    sys.path.insert(0, tree)
    import shared.bots

    assert Path(shared.bots.__file__).resolve().is_relative_to(Path(tree).resolve()), shared.bots.__file__
    lineup = args.bots.split(",")
    out = [play(args.title, lineup, g, args.seed, args.max_actions) for g in args.game]
    print(json.dumps(out))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--title", default="18ireland")
    ap.add_argument("--bots", default="mcts,heuristic,heuristic")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1, help="play each tree's games in this many turns")
    ap.add_argument("--max-actions", type=int, default=3000)
    ap.add_argument("--tree", action="append", default=[],
                    help="a checkout to time (repeatable; default: this one)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--game", type=int, action="append", default=[], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args)
    trees = args.tree or [str(HERE)]
    played: dict[str, list[dict[str, Any]]] = {t: [] for t in trees}
    games = list(range(args.games))
    per_round = max(1, -(-len(games) // args.rounds))
    for start in range(0, len(games), per_round):
        chunk = games[start:start + per_round]
        for tree in trees:
            cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--tree", tree, "--title", args.title,
                   "--bots", args.bots, "--seed", str(args.seed), "--max-actions", str(args.max_actions)]
            for g in chunk:
                cmd += ["--game", str(g)]
            proc = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tree)
            played[tree] += json.loads(proc.stdout.strip().splitlines()[-1])
            print(f"{tree}: games {chunk} done", file=sys.stderr, flush=True)
    result = {tree: summary(gs) for tree, gs in played.items()}
    for tree, s in result.items():
        print(f"{tree}: {s['games']} games, end reasons {s['end_reasons']}, illegal {s['illegal']}")
        for bot, f in s["bots"].items():
            print(f"  {bot:10s} moves {f['moves']:5d} wins {f['wins']:.1f}  wall p50/p95/max "
                  f"{f['wall_ms_p50']}/{f['wall_ms_p95']}/{f['wall_ms_max']} ms  cpu "
                  f"{f['cpu_ms_p50']}/{f['cpu_ms_p95']}/{f['cpu_ms_max']} ms")
    print(json.dumps({"bot_think": result}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
