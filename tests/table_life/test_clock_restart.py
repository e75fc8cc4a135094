"""Table clocks across kill -9 and restarts of the game service, with two replicas watching
the same clocks: the clock is computed from what Redis holds, so a deadline that passes
while no service runs is dealt with when one comes back, and exactly once however many
replicas look (the real `roundhouse game` processes; time moved by the test)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import redis.asyncio as aioredis

from shared.store import RedisEventStore, keys
from shared.store.connect import connect

from services.bench.procs import ServiceProcess
from tests.e2e.stack import SERVICE_ENV, GameClient, new_key
from tests.redis_replies import stream_entries
from tests.table_life.clocks import TestTime
from tests.waiting import until

HOUR_MS = 3600_000


@pytest.fixture
def clock_time(tmp_path: Path) -> TestTime:
    return TestTime(tmp_path / "now")


@pytest.fixture
def games(redis_url: str, tmp_path: Path, clock_time: TestTime) -> Iterator[list[ServiceProcess]]:
    env = {**SERVICE_ENV, "REDIS_URL": redis_url, "ROUNDHOUSE_CLOCK_POLL": "0.05", **clock_time.env}
    procs = [ServiceProcess("game", env, tmp_path, name=f"game-{i}") for i in range(2)]
    yield procs
    for proc in procs:
        proc.stop()


@pytest.fixture
async def http() -> Any:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
async def redis(redis_url: str) -> Any:
    client = connect(redis_url)
    yield client
    await client.aclose()


async def create(game: GameClient, clock: dict[str, Any]) -> dict[str, Any]:
    reply = await game.request("POST", "/api/tables", json={"title": "nim", "seed": 0, "clock": clock,
                                                             "seats": [{"name": "Ada"}, {"name": "Bo"}]})
    assert reply.status == 201, reply
    return reply.body


async def timeouts(redis: aioredis.Redis, table: str) -> list[tuple[bytes, bytes]]:
    return [(f[b"kind"], f[b"outcome"]) for _i, f in await stream_entries(redis, keys.clock_key(table))]


async def test_async_deadline_passes_while_the_service_is_down_and_ends_the_table_once(
        games, http, redis, clock_time):
    first, second = games
    first.start()
    game = GameClient(http, first.url)
    created = await create(game, {"kind": "async", "turn_hours": 2, "on_timeout": "abandon"})
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    clock_time.advance(HOUR_MS)
    reply = await game.submit(table, tokens[0], 0, {"type": "take", "count": 2}, new_key())
    assert reply.status == 201, reply
    first.kill()  # kill -9 mid-clock: Bo's two hours have begun
    clock_time.advance(2 * HOUR_MS + 1)  # ... and pass while no game service runs
    first.start()
    second.start()  # two replicas, both watching the clocks

    async def ended() -> dict[str, Any] | None:
        detail = await game.request("GET", f"/api/tables/{table}")
        return detail.body if detail.body["status"] == "finished" else None

    detail = await until(ended, "a game service to end the table after its restart", timeout=20)
    assert detail["result"]["reason"] == "abandoned: Bo ran out of time"
    # Once: a second look by either replica finds it done.
    other = GameClient(http, second.url)
    clock = (await other.request("GET", f"/api/tables/{table}/clock")).body
    assert clock["ended"] == detail["result"]
    assert await timeouts(redis, table) == [(b"timeout", b"abandon")]
    refused = await other.submit(table, tokens[1], 1, {"type": "take", "count": 1}, new_key())
    assert refused.status == 409 and refused.body["error"]["code"] == "table_ended"


async def test_realtime_bank_survives_kill_and_the_bot_takes_the_seat_once(games, http, redis, clock_time):
    first, second = games
    first.start()
    game = GameClient(http, first.url)
    created = await create(game, {"kind": "realtime", "bank_s": 300, "increment_s": 5, "bot_level": "random"})
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    clock_time.advance(100_000)
    assert (await game.submit(table, tokens[0], 0, {"type": "take", "count": 1}, new_key())).status == 201
    clock_time.advance(250_000)
    assert (await game.submit(table, tokens[1], 1, {"type": "take", "count": 1}, new_key())).status == 201
    first.kill()
    first.start()
    clock = (await game.request("GET", f"/api/tables/{table}/clock")).body
    # Ada: 300 - 100 + 5 = 205 s; Bo: 300 - 250 + 5 = 55 s; Ada's time runs again.
    assert [s["remaining_ms"] for s in clock["seats"]] == [205_000, 55_000]
    assert [s["running"] for s in clock["seats"]] == [True, False]
    first.kill()
    clock_time.advance(205_000)
    second.start()
    first.start()

    async def taken() -> dict[str, Any] | None:
        body = (await game.request("GET", f"/api/tables/{table}/clock")).body
        return body if body["seats"][0]["kind"] == "bot" else None

    clock = await until(taken, "a replica to hand Ada's seat to a bot", timeout=20)
    assert clock["seats"][0]["timed_out"] and clock["seats"][0]["level"] == "random"
    assert await timeouts(redis, table) == [(b"timeout", b"bot")]
    layout = RedisEventStore(redis).layout

    async def notices() -> list[bytes]:
        found = await stream_entries(redis, layout.turns(layout.shard_of(table)))
        return [f[b"seats"] for _i, f in found if f[b"table"].decode() == table]

    assert await until(notices, "the bot's turn to be announced") == [b"[0]"]


async def test_clock_and_outbox_survive_kill_9_of_redis(tmp_path: Path, http, clock_time):
    """Redis runs with AOF `appendfsync always`: killed right after a move and a notice's
    first failed delivery, it comes back with the clock's times and the outbox's record."""
    from shared.redis_server import RedisServer

    from tests.table_life.receivers import WebhookReceiver

    redis_dir = tmp_path / "redis"
    server = RedisServer(redis_dir).start()
    hook = await WebhookReceiver(fail_first=1).start()
    env = {**SERVICE_ENV, "REDIS_URL": server.url, "ROUNDHOUSE_CLOCK_POLL": "0.05", "ROUNDHOUSE_NOTIFY_POLL": "0.05",
           "ROUNDHOUSE_NOTIFY_PRIVATE_HOSTS": "1", "ROUNDHOUSE_NOTIFY_RETRY_BASE": "0.5",
           "ROUNDHOUSE_NOTIFY_LEASE": "1", **clock_time.env}  # a sender Redis cut off mid-way: its lease runs out soon
    proc = ServiceProcess("game", env, tmp_path, name="game-redis-kill")
    try:
        proc.start()
        game = GameClient(http, proc.url)
        created = await create(game, {"kind": "realtime", "bank_s": 60, "increment_s": 0, "on_timeout": "abandon"})
        table, tokens = created["table"], [s["token"] for s in created["seats"]]
        put = await game.request("PUT", f"/api/tables/{table}/seats/1/notify", token=tokens[1],
                                 json={"delay_s": 0, "webhook": {"url": hook.url}})
        assert put.status == 200, put
        clock_time.advance(20_000)
        assert (await game.submit(table, tokens[0], 0, {"type": "take", "count": 1}, new_key())).status == 201
        await until(lambda: hook.posts, "Bo's first delivery (answered 500)")
        server.kill()
        server = RedisServer(redis_dir, port=server.port).start()
        clock_time.advance(2_000)  # the notifier's retry and lease run on the same (test) clock
        await until(lambda: hook.delivered(), "Bo's notice retried after Redis came back", timeout=20)
        assert [p.headers["X-Roundhouse-Delivery"] for p in hook.posts] == [f"{table}:1:1"] * 2

        async def answered() -> dict[str, Any] | None:  # a 503 (a pooled connection Redis dropped) is retried
            reply = await game.request("GET", f"/api/tables/{table}/clock")
            return reply.body if reply.status == 200 else None

        clock = await until(answered, "the clock from the restarted Redis")
        assert clock["seats"][0]["remaining_ms"] == 40_000 and clock["seats"][1]["running"]
        clock_time.advance(58_000)

        async def ended() -> dict[str, Any] | None:
            reply = await game.request("GET", f"/api/tables/{table}")
            return reply.body if reply.status == 200 and reply.body["status"] == "finished" else None

        detail = await until(ended, "Bo's bank to run out", timeout=20)
        assert detail["result"]["reason"] == "abandoned: Bo ran out of time"
    finally:
        proc.stop()
        await hook.stop()
        server.stop()
