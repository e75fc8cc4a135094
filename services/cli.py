"""`roundhouse`: one command for every service and tool. Subcommands import their module lazily,
so `roundhouse replay` does not pay for aiohttp and a service does not load the others."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from importlib import import_module

from services.collector import tune_gc


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


SEED_HELP = "base seed: the same flags always play the same games (default: %(default)s)"

def _command(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, summary: str) -> argparse.ArgumentParser:
    """A subcommand whose own --help starts with the summary `roundhouse --help` lists."""
    return sub.add_parser(name, help=summary, description=summary)


def build_parser() -> argparse.ArgumentParser:
    # Every option's help names its default (a test runs each --help and checks).
    p = argparse.ArgumentParser(prog="roundhouse", description="Roundhouse: railway board games for people and bots")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    dev = _command(sub, "dev", "run everything (embedded Redis unless REDIS_URL) behind one URL")
    dev.add_argument("--host", default=os.environ.get("ROUNDHOUSE_HOST", "127.0.0.1"),
                     help="address to listen on (default: $ROUNDHOUSE_HOST, else 127.0.0.1)")
    dev.add_argument("--port", type=int, default=_env_int("ROUNDHOUSE_PORT", 8000),
                     help="port to listen on; 0 picks a free one (default: $ROUNDHOUSE_PORT, else 8000)")
    dev.add_argument("--data-dir", default=os.environ.get("ROUNDHOUSE_DATA_DIR", "data"),
                     help="where the embedded Redis keeps its AOF and where the seat-token secret is kept "
                          "(default: $ROUNDHOUSE_DATA_DIR, else ./data)")
    dev.add_argument("--redis-cluster", type=int, metavar="N", default=0,
                     help="embed a local Redis Cluster of N masters with one replica each instead of one "
                          "redis-server (default: 0, one redis-server)")
    dev.set_defaults(module="services.dev")

    for name, port in (("game", 8001), ("projection", 8002)):
        s = _command(sub, name, f"run the {name} service alone (config from env vars; see docs/running.md)")
        s.add_argument("--host", default=os.environ.get("ROUNDHOUSE_HOST", "0.0.0.0"),
                       help="address to listen on (default: $ROUNDHOUSE_HOST, else 0.0.0.0)")
        s.add_argument("--port", type=int, default=_env_int("ROUNDHOUSE_PORT", port),
                       help=f"port to listen on (default: $ROUNDHOUSE_PORT, else {port})")
        s.set_defaults(module=f"services.{name}.main")

    bot = _command(sub, "bot", "run the bot worker alone: plays bot seats (config from env vars)")
    bot.add_argument("--game-url", default=None,
                     help="game service base URL (default: $ROUNDHOUSE_GAME_URL, else http://127.0.0.1:8001)")
    bot.add_argument("--processes", type=int, default=None,
                     help="compute processes (default: $ROUNDHOUSE_BOT_PROCESSES, else 2, or 1 on one CPU)")
    bot.set_defaults(module="services.bot.main")

    rp = _command(sub, "replay", "replay a table log; print final state and result as JSON")
    rp.add_argument("log", help="path to a table log JSON file ({title, options, seats, seed, actions})")
    rp.set_defaults(module="services.offline.replay")

    im = _command(sub, "import-18xx", "fold an 18xx.games export through our engine; print its result as JSON")
    im.add_argument("export", help="path to an 18xx.games game export (JSON with title, players, settings, actions)")
    im.add_argument("--to-table", action="store_true",
                    help="also store the game as a new table the services can open (default: off)")
    im.add_argument("--redis-url", default=None,
                    help="Redis for --to-table (default: $REDIS_URL, else redis://127.0.0.1:6379/0)")
    im.add_argument("--clock", metavar="JSON", default=None,
                    help="with --to-table: the table's clock, as `clock` in POST /api/tables, e.g. "
                         "'{\"kind\": \"async\", \"turn_hours\": 24}' (default: none)")
    im.set_defaults(module="services.offline.import_18xx")

    ex = _command(sub, "export-18xx", "write a game of ours as an 18xx.games export (JSON) that its engine loads")
    ex.add_argument("source", help="TABLE or LOG.json: a table log file ({title, options, seats, seed, actions}), "
                                   "else a table id in Redis")
    ex.add_argument("-o", "--output", metavar="FILE", default=None, help="write the export here (default: stdout)")
    ex.add_argument("--redis-url", default=None,
                    help="Redis holding TABLE (default: $REDIS_URL, else redis://127.0.0.1:6379/0)")
    ex.set_defaults(module="services.offline.export_18xx")

    sp = _command(sub, "selfplay", "play random legal games (or one bot level's) in-process")
    sp.add_argument("--title", default="chicago-express", help="game title to play (default: %(default)s)")
    sp.add_argument("--players", type=int, default=4, help="seats per game (default: %(default)s)")
    sp.add_argument("--games", type=int, default=10, help="games to play (default: %(default)s)")
    sp.add_argument("--seed", type=int, default=1, help=SEED_HELP)
    sp.add_argument("--max-actions", type=int, default=10_000,
                    help="cap per game; a game cut short has finished=false (default: %(default)s)")
    sp.add_argument("--option", metavar="NAME=VALUE", action="append", default=[],
                    help="a title option, VALUE as JSON (e.g. larger_bank=true); repeatable (default: the title's defaults)")
    sp.add_argument("--save", metavar="DIR", default=None,
                    help="also write each game's table log to DIR/game-<index>.json (default: off)")
    sp.add_argument("--bot", default="random",
                    help="the level playing every seat: random, heuristic, mcts (default: %(default)s)")
    sp.set_defaults(module="services.offline.selfplay")

    ar = _command(sub, "arena", "bots play each other in-process: win rates, scores, move times")
    ar.add_argument("--title", default="chicago-express", help="game title to play (default: %(default)s)")
    ar.add_argument("--players", type=int, default=4, help="seats per game (default: %(default)s)")
    ar.add_argument("--bots", default="mcts,heuristic,random,random",
                    help="one per seat: random, heuristic, mcts (default: %(default)s)")
    ar.add_argument("--games", type=int, default=200, help="games to play (default: %(default)s)")
    ar.add_argument("--seed", type=int, default=1, help=SEED_HELP)
    ar.add_argument("--budget-ms", type=float, default=None,
                    help="mcts time per move; 0 = iterations only (default: 700 when neither this nor "
                         "--iterations is given, else no clock)")
    ar.add_argument("--iterations", type=int, default=None,
                    help="mcts iterations per move (default: 400 when neither this nor --budget-ms is given, "
                         "else no cap)")
    ar.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                    help="processes playing games (default: 2, or 1 on one CPU)")
    ar.add_argument("--max-actions", type=int, default=10_000,
                    help="cap per game; an unfinished game wins nothing (default: %(default)s)")
    ar.set_defaults(module="services.offline.arena")

    bench = _command(sub, "bench", "benchmarks")
    bsub = bench.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")
    live = _command(bsub, "live", "load the full stack on loopback: tables x sockets")
    live.add_argument("--tables", type=int, default=200, help="tables played at once (default: %(default)s)")
    live.add_argument("--sockets", type=int, default=1000,
                      help="WebSocket watchers spread over the tables (default: %(default)s)")
    live.add_argument("--seconds", type=float, default=20.0, help="length of the measured window (default: %(default)s)")
    live.add_argument("--redis-url", default=os.environ.get("REDIS_URL"),
                      help="Redis to use (default: $REDIS_URL, else an embedded redis-server started for the run)")
    live.add_argument("--redis-cluster", type=int, metavar="N", default=0,
                      help="start a local Redis Cluster of N masters with one replica each instead of one "
                           "redis-server (default: 0, one redis-server)")
    live.add_argument("--players", type=int, default=4, help="seats per table (default: %(default)s)")
    live.add_argument("--rate", type=float, default=0.0,
                      help="target actions/s over all tables; 0 = as fast as turns allow (default: %(default)s)")
    live.add_argument("--warmup", type=float, default=1.0,
                      help="seconds played before the measured window (default: %(default)s)")
    live.add_argument("--game-workers", type=int, default=1,
                      help="game-service processes, one port each (default: %(default)s)")
    live.add_argument("--projection-workers", type=int, default=1,
                      help="projection processes, one port each (default: %(default)s)")
    live.add_argument("--load-workers", type=int, default=1, help="load-generator processes (default: %(default)s)")
    live.add_argument("--fsync", default="always", choices=("always", "everysec", "no"),
                      help="embedded Redis appendfsync (default: %(default)s)")
    live.add_argument("--seed", type=int, default=1, help="seed for the tables and the moves (default: %(default)s)")
    live.set_defaults(module="services.bench_live")

    _command(sub, "test", "run the test suite (pytest); every argument after `test` goes to pytest, "
                          "so `roundhouse test --help` is pytest's help")
    lint = _command(sub, "lint", "run ruff and mypy over the checked part of the tree (configured in pyproject.toml)")
    lint.set_defaults(module="services.lint")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["test"]:
        # Everything after `test` belongs to pytest, options included.
        return subprocess.call([sys.executable, "-m", "pytest", *argv[1:]])
    args = build_parser().parse_args(argv)
    tune_gc()
    module = import_module(args.module)
    rc = module.main(args)
    return int(rc or 0)


if __name__ == "__main__":
    sys.exit(main())
