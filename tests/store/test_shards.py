"""The global keys split into shards (ROUNDHOUSE_REDIS_SHARDS; 16 by default on a cluster): the
listing merges them, the turn streams are read across them, the announce notes are swept
over all of them. Runs on a single Redis too (shards do not need a cluster)."""

from __future__ import annotations

import asyncio

from shared.store import STATUSES, RedisEventStore, keys

from tests.waiting import blocked_stream_reads, until_blocked_in_read

SHARDS = 4


async def sharded(redis_client) -> RedisEventStore:
    store = RedisEventStore(redis_client, shards=SHARDS)
    for shard in range(SHARDS):
        await redis_client.delete(store.layout.tables(shard), store.layout.announce(shard), *store.layout.turn_streams(),
                                  *(store.layout.status(shard, s) for s in STATUSES))
    return store


def test_layout_names_and_shard_choice():
    one, tagged, four = keys.Layout(), keys.Layout(tagged=True), keys.Layout(4)
    assert (one.tables(0), one.turns(0), one.announce(0)) == (keys.TABLES, keys.TURNS, keys.ANNOUNCE)
    assert tagged.turns(0, keys.TURNS_BOTS) == "rh:{shard:0}:turns:bots"
    assert {four.shard_of(f"t{i}") for i in range(100)} == {0, 1, 2, 3}
    assert four.shard_of("abc") == four.shard_of("abc")  # stable: every process agrees
    assert four.kind_of_stream(four.turns(2, keys.TURNS_BOTS)) == keys.TURNS_BOTS


async def test_listing_merges_the_shards_newest_first_with_paging(redis_client, make_meta):
    store = await sharded(redis_client)
    made = []
    for i in range(11):
        meta = make_meta(created_ms=5000 + i, status="finished" if i % 3 == 0 else "open")
        await store.create_table(meta)
        made.append(meta)
    assert len({store.layout.shard_of(m.table) for m in made}) > 1
    newest = [m.table for m in reversed(made)]
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        page, offset = await store.list_tables(limit=4, offset=offset)
        seen += [t.table for t in page]
    assert seen == newest
    finished, end = await store.list_tables(limit=10, status="finished")
    assert [t.table for t in finished] == [m.table for m in reversed(made) if m.status == "finished"] and end is None
    # A stale index entry (the process died between append and index update) is moved, not shown.
    stale = made[1]
    await redis_client.hset(keys.meta_key(stale.table), "status", "running")
    opened, _ = await store.list_tables(limit=10, status="open")
    assert stale.table not in [t.table for t in opened]
    assert stale.table in [t.table for t in (await store.list_tables(limit=10, status="running"))[0]]


async def test_turns_across_shards_each_once_and_a_blocked_read_wakes(redis_client):
    store = await sharded(redis_client)
    await store.ensure_turn_group("g")
    tables = [f"s{i}" for i in range(8)]
    assert len({store.layout.shard_of(t) for t in tables}) > 1
    for i, table in enumerate(tables):
        await store.publish_turn(table, i, [0], bots_only=i % 2 == 1)
    got = await store.read_turns("g", "w1", count=10)
    assert sorted(n.table for n in got) == tables
    assert [store.layout.kind_of_stream(n.stream) for n in got][:4] == [keys.TURNS] * 4  # people first
    for n in got:
        assert await store.ack_turns("g", n.id, stream=n.stream) == 1
    assert await store.read_turns("g", "w1", count=10) == []

    before = await blocked_stream_reads(redis_client)
    waiter = asyncio.create_task(store.read_turns("g", "w1", count=1, block_ms=5000))
    await until_blocked_in_read(redis_client, before, "the turn read to block")
    await store.publish_turn("late", 9, [1])
    woke = await asyncio.wait_for(waiter, 3)
    assert [(n.table, n.seq) for n in woke] == [("late", 9)]
    await store.close()


async def test_overdue_notes_are_found_over_every_shard(redis_client):
    store = await sharded(redis_client)
    for i in range(6):
        await store.expect_turn(f"n{i}", 100 + i)
    await store.expect_turn("fresh", 10_000)
    assert await store.overdue_turns(older_than_ms=1000) == [(f"n{i}", 100 + i) for i in range(6)]
    await store.turn_announced("n0", 100)
    assert await store.noted_turn("n0") is None and await store.noted_turn("n1") == 101
