"""Listing by status reads that status's index: a page costs a page, whatever the number of
tables (the figures are in benchmarks/list_bench.py; here: what is read, not how long)."""

from __future__ import annotations

import secrets

from shared.store import RedisEventStore, SeatSpec, TableMeta, keys

from .conftest import create

TAKE = {"type": "take", "count": 1}


def meta(status: str, created_ms: int) -> TableMeta:
    return TableMeta(table="ix" + secrets.token_hex(6), title="nim", options={}, seats=[SeatSpec("a"), SeatSpec("b")],
                     seed=0, status=status, created_ms=created_ms)


async def hmget_calls(redis_client) -> int:
    stats = await redis_client.info("commandstats")
    return int(stats.get("cmdstat_hmget", {}).get("calls", 0))


async def test_a_status_page_reads_only_that_page_whatever_the_table_count(redis_client):
    store = RedisEventStore(redis_client)
    for i in range(400):
        await store.create_table(meta("open", 1_500_000_000_000 + i))  # in the past: later tests list theirs first
    finished = meta("finished", 1_000_000_000_000)  # the oldest of all: last in a full scan
    await store.create_table(finished)
    before = await hmget_calls(redis_client)
    page, _next = await store.list_tables(limit=1, status="finished")
    # The only finished table of this test may have older finished neighbours from other
    # tests in the shared Redis; what matters is that one page read one row.
    assert page and all(t.status == "finished" for t in page)
    assert await hmget_calls(redis_client) - before == 1


async def test_status_changes_move_tables_between_indexes(client, redis_client):
    created = await create(client, 2, options={"pile": 2})
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    assert await redis_client.zscore(keys.status_key("open"), table) is not None

    async def listed(status: str) -> list[str]:
        resp = await client.get("/api/tables", params={"status": status, "limit": "200"})
        return [t["table"] for t in (await resp.json())["tables"]]

    resp = await client.post(f"/api/tables/{table}/actions", headers={"Authorization": f"Bearer {tokens[0]}"},
                             json={"expected_seq": 0, "idempotency_key": "a", "action": TAKE})
    assert resp.status == 201
    assert table in await listed("running") and table not in await listed("open")
    resp = await client.post(f"/api/tables/{table}/actions", headers={"Authorization": f"Bearer {tokens[1]}"},
                             json={"expected_seq": 1, "idempotency_key": "b", "action": TAKE})
    assert (await resp.json())["status"] == "finished"
    assert table in await listed("finished") and table not in await listed("running")
    for status in ("open", "running"):
        assert await redis_client.zscore(keys.status_key(status), table) is None


async def test_an_index_left_stale_by_a_crash_is_repaired_by_the_listing(redis_client):
    store = RedisEventStore(redis_client)
    stale = meta("open", 3_000_000_000_000)
    await store.create_table(stale)
    # The append set the meta's status, and the process died before moving the index entry.
    await redis_client.hset(keys.meta_key(stale.table), "status", "running")
    newer = meta("open", 3_000_000_000_001)
    await store.create_table(newer)
    page, nxt = await store.list_tables(limit=2, status="open")
    assert stale.table not in [t.table for t in page] and page[0].table == newer.table
    assert await redis_client.zscore(keys.status_key("open"), stale.table) is None
    assert await redis_client.zscore(keys.status_key("running"), stale.table) is not None
    running, _ = await store.list_tables(limit=1, status="running")
    assert running[0].table == stale.table


async def test_tables_from_before_the_index_are_indexed_once(redis_client):
    store = RedisEventStore(redis_client)
    old = [meta("finished", 4_000_000_000_000 + i) for i in range(3)]
    for m in old:
        await store.create_table(m)
        # As stored by a version without the index: only in rh:tables.
        await redis_client.zrem(keys.status_key("finished"), m.table)
    await redis_client.delete(keys.STATUS_INDEX_BUILT)
    indexed = await store.build_status_index(page=2)
    assert indexed >= 3
    page, _ = await store.list_tables(limit=3, status="finished")
    assert [t.table for t in page] == [m.table for m in reversed(old)]
    assert await store.build_status_index() == 0  # built: later starts skip it
