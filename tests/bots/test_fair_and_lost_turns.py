"""Bot turns are scheduled fairly (a table with a person waiting is served before a backlog
of bot-only tables: ordering, not timing), a turn notice lost to a game service that died
between the append and the publish is announced again by the sweeper, and a Redis restart
costs the worker one warning line, not a traceback."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import aiohttp
import pytest
import redis.asyncio as aioredis

from shared.failpoints import EXIT_CODE
from shared.redis_server import RedisServer
from shared.store import RedisEventStore, keys
from shared.store.connect import connect

from services.bench.procs import ServiceProcess
from services.bot.submit import HttpSubmitter
from services.bot.worker import BotWorker

from .conftest import SECRET, replay, settings_for

BOTS = [{"name": "r1", "kind": "bot", "level": "random"}, {"name": "r2", "kind": "bot", "level": "random"}]


async def first_move_ms(redis_client, table: str) -> int | None:
    entries = await redis_client.xrange(keys.log_key(table), count=1)
    return int(entries[0][1][b"t"]) if entries else None


async def wait_for(condition, timeout: float = 60.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await condition()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_person_waiting_for_a_bot_is_served_before_a_backlog_of_bot_only_tables(
    stack, start_worker, group, redis_client
) -> None:
    await RedisEventStore(redis_client).ensure_turn_group(group, start="$")
    backlog = [(await stack.create(BOTS, title="nim"))["table"] for _ in range(12)]
    # Created last: in one first-in-first-out queue it would wait for all twelve.
    person = (await stack.create([{"name": "h"}, {"name": "r", "kind": "bot", "level": "random"}],
                                 title="nim", seed=1))["table"]
    assert (await stack.detail(person))["active_seats"] == [1]  # the bot moves first
    await start_worker(inflight=1)
    served = await wait_for(lambda: first_move_ms(redis_client, person), what="the person's bot to move")
    before = [t for t in backlog if (ms := await first_move_ms(redis_client, t)) is not None and ms < served]
    # At most the one move already in hand when the person's notice arrived (none here: it
    # was published before the worker started, and the worker reads people's tables first).
    assert len(before) <= 1, before
    # ...and the backlog is served too.
    for table in backlog:
        await wait_for(lambda table=table: first_move_ms(redis_client, table), what=f"table {table}")


async def test_a_turn_notice_lost_with_the_game_service_is_announced_again(
    redis_url, redis_client, group, tmp_path
) -> None:
    env = {"REDIS_URL": redis_url, "ROUNDHOUSE_SECRET": SECRET.decode(), "ROUNDHOUSE_LOG_LEVEL": "WARNING"}
    game = ServiceProcess("game", env, tmp_path).start()
    worker = None
    # No keep-alive: a connection to the process before a restart must not be reused.
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as http:
        try:
            async with http.post(f"{game.url}/api/tables", json={"title": "nim", "seed": 0, "seats": [
                    {"name": "h"}, {"name": "r", "kind": "bot", "level": "random"}]}) as resp:
                created = await resp.json()
            table, token = created["table"], created["seats"][0]["token"]
            game.stop()
            game.start(ROUNDHOUSE_FAILPOINT="crash_after_append")
            with pytest.raises(aiohttp.ClientError):
                await http.post(f"{game.url}/api/tables/{table}/actions", headers={"Authorization": f"Bearer {token}"},
                                json={"expected_seq": 0, "idempotency_key": "h0", "action": {"type": "take", "count": 1}})
            assert game.wait_exit() == EXIT_CODE
            # Appended, but no bot worker was ever told: the notice died with the service.
            assert await redis_client.xlen(keys.log_key(table)) == 1
            store = RedisEventStore(redis_client)
            for stream in store.turn_streams():
                told = [f for _, f in await redis_client.xrange(stream) if f[b"table"] == table.encode()]
                assert all(int(f[b"seq"]) == 0 for f in told), told
            assert await store.noted_turn(table) is not None
            game.start(ROUNDHOUSE_FAILPOINT=None)

            settings = settings_for(group, "sweeper", sweep_every_ms=100, sweep_after_ms=500)
            wredis = connect(redis_url, socket_timeout=30)
            worker = BotWorker(wredis, HttpSubmitter(game.url, SECRET), settings)
            await worker.start()
            await wait_for(lambda: _length_at_least(redis_client, table, 2), what="the bot's move")
            _result, entries = await replay(redis_url, table)
            assert (entries[1].seq, entries[1].seat, entries[1].key) == (2, 1, "bot-1-1")
            assert worker.stats.swept >= 1

            async def note_cleared() -> bool:
                # Cleared after the notice went out; another worker may have played it first.
                return await store.noted_turn(table) is None

            await wait_for(note_cleared, timeout=10, what="the note to be cleared")
        finally:
            if worker is not None:
                await worker.stop(grace_s=2.0)
                await worker.redis.aclose()
            game.stop()


async def _length_at_least(redis_client, table: str, n: int) -> bool:
    return await redis_client.xlen(keys.log_key(table)) >= n


async def test_a_redis_restart_is_one_warning_line_then_recovery(stack, group, tmp_path, caplog) -> None:
    # A Redis of the worker's own, restarted under it (the stack keeps the shared one).
    own = RedisServer(tmp_path / "redis").start()
    wredis = aioredis.from_url(own.url, socket_timeout=5, socket_connect_timeout=2)
    settings = settings_for(group, "restart", block_ms=200, claim_every_ms=100, sweep_every_ms=100)
    worker = BotWorker(wredis, HttpSubmitter(stack.url, SECRET), settings)
    await worker.start()
    try:
        with caplog.at_level(logging.WARNING, logger="roundhouse.bot"):
            own.stop()
            await wait_for(lambda: _logged(caplog, "failed"), timeout=20, what="the worker to notice")
            own.start()
            # Recovered: a notice published now is read and handled (a ghost table: acknowledged).
            store = RedisEventStore(aioredis.from_url(own.url))
            await store.publish_turn("ghost-table", 1, [0])

            async def handled() -> bool:
                return worker.stats.notices >= 1

            await wait_for(handled, timeout=30, what="the worker to recover")
            await store.redis.aclose()
        records = [r for r in caplog.records if r.name == "roundhouse.bot"]
        assert records and all(r.levelno == logging.WARNING and not r.exc_info for r in records), [
            (r.levelname, r.getMessage()) for r in records]
        assert all("\n" not in r.getMessage() for r in records)
    finally:
        await worker.stop(grace_s=2.0)
        await wredis.aclose()
        own.stop()


async def _logged(caplog, word: str) -> bool:
    return any(word in r.getMessage() for r in caplog.records)
