"""Fixtures for the bot worker tests: the real game service and projection on one loopback
server over the session's real redis-server, in-process workers (real compute processes)
and `roundhouse bot` subprocesses."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import IO, Any

import aiohttp
import msgspec
import pytest
from aiohttp import web

from shared import auth
from shared.config import Config
from shared.engine import decode_action
from shared.games import get_engine
from shared.store import RedisEventStore
from shared.store.connect import AnyRedis, connect
from shared.timeline import Timeline

from services.bot.settings import BotSettings
from services.bot.submit import HttpSubmitter
from services.bot.worker import BotWorker
from services.game.app import install as install_game
from services.projection.app import install as install_projection
from services.projection.settings import ProjectionSettings
from tests.service_config import NO_BUDGETS

REPO = Path(__file__).resolve().parents[2]
SECRET = b"bot-test-secret-0123456789abcdef0"  # >= 32 bytes: `roundhouse game` refuses shorter
# Worker compute processes import the test title too.
PRELOAD: tuple[str, ...] = ()  # the test titles come through ROUNDHOUSE_TITLE_MODULES


class Stack:
    def __init__(self, url: str, redis_url: str) -> None:
        self.url = url
        self.redis_url = redis_url
        self.session = aiohttp.ClientSession()

    def token(self, table: str, seat: int) -> str:
        return auth.issue(SECRET, table, seat)

    async def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.session.request(method, self.url + path, json=body, headers=headers) as resp:
            return resp.status, await resp.json()

    async def create(self, seats: list[dict[str, Any]], title: str = "chicago-express",
                     seed: int | None = None) -> dict[str, Any]:
        extra = {} if seed is None else {"seed": seed}
        status, body = await self.call("POST", "/api/tables", {"title": title, "seats": seats, **extra})
        assert status == 201, body
        return body

    async def detail(self, table: str) -> dict[str, Any]:
        status, body = await self.call("GET", f"/api/tables/{table}")
        assert status == 200, body
        return body

    async def wait_finished(self, table: str, timeout: float = 120.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            detail = await self.detail(table)
            if detail["status"] == "finished":
                return detail
            await asyncio.sleep(0.1)
        raise AssertionError(f"table {table} did not finish in {timeout} s: {await self.detail(table)}")


@pytest.fixture
async def stack(aiohttp_server, redis_url: str) -> AsyncIterator[Stack]:
    cfg = Config(redis_url=redis_url, secret=SECRET, **NO_BUDGETS)
    app = web.Application()
    install_game(app, cfg)
    install_projection(app, cfg, settings=ProjectionSettings(block_ms=1000, feed_grace=0.2, heartbeat=30.0))
    server = await aiohttp_server(app)
    s = Stack(str(server.make_url("")).rstrip("/"), redis_url)
    yield s
    await s.session.close()


@pytest.fixture
def group() -> str:
    return f"bots-test-{uuid.uuid4().hex[:8]}"


def settings_for(group: str, consumer: str, **overrides: Any) -> BotSettings:
    base = BotSettings(group=group, group_start="$", consumer=consumer, processes=1, inflight=4,
                       claim_idle_ms=1000, claim_every_ms=200, block_ms=500, iterations=5, preload=PRELOAD)
    return msgspec.structs.replace(base, **overrides)


@pytest.fixture
async def start_worker(stack: Stack, group: str) -> AsyncIterator[Callable[..., Awaitable[BotWorker]]]:
    started: list[tuple[BotWorker, AnyRedis]] = []

    async def start(**overrides: Any) -> BotWorker:
        settings = settings_for(group, f"w{len(started)}", **overrides)
        redis = connect(stack.redis_url, socket_timeout=30)
        worker = BotWorker(redis, HttpSubmitter(stack.url, SECRET), settings)
        await worker.start()
        started.append((worker, redis))
        return worker

    yield start
    for worker, redis in started:
        await worker.stop(grace_s=2.0)
        await redis.aclose()


class WorkerProcess:
    """`roundhouse bot` as a subprocess in its own session (so kill -9 takes its compute
    processes along, as a crashed container would)."""

    def __init__(self, redis_url: str, game_url: str, group: str, consumer: str, env: dict[str, str],
                 stderr_path: Path | None = None) -> None:
        full = {
            **os.environ,
            "REDIS_URL": redis_url,
            "ROUNDHOUSE_SECRET": SECRET.decode(),
            "ROUNDHOUSE_GAME_URL": game_url,
            "ROUNDHOUSE_BOT_GROUP": group,
            "ROUNDHOUSE_BOT_GROUP_START": "$",
            "ROUNDHOUSE_BOT_CONSUMER": consumer,
            "ROUNDHOUSE_BOT_PROCESSES": "1",
            "ROUNDHOUSE_BOT_CLAIM_IDLE_MS": "1000",
            "ROUNDHOUSE_BOT_CLAIM_EVERY_MS": "200",
            "ROUNDHOUSE_BOT_BLOCK_MS": "500",
            **env,
        }
        self.consumer = consumer
        self.group = group
        # A long run that logs much (e.g. through a Redis failover) writes stderr to a file:
        # a pipe nobody reads would fill and block the worker.
        self.stderr_path = stderr_path
        err: IO[str] | int = open(stderr_path, "w") if stderr_path else subprocess.PIPE  # noqa: SIM115 - the child keeps its copy
        self.proc = subprocess.Popen([sys.executable, "-m", "services.cli", "bot"], cwd=REPO, env=full,
                                     stdout=subprocess.PIPE, stderr=err, text=True,
                                     start_new_session=True)
        if not isinstance(err, int):
            err.close()

    async def ready(self, timeout: float = 60.0) -> str:
        """Wait for the banner line (the worker has joined its group)."""
        loop = asyncio.get_running_loop()
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(loop.run_in_executor(None, self.proc.stdout.readline), timeout)
        assert line.startswith("roundhouse bot: consumer"), (line, self.stderr() if self.proc.poll() else "")
        return line

    def stderr(self) -> str:
        """What the exited worker wrote to stderr (from its file when it had one)."""
        if self.stderr_path:
            return self.stderr_path.read_text()
        assert self.proc.stderr is not None
        return self.proc.stderr.read()

    def kill9(self) -> None:
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    async def stop_off_loop(self) -> dict[str, Any]:
        """`stop`, waited for in a thread: when the game service the worker talks to runs in
        this event loop, a worker stopping gracefully may be waiting on its reply to the last
        move, and blocking the loop starved that reply past the worker's grace (the turn then
        stayed unacknowledged)."""
        return await asyncio.get_running_loop().run_in_executor(None, self.stop)

    def stop(self) -> dict[str, Any]:
        """SIGTERM; returns the worker's final stats."""
        self.proc.send_signal(signal.SIGTERM)
        out, err = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, err
        last = out.strip().splitlines()[-1]
        assert last.startswith("roundhouse bot: stopped; "), out
        return json.loads(last.split("; ", 1)[1])

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


