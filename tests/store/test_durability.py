"""Acknowledged means durable: with AOF `appendfsync always`, every append that returned ok
is still there after redis-server is killed with SIGKILL and restarted on the same files."""

from __future__ import annotations

import redis.asyncio as aioredis

from shared.redis_server import RedisServer
from shared.store import RedisEventStore


async def test_acknowledged_appends_survive_kill_9(tmp_path, make_meta):
    server = RedisServer(tmp_path / "redis").start()
    try:
        client = aioredis.from_url(server.url)
        store = RedisEventStore(client)
        meta = make_meta()
        await store.create_table(meta)
        for seq in range(25):
            out = await store.append(meta.table, seq, seq % 3, b'{"type":"pass"}', f"k{seq}", b"reply%d" % seq, seq)
            assert out.status == "ok"
        await client.aclose()
        server.kill()
        server.start()
        client = aioredis.from_url(server.url)
        store = RedisEventStore(client)
        assert [e.seq for e in await store.read(meta.table, 0)] == list(range(1, 26))
        stored = await store.get_meta(meta.table)
        assert stored is not None and stored.last_seq == 25
        assert await store.idem_reply(meta.table, 24 % 3, "k24") == b"reply24"
        assert (await store.append(meta.table, 25, 0, b"{}", "k24", b"x", 99)).status == "duplicate"
        assert (await store.append(meta.table, 25, 0, b"{}", "k25", b"x", 99)).seq == 26
        await client.aclose()
    finally:
        server.stop()
