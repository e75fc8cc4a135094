"""Bot fairness benchmark: a person's bot opponent while a backlog of bot-only tables runs.

    python3 -m benchmarks.bot_fairness_bench --backlog 300 --games 2

Starts a private redis-server, the game service on loopback and one bot worker (2 compute
processes, submitting over HTTP). Creates `--backlog` Chicago Express tables where only
random bots sit (the per-client bot-table limit is lifted here: the point is the
scheduling), then plays `--games` tables where seat 0 is a person moving at once and seats
1-2 are random bots. A bot's response time is the time between the log entry that made its
turn and its own entry. Prints the person's bots' p50/p95 for three runs: no backlog, the
backlog with today's scheduling (people's tables on rh:turns, read first), and the backlog
with every notice in one first-in-first-out stream (`bots_only` forced, what the worker
did before). The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402

from shared.config import RateLimit  # noqa: E402

from benchmarks.stack import bot_stack, create_table, play_person  # noqa: E402
from services.game import tables as game_tables  # noqa: E402
from services.offline.arena import percentile  # noqa: E402

TITLE = "chicago-express"
BOTS3 = [{"name": f"B{i}", "kind": "bot", "level": "random"} for i in range(3)]
PERSON = [{"name": "Person"}, {"name": "R1", "kind": "bot", "level": "random"},
          {"name": "R2", "kind": "bot", "level": "random"}]


async def one_run(backlog: int, games: int, fifo: bool, processes: int) -> list[float]:
    original = game_tables.HotTable.bots_only
    if fifo:  # every table's notices in the bot-only stream: one queue, as before
        game_tables.HotTable.bots_only = property(lambda self: True)  # type: ignore[method-assign,assignment]
    try:
        times: list[float] = []
        async with bot_stack(processes, fsync="everysec", limit_bot_tables=RateLimit(0, 0),
                             limit_create=RateLimit(0, 0)) as stack, \
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            for _ in range(backlog):
                await create_table(session, stack.base, TITLE, BOTS3)
            rng = random.Random(1)
            for _ in range(games):
                created = await create_table(session, stack.base, TITLE, PERSON)
                await play_person(session, stack.base, created["table"], created["seats"][0]["token"], rng)
                times += [ms for _, ms in await stack.bot_reply_ms(created["table"])]
        return sorted(times)
    finally:
        game_tables.HotTable.bots_only = original  # type: ignore[method-assign]


def figures(times: list[float]) -> dict[str, Any]:
    return {"moves": len(times), "p50_ms": percentile(times, 50), "p95_ms": percentile(times, 95)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backlog", type=int, default=300, help="bot-only tables running meanwhile")
    p.add_argument("--games", type=int, default=1, help="games the person plays per run")
    p.add_argument("--processes", type=int, default=2)
    args = p.parse_args()
    out = {}
    for name, backlog, fifo in (("no_backlog", 0, False), ("backlog_fair", args.backlog, False),
                                ("backlog_fifo", args.backlog, True)):
        out[name] = figures(asyncio.run(one_run(backlog, args.games, fifo, args.processes)))
        print(json.dumps({name: out[name]}), flush=True)
    print(json.dumps({"bot_reply_at_a_persons_table": out, "backlog": args.backlog}))


if __name__ == "__main__":
    main()
