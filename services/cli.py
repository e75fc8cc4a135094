"""`roundhouse`: one command for every service and tool. Subcommands import their module lazily,
so `roundhouse replay` does not pay for aiohttp and a service does not load the others."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from importlib import import_module


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="roundhouse", description="Roundhouse: railway board games for people and bots")
    sub = p.add_subparsers(dest="command", required=True)

    dev = sub.add_parser("dev", help="run everything (embedded Redis unless REDIS_URL) behind one URL")
    dev.add_argument("--host", default=os.environ.get("ROUNDHOUSE_HOST", "127.0.0.1"))
    dev.add_argument("--port", type=int, default=_env_int("ROUNDHOUSE_PORT", 8000))
    dev.add_argument("--data-dir", default=os.environ.get("ROUNDHOUSE_DATA_DIR", "data"))
    dev.set_defaults(module="services.dev")

    for name, port in (("game", 8001), ("projection", 8002)):
        s = sub.add_parser(name, help=f"run the {name} service alone (config from env vars)")
        s.add_argument("--host", default=os.environ.get("ROUNDHOUSE_HOST", "0.0.0.0"))
        s.add_argument("--port", type=int, default=_env_int("ROUNDHOUSE_PORT", port))
        s.set_defaults(module=f"services.{name}.main")

    bot = sub.add_parser("bot", help="run the bot worker alone: plays bot seats (config from env vars)")
    bot.add_argument("--game-url", default=None, help="game service base URL (default: ROUNDHOUSE_GAME_URL)")
    bot.add_argument("--processes", type=int, default=None, help="compute processes (default: ROUNDHOUSE_BOT_PROCESSES or 2)")
    bot.set_defaults(module="services.bot.main")

    rp = sub.add_parser("replay", help="replay a table log; print final state and result as JSON")
    rp.add_argument("log", help="path to a table log JSON file ({title, options, seats, seed, actions})")
    rp.set_defaults(module="services.offline.replay")

    sp = sub.add_parser("selfplay", help="play random legal games in-process")
    sp.add_argument("--title", default="chicago-express")
    sp.add_argument("--players", type=int, default=4)
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--max-actions", type=int, default=10_000, help="cap per game; a game cut short has finished=false")
    sp.set_defaults(module="services.offline.selfplay")

    ar = sub.add_parser("arena", help="bots play each other in-process: win rates, scores, move times")
    ar.add_argument("--title", default="chicago-express")
    ar.add_argument("--players", type=int, default=4)
    ar.add_argument("--bots", default="mcts,heuristic,random,random", help="one per seat: random, heuristic, mcts")
    ar.add_argument("--games", type=int, default=200)
    ar.add_argument("--seed", type=int, default=1)
    ar.add_argument("--budget-ms", type=float, default=None, help="mcts time per move; 0 = iterations only")
    ar.add_argument("--iterations", type=int, default=None, help="mcts iterations per move")
    ar.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes playing games")
    ar.add_argument("--max-actions", type=int, default=10_000, help="cap per game (an unfinished game wins nothing)")
    ar.set_defaults(module="services.offline.arena")

    bench = sub.add_parser("bench", help="benchmarks")
    bsub = bench.add_subparsers(dest="bench", required=True)
    live = bsub.add_parser("live", help="load the full stack on loopback: tables x sockets")
    live.add_argument("--tables", type=int, default=200)
    live.add_argument("--sockets", type=int, default=1000)
    live.add_argument("--seconds", type=float, default=20.0)
    live.add_argument("--redis-url", default=os.environ.get("REDIS_URL"))
    live.add_argument("--players", type=int, default=4, help="seats per table")
    live.add_argument("--rate", type=float, default=0.0, help="target actions/s over all tables (0: as fast as turns allow)")
    live.add_argument("--warmup", type=float, default=1.0, help="seconds played before the measured window")
    live.add_argument("--game-workers", type=int, default=1, help="game-service processes (one port each)")
    live.add_argument("--projection-workers", type=int, default=1, help="projection processes (one port each)")
    live.add_argument("--load-workers", type=int, default=1, help="load-generator processes")
    live.add_argument("--fsync", default="always", choices=("always", "everysec", "no"), help="embedded Redis appendfsync")
    live.add_argument("--seed", type=int, default=1)
    live.set_defaults(module="services.bench_live")

    sub.add_parser("test", help="run the whole test suite (pytest); extra args go to pytest")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["test"]:
        # Everything after `test` belongs to pytest, options included.
        return subprocess.call([sys.executable, "-m", "pytest", *argv[1:]])
    args = build_parser().parse_args(argv)
    module = import_module(args.module)
    rc = module.main(args)
    return int(rc or 0)


if __name__ == "__main__":
    sys.exit(main())
