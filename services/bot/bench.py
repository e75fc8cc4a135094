"""Bot response time through the whole stack: `python3 -m services.bot.bench`.

Starts its own redis-server (AOF, appendfsync always), the game service on loopback and one
bot worker submitting over HTTP, then plays tables where seat 0 is a person who moves at
once (a random legal move over the HTTP API) and the other seats are bots. A bot's response
time is the time between the log entry that made its turn and the bot's own entry (both
timestamped by the game service when appended): turn notice, reading and folding the log,
the decision in a compute process, and the submit. Prints percentiles per bot level; the
last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp
import msgspec
import redis.asyncio as aioredis
from aiohttp import web

from services.bot.settings import BotSettings
from services.bot.submit import HttpSubmitter
from services.bot.worker import BotWorker
from services.game.app import install as install_game
from services.offline.arena import percentile
from shared.bots import BOT_NAMES
from shared.config import Config
from shared.redis_server import RedisServer, free_port
from shared.store import EventStore

SECRET = b"bench-secret"


async def play_person(session: aiohttp.ClientSession, base: str, table: str, token: str, rng: random.Random) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    while True:
        async with session.get(f"{base}/api/tables/{table}/legal", headers=headers) as resp:
            legal = await resp.json()
        async with session.get(f"{base}/api/tables/{table}") as resp:
            detail = await resp.json()
        if detail["status"] == "finished":
            return
        if not legal["active"] or legal["seq"] != detail["last_seq"]:
            await asyncio.sleep(0.005)
            continue
        choice = rng.choice(legal["actions"])
        action = dict(choice["action"])
        if choice["range"]:
            action[choice["range"]["field"]] = choice["range"]["min"]
        body = {"expected_seq": legal["seq"], "idempotency_key": uuid.uuid4().hex, "action": action}
        async with session.post(f"{base}/api/tables/{table}/actions", json=body, headers=headers) as resp:
            await resp.read()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    levels = [x.strip() for x in args.bots.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        redis_server = RedisServer(Path(tmp) / "redis").start()
        cfg = Config(redis_url=redis_server.url, secret=SECRET)
        app = web.Application()
        install_game(app, cfg)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        base = f"http://127.0.0.1:{port}"
        redis = aioredis.from_url(redis_server.url, socket_timeout=30)
        settings = BotSettings(group="bench", consumer="bench", processes=args.processes,
                               inflight=2 * args.processes)
        worker = BotWorker(redis, HttpSubmitter(base, SECRET), settings)
        await worker.start()
        rng = random.Random(args.seed)
        times: dict[str, list[float]] = {level: [] for level in levels}
        try:
            async with aiohttp.ClientSession() as session:
                for _ in range(args.games):
                    seats = [{"name": "Person"}] + [{"name": f"Bot{i}", "kind": "bot", "level": level}
                                                    for i, level in enumerate(levels)]
                    async with session.post(f"{base}/api/tables", json={"title": args.title, "seats": seats}) as resp:
                        created = await resp.json()
                    table = created["table"]
                    await play_person(session, base, table, created["seats"][0]["token"], rng)
                    entries = await EventStore(redis).read(table, 0)
                    for before, entry in zip(entries, entries[1:]):
                        if entry.seat != 0:
                            times[levels[entry.seat - 1]].append(entry.t_ms - before.t_ms)
        finally:
            await worker.stop()
            await redis.aclose()
            await runner.cleanup()
            redis_server.stop()
    return {level: sorted(values) for level, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m services.bot.bench", description=__doc__.split("\n")[0])
    p.add_argument("--title", default="chicago-express")
    p.add_argument("--bots", default="random,heuristic,mcts", help=f"levels of seats 1.. ({', '.join(BOT_NAMES)})")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    started = time.perf_counter()
    times = asyncio.run(run(args))
    print(f"bot response time (turn begins -> bot move logged), {args.games} games, "
          f"{time.perf_counter() - started:.0f} s, {args.processes} compute processes")
    figures = {}
    for level, values in times.items():
        figures[level] = {"moves": len(values), "ms_p50": percentile(values, 50), "ms_p95": percentile(values, 95),
                          "ms_max": values[-1] if values else 0}
        print(f"{level:<10} moves {len(values):>5}  p50 {figures[level]['ms_p50']:>6} ms  "
              f"p95 {figures[level]['ms_p95']:>6} ms  max {figures[level]['ms_max']:>6} ms")
    print(msgspec.json.encode({"bot_response": figures}).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
