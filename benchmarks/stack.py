"""The live stack the bot benchmarks play against: a private redis-server, the game service
on loopback and one bot worker submitting over HTTP, plus a person who moves at once."""

from __future__ import annotations

import asyncio
import random
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import redis.asyncio as aioredis
from aiohttp import web

from shared.config import Config
from shared.redis_server import RedisServer, free_port
from shared.store import RedisEventStore

from services.bot.settings import BotSettings
from services.bot.submit import HttpSubmitter
from services.bot.worker import BotWorker
from services.game.app import install as install_game

SECRET = b"benchmark-secret-0123456789abcdef0123"


@dataclass
class Stack:
    base: str
    redis: aioredis.Redis

    async def bot_reply_ms(self, table: str) -> list[tuple[int, float]]:
        """(seat, ms) for every bot entry: from the entry that made its turn to its own."""
        entries = await RedisEventStore(self.redis).read(table, 0)
        return [(e.seat, e.t_ms - b.t_ms) for b, e in zip(entries, entries[1:]) if e.seat != 0]


@asynccontextmanager
async def bot_stack(processes: int, fsync: str = "always", **config: Any) -> AsyncIterator[Stack]:
    with tempfile.TemporaryDirectory(prefix="rh-bench-") as tmp:
        server = RedisServer(Path(tmp) / "redis", fsync=fsync).start()
        try:
            app = web.Application()
            install_game(app, Config(redis_url=server.url, secret=SECRET, **config))
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            port = free_port()
            await web.TCPSite(runner, "127.0.0.1", port).start()
            base = f"http://127.0.0.1:{port}"
            redis = aioredis.from_url(server.url, socket_timeout=30)
            worker = BotWorker(redis, HttpSubmitter(base, SECRET),
                               BotSettings(group="bench", consumer="bench", processes=processes,
                                           inflight=2 * processes))
            await worker.start()
            try:
                yield Stack(base, redis)
            finally:
                await worker.stop(grace_s=1.0)
                await redis.aclose()
                await runner.cleanup()
        finally:
            server.stop()


async def create_table(session: aiohttp.ClientSession, base: str, title: str, seats: list[dict[str, Any]]) -> dict:
    async with session.post(f"{base}/api/tables", json={"title": title, "seats": seats}) as resp:
        if resp.status != 201:
            raise RuntimeError(f"creating a table: HTTP {resp.status} {await resp.text()}")
        return await resp.json()


async def play_person(session: aiohttp.ClientSession, base: str, table: str, token: str, rng: random.Random) -> None:
    """Seat 0 plays a random legal move (a range at its minimum) as soon as it is to act."""
    headers = {"Authorization": f"Bearer {token}"}
    while True:
        async with session.get(f"{base}/api/tables/{table}/legal", headers=headers) as resp:
            legal = await resp.json()
        async with session.get(f"{base}/api/tables/{table}") as resp:
            detail = await resp.json()
        if detail["status"] == "finished":
            return
        if not legal["active"] or legal["seq"] != detail["last_seq"]:
            await asyncio.sleep(0.005)  # polling interval of a client with nothing to do
            continue
        choice = rng.choice(legal["actions"])
        action = dict(choice["action"])
        if choice["range"]:
            action[choice["range"]["field"]] = choice["range"]["min"]
        body = {"expected_seq": legal["seq"], "idempotency_key": uuid.uuid4().hex, "action": action}
        async with session.post(f"{base}/api/tables/{table}/actions", json=body, headers=headers) as resp:
            await resp.read()
