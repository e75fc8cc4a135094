"""Redis goes away under the projection and comes back: sockets stay open, readiness says
503 meanwhile, the feeds catch up once Redis is back, and shutdown is never held up."""

from __future__ import annotations

import time

import msgspec
import pytest
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from shared.redis_server import RedisServer
from shared.store import RedisEventStore

from tests.waiting import until

from .conftest import projection_of
from .support import TableDriver
from .test_feed import check_update, hello, recv


@pytest.mark.parametrize("reader", ["multi", "per_table"])
async def test_feed_recovers_after_redis_restarts(tmp_path, start_app, cfg, engine, reader):
    server = RedisServer(tmp_path / "redis").start()
    redis = aioredis.from_url(server.url)
    try:
        driver = await TableDriver(RedisEventStore(redis), engine.inner).create()
        client = await start_app(cfg=msgspec.structs.replace(cfg, redis_url=server.url), reader=reader)
        ws = await hello(client, driver.table, seat=0)
        await recv(ws)
        await driver.play(1)
        check_update(await recv(ws), driver, 1, 0)

        server.kill()
        # The reader fails and backs off; readiness reports it.
        metrics = projection_of(client).metrics
        await until(lambda: metrics.counts["reader_errors_total"] > 0, "the reader to fail")
        assert (await client.get("/live/ready")).status == 503
        server.start()  # same port, same AOF: the log is intact
        await redis.connection_pool.disconnect()
        await driver.play(2)
        check_update(await recv(ws), driver, 2, 0)
        check_update(await recv(ws), driver, 3, 0)
        assert (await client.get("/live/ready")).status == 200

        server.kill()
        started = time.monotonic()
        await client.close()  # shutdown with Redis gone and readers in backoff
        assert time.monotonic() - started < 5
    finally:
        await redis.aclose()
        server.stop()


async def test_blocked_reads_outlast_the_block_time(client, settings):
    # redis-py's default socket timeout (5 s) equals the default block time; it would cut
    # every idle blocked read short and log it as a failure.
    proj = projection_of(client)
    tail = proj.tail_redis
    assert tail is not None, "started"
    kwargs = tail.connection_kwargs if isinstance(tail, RedisCluster) else tail.connection_pool.connection_kwargs
    assert kwargs["socket_timeout"] > settings.block_ms / 1000