@pytest.fixture
def worker_process(stack: Stack, group: str):
    started: list[WorkerProcess] = []

    def start(consumer: str, **env: str) -> WorkerProcess:
        proc = WorkerProcess(stack.redis_url, stack.url, group, consumer, env)
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.close()


async def replay(redis_url: str, table: str) -> tuple[Any, list[Any]]:
    """Fold the table's stream from Redis on our own: (engine result, log entries)."""
    client = connect(redis_url)
    try:
        store = RedisEventStore(client)
        meta = await store.get_meta(table)
        entries = await store.read(table, 0)
    finally:
        await client.aclose()
    assert meta is not None, f"no table {table}"
    engine = get_engine(meta.title)
    timeline = Timeline(engine, [s.name for s in meta.seats], meta.options, meta.seed)
    for entry in entries:
        timeline.push(entry.seat, decode_action(engine, entry.action))
    return engine.result(timeline.state), entries


def assert_each_turn_played_once(entries: list[Any]) -> None:
    """Every log entry is the move of a bot seat for the seq before it, and no (seq, seat) twice."""
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
    for entry in entries:
        assert entry.key == f"bot-{entry.seq - 1}-{entry.seat}", entry


async def pending(redis_url: str, group: str) -> dict[str, int]:
    client = connect(redis_url)
    held: dict[str, int] = {}
    try:
        for stream in RedisEventStore(client).turn_streams():  # people's and bot-only tables, every shard
            summary = await client.xpending(stream, group)
            for c in summary.get("consumers") or []:
                name = c["name"].decode()
                held[name] = held.get(name, 0) + int(c["pending"])
    finally:
        await client.aclose()
    return held
