"""The store's budget holds for the whole service, not one address: unstarted tables per
address and in all, a reserve of Redis memory kept for moves, a full Redis answered 507
`store_full`, no half-made table, and the expiry policy (docs/running.md#the-stores-budget)."""

from __future__ import annotations

import json
from typing import Any

import redis
import redis.asyncio as aioredis

from shared.config import Config, RateLimit
from shared.redis_server import RedisServer
from shared.store import keys

from tests.waiting import until

from .conftest import SECRET, assert_error, build
from .peers import peer

NIM2 = {"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "seed": 0}


async def _create(session, base: str, body: dict[str, Any] = NIM2) -> tuple[int, dict[str, Any]]:
    async with session.post(f"{base}/api/tables", json=body) as resp:
        return resp.status, await resp.json()


async def _take(session, base: str, created: dict[str, Any], seq: int, seat: int, count: int = 1) -> int:
    token = created["seats"][seat]["token"]
    async with session.post(f"{base}/api/tables/{created['table']}/actions",
                            json={"expected_seq": seq, "idempotency_key": f"k{seq}",
                                  "action": {"type": "take", "count": count}},
                            headers={"Authorization": f"Bearer {token}"}) as resp:
        await resp.read()
        return resp.status


async def _meta_keys(client: aioredis.Redis) -> list[bytes]:
    return [k async for k in client.scan_iter(match="rh:{*}:meta")]


async def test_unstarted_tables_are_capped_per_address_and_a_start_frees_a_place(guarded, redis_client):
    for n in (2, 3):
        await redis_client.delete(keys.pending_key(f"127.0.0.{n}"))
    host, port = await guarded(max_open_tables_per_client=3)
    base = f"http://{host}:{port}"
    async with peer(2) as a, peer(3) as b:
        made = [await _create(a, base) for _ in range(3)]
        assert all(status == 201 for status, _ in made)
        status, body = await _create(a, base)
        assert_error(status, body, 429, "too_many_open_tables")
        # Another address has its own budget.
        assert (await _create(b, base))[0] == 201
        # A table where a move was played is no longer unstarted: its place is free again.
        assert await _take(a, base, made[0][1], 0, 0) == 201
        assert (await _create(a, base))[0] == 201
        status, body = await _create(a, base)
        assert_error(status, body, 429, "too_many_open_tables")


async def test_unstarted_tables_are_capped_for_the_whole_store(guarded, redis_client):
    # Other tests' unstarted tables are not this test's.
    await redis_client.delete(keys.PENDING, *[k async for k in redis_client.scan_iter(match="rh:{pending}*")])
    host, port = await guarded(max_open_tables=4, max_open_tables_per_client=2)
    base = f"http://{host}:{port}"
    statuses = []
    for n in range(2, 7):
        async with peer(n) as session:
            statuses.append((await _create(session, base))[0])
    assert statuses == [201, 201, 201, 201, 507]
    async with peer(7) as session:
        status, body = await _create(session, base)
    assert_error(status, body, 507, "store_full")


async def test_creations_from_all_addresses_share_one_rate(guarded):
    host, port = await guarded(limit_create_all=RateLimit(0.01, 3))
    base = f"http://{host}:{port}"
    statuses = []
    for n in range(2, 6):
        async with peer(n) as session:
            status, body = await _create(session, base)
            statuses.append(status)
    assert statuses == [201, 201, 201, 503]
    assert_error(status, body, 503, "tables_busy")


BOT_SEAT = {"name": "r1", "kind": "bot", "level": "random"}
BOTS2: dict[str, Any] = {"title": "nim", "seats": [BOT_SEAT, {**BOT_SEAT, "name": "r2"}], "seed": 0}


async def _hand_over(session, base: str, created: dict[str, Any], seat: int) -> tuple[int, dict[str, Any]]:
    async with session.post(f"{base}/api/tables/{created['table']}/seats/{seat}/controller",
                            json={"kind": "bot", "level": "random"},
                            headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"}) as resp:
        return resp.status, await resp.json()


async def test_tables_made_bot_only_from_all_addresses_share_one_rate(guarded, redis_client):
    # Twenty addresses at the per-address burst made 400 bot-only tables in seconds.
    host, port = await guarded(limit_bot_tables_all=RateLimit(0.01, 3))
    base = f"http://{host}:{port}"
    async with peer(2) as a, peer(3) as b, peer(4) as c, peer(5) as d:
        assert (await _create(a, base, BOTS2))[0] == 201
        assert (await _create(b, base, BOTS2))[0] == 201
        status, people = await _create(c, base)
        assert status == 201
        assert (await _hand_over(c, base, people, 0))[0] == 200  # a person still sits at seat 1
        assert (await _hand_over(c, base, people, 1))[0] == 200  # the third bot-only table
        status, body = await _create(d, base, BOTS2)
        assert_error(status, body, 503, "bot_tables_busy")
        # The side door is the same door: a handover that would make a fourth is refused too,
        # and changes nothing.
        status, people = await _create(d, base)
        assert status == 201
        assert (await _hand_over(d, base, people, 0))[0] == 200
        status, body = await _hand_over(d, base, people, 1)
        assert_error(status, body, 503, "bot_tables_busy")
        seats = json.loads(await redis_client.hget(keys.meta_key(people["table"]), "seats"))
        assert [s["kind"] for s in seats] == ["bot", "human"]
        # A table with a person at it draws nothing from this rate.
        mixed = {**BOTS2, "seats": [{"name": "h"}, BOT_SEAT]}
        assert (await _create(d, base, mixed))[0] == 201


async def test_near_its_cap_redis_keeps_room_for_moves_and_refuses_new_tables(aiohttp_client, tmp_path):
    own = RedisServer(tmp_path / "redis").start()
    admin = aioredis.from_url(own.url)
    try:
        cfg = Config(redis_url=own.url, secret=SECRET, store_reserve=0.1)
        first = await aiohttp_client(build(cfg))
        resp = await first.post("/api/tables", json=NIM2)
        created = await resp.json()
        token = created["seats"][0]["token"]
        client = await aiohttp_client(build(cfg))  # its own reading of Redis's memory
        assert (await client.get("/api/ready")).status == 200  # its connection is open
        used = int((await admin.info("memory"))["used_memory"])
        await admin.config_set("maxmemory", str(int(used / 0.93)))  # above 90 % used, below 100 %
        resp = await client.post("/api/tables", json=NIM2)
        assert_error(resp.status, await resp.json(), 507, "store_full")
        assert await admin.zcard(keys.TABLES) == 1
        # The table already playing keeps going.
        resp = await client.post(f"/api/tables/{created['table']}/actions", headers={"Authorization": f"Bearer {token}"},
                                 json={"expected_seq": 0, "idempotency_key": "m", "action": {"type": "take", "count": 1}})
        assert resp.status == 201, await resp.json()
    finally:
        await admin.aclose()
        own.stop()


async def test_a_full_redis_refuses_a_table_with_507_and_writes_nothing(aiohttp_client, tmp_path):
    own = RedisServer(tmp_path / "redis").start()
    admin = aioredis.from_url(own.url)
    try:
        await admin.config_set("maxmemory", "1")
        client = await aiohttp_client(build(Config(redis_url=own.url, secret=SECRET, store_reserve=0.0)))
        resp = await client.post("/api/tables", json=NIM2)
        assert_error(resp.status, await resp.json(), 507, "store_full")
        assert await admin.zcard(keys.TABLES) == 0 and await _meta_keys(admin) == []
        assert await admin.zcard(keys.PENDING) == 0
    finally:
        await admin.aclose()
        own.stop()


async def test_a_creation_that_fails_half_way_leaves_no_table(aiohttp_client, tmp_path):
    """The last write of a creation (the bot's turn note) is refused: the meta, the listing
    and the budget's place written before it are taken back."""
    own = RedisServer(tmp_path / "redis").start()
    admin = redis.Redis.from_url(own.url)
    try:
        # A user that may write everything a creation writes except rh:announce.
        admin.execute_command("ACL", "SETUSER", "svc", "on", ">pw", "+@all", "~rh:{*", "~rh:tables*",
                              "~rh:turns*")
        url = own.url.replace("redis://", "redis://svc:pw@", 1)
        client = await aiohttp_client(build(Config(redis_url=url, secret=SECRET)))
        bot_first = {"title": "nim", "seats": [{"name": "r", "kind": "bot", "level": "random"}, {"name": "h"}],
                     "seed": 0}  # nim: seed % seats starts
        resp = await client.post("/api/tables", json=bot_first)
        assert resp.status == 503, await resp.json()
        assert admin.zcard(keys.TABLES) == 0 and admin.zcard(keys.status_key("open")) == 0
        assert list(admin.scan_iter(match="rh:{*}:meta")) == []
        assert admin.zcard(keys.PENDING) == 0 and admin.hlen(keys.PENDING_OWNERS) == 0
    finally:
        admin.close()
        own.stop()


async def test_tables_expire_by_the_policy(new_client, redis_client):
    day = 24 * 3600.0
    client = await new_client(table_open_ttl=0.3, table_idle_ttl=7 * day, table_finished_ttl=30 * day)
    # An unstarted table expires, and listings drop it.
    resp = await client.post("/api/tables", json=NIM2)
    unstarted = (await resp.json())["table"]
    ttl = await redis_client.pttl(keys.meta_key(unstarted))
    assert 0 < ttl <= 300
    async def expired() -> bool:
        return await redis_client.exists(keys.meta_key(unstarted)) == 0

    await until(expired, "the unstarted table to expire")
    listed = await (await client.get("/api/tables?status=open&limit=200")).json()
    assert unstarted not in {t["table"] for t in listed["tables"]}
    assert await redis_client.zscore(keys.TABLES, unstarted) is None
    # A started one is kept for the idle time after each move; a finished one for its own time.
    resp = await client.post("/api/tables", json={**NIM2, "options": {"pile": 2, "max_take": 1}})
    created = await resp.json()
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    for seq in range(2):
        resp = await client.post(f"/api/tables/{table}/actions", headers={"Authorization": f"Bearer {tokens[seq]}"},
                                 json={"expected_seq": seq, "idempotency_key": f"t{seq}",
                                       "action": {"type": "take", "count": 1}})
        body = await resp.json()
        assert resp.status == 201, body
        want = (30 if seq == 1 else 7) * day * 1000
        for key in (keys.meta_key(table), keys.log_key(table)):
            assert want - 60_000 < await redis_client.pttl(key) <= want, (seq, key)
    assert body["status"] == "finished"
