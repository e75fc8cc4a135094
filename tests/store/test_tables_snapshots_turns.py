"""Table meta and listing, snapshots (a cache), and the turn stream's consumer group."""

from __future__ import annotations

import asyncio

import pytest

from shared.store import STATUSES, RedisEventStore, SeatSpec, TableExists
from shared.store.connect import connect

from tests.waiting import blocked_stream_reads, until, until_blocked_in_read


async def test_create_and_get_meta_round_trip(store, make_meta):
    meta = make_meta(options={"players": 3, "nested": {"a": [1, 2]}})
    await store.create_table(meta)
    got = await store.get_meta(meta.table)
    assert (got.table, got.title, got.options, got.seats, got.seed, got.status, got.created_ms) == (
        meta.table, meta.title, meta.options, meta.seats, meta.seed, meta.status, meta.created_ms,
    )
    assert got.seats[1] == SeatSpec("Bot", "bot", "easy")
    assert got.last_seq == 0


async def test_create_twice_is_refused_and_keeps_the_first(store, make_meta):
    meta = make_meta()
    await store.create_table(meta)
    with pytest.raises(TableExists):
        await store.create_table(make_meta(table=meta.table, title="other"))
    assert (await store.get_meta(meta.table)).title == meta.title


async def test_unknown_and_malformed_table_ids(store, make_meta):
    assert await store.get_meta("never-made") is None
    assert await store.get_meta("bad.id{x}") is None
    with pytest.raises(ValueError):
        await store.create_table(make_meta(table="has.dot"))


async def test_list_tables_newest_first_with_paging_and_status(redis_client, make_meta):
    store = RedisEventStore(redis_client)
    for shard in range(store.layout.shards):  # one listing per shard on a cluster: merged here
        await redis_client.delete(store.layout.tables(shard), *(store.layout.status(shard, s) for s in STATUSES))
    made = []
    for i in range(7):
        meta = make_meta(created_ms=1000 + i, status="finished" if i % 2 else "open")
        await store.create_table(meta)
        made.append(meta.table)
    newest_first = made[::-1]
    page, nxt = await store.list_tables(limit=3)
    assert [t.table for t in page] == newest_first[:3] and nxt == 3
    page, nxt = await store.list_tables(limit=3, offset=nxt)
    assert [t.table for t in page] == newest_first[3:6] and nxt == 6
    page, nxt = await store.list_tables(limit=3, offset=nxt)
    assert [t.table for t in page] == newest_first[6:] and nxt is None
    finished, nxt = await store.list_tables(limit=10, status="finished")
    assert [t.table for t in finished] == [t for i, t in reversed(list(enumerate(made))) if i % 2]
    assert nxt is None
    first_two, nxt = await store.list_tables(limit=2, status="open")
    assert nxt is not None
    rest, end = await store.list_tables(limit=10, offset=nxt, status="open")
    assert [t.table for t in first_two + rest] == [t for i, t in reversed(list(enumerate(made))) if not i % 2]
    assert end is None
    with pytest.raises(ValueError):
        await store.list_tables(status="paused")


async def test_snapshots_save_load_and_delete(store, make_meta):
    metas = [make_meta() for _ in range(3)]
    for m in metas:
        await store.create_table(m)
    await store.save_snapshot(metas[0].table, 40, b"\x00state:with:colons\xff")
    await store.save_snapshot(metas[1].table, 7, b"")
    assert await store.load_snapshot(metas[0].table) == (40, b"\x00state:with:colons\xff")
    assert await store.load_snapshot(metas[1].table) == (7, b"")
    assert await store.load_snapshot(metas[2].table) is None
    assert await store.delete_snapshots() >= 2
    assert [await store.load_snapshot(m.table) for m in metas] == [None, None, None]
    # Only snapshots go: meta survives.
    assert (await store.get_meta(metas[0].table)).table == metas[0].table


async def test_turns_are_delivered_once_per_group_and_reclaimed_after_a_crash(redis_client):
    # One shard: the order of delivery across tables is the one stream's (with several shards
    # it holds per shard only).
    store = RedisEventStore(redis_client, shards=1)
    await redis_client.delete(*store.turn_streams())  # people's and bot-only tables' streams
    await store.ensure_turn_group("bots")
    await store.ensure_turn_group("bots")  # idempotent
    await store.publish_turn("tA", 3, [2, 0])
    await store.publish_turn("tB", 9, [1])

    first = await store.read_turns("bots", "worker-1", count=1)
    second = await store.read_turns("bots", "worker-2", count=10)
    assert [(n.table, n.seq, n.seats) for n in first] == [("tA", 3, [0, 2])]
    assert [(n.table, n.seq, n.seats) for n in second] == [("tB", 9, [1])]
    assert await store.read_turns("bots", "worker-2", count=10, block_ms=20) == []

    # worker-1 crashed before acking; after the idle time another worker takes its turn over.
    assert await store.ack_turns("bots", second[0].id, stream=second[0].stream) == 1
    assert await store.claim_stale_turns("bots", "worker-3", min_idle_ms=60_000) == []
    # Taken over once it has been idle for 20 ms (and not before, as the 60 s case showed).
    claimed = await until(lambda: store.claim_stale_turns("bots", "worker-3", min_idle_ms=20),
                          "worker-1's turn to be idle for 20 ms")
    assert [(n.id, n.table) for n in claimed] == [(first[0].id, "tA")]
    assert await store.ack_turns("bots", claimed[0].id, stream=claimed[0].stream) == 1
    assert await store.claim_stale_turns("bots", "worker-4", min_idle_ms=0) == []
    assert await store.ack_turns("bots") == 0


async def test_read_turns_blocks_until_published(redis_client):
    # One shard: the order of delivery across tables is the one stream's (with several shards
    # it holds per shard only).
    store = RedisEventStore(redis_client, shards=1)
    await redis_client.delete(*store.turn_streams())  # people's and bot-only tables' streams
    await store.ensure_turn_group("g")
    before = await blocked_stream_reads(redis_client)
    waiter = asyncio.create_task(store.read_turns("g", "w", block_ms=5000))
    await until_blocked_in_read(redis_client, before, "read_turns to block in Redis")
    assert not waiter.done()
    await store.publish_turn("tC", 1, [0])
    got = await asyncio.wait_for(waiter, 2)
    assert [(n.table, n.seq) for n in got] == [("tC", 1)]


def test_store_refuses_a_decoding_client(redis_url):

    with pytest.raises(ValueError):
        RedisEventStore(connect(redis_url, decode_responses=True))


async def test_a_table_of_older_rules_is_marked_not_folded(store, make_meta) -> None:
    """A log made under other rules could fold into a different game without any entry being
    refused: the loader refuses it whole and marks the table, losing nothing."""
    from shared.tables import LogBroken, open_table

    meta = make_meta(title="nim", options={}, seats=[SeatSpec("a"), SeatSpec("b")], rules_version="0")
    await store.create_table(meta)
    await store.append(meta.table, 0, 0, b'{"type":"take","count":1}', "k1", b"{}", 1)
    with pytest.raises(LogBroken) as err:
        await open_table(store, meta.table)
    assert err.value.code == "table_needs_attention" and "rules version 0" in err.value.message
    note = await store.get_attention(meta.table)
    assert note is not None and (note.seq, note.code) == (0, "rules_changed")
    assert [e.seq for e in await store.read(meta.table, 0)] == [1]  # the log is kept


async def test_an_entry_the_rules_refuse_marks_the_table_with_its_seq(store, make_meta) -> None:
    from shared.tables import LogBroken, open_table

    meta = make_meta(title="nim", options={}, seats=[SeatSpec("a"), SeatSpec("b")], seed=0)  # seat 0 starts
    await store.create_table(meta)
    await store.append(meta.table, 0, 0, b'{"type":"take","count":1}', "k1", b"{}", 1)
    await store.append(meta.table, 1, 1, b'{"type":"take","count":99}', "k2", b"{}", 1)
    with pytest.raises(LogBroken) as err:
        await open_table(store, meta.table)
    assert err.value.seq == 2 and err.value.error.code == "bad_amount"
    note = await store.get_attention(meta.table)
    assert note is not None and (note.seq, note.code) == (2, "bad_amount")
