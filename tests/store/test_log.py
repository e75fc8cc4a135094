"""The append script and the read/tail API, against a real redis-server."""

from __future__ import annotations

import asyncio

import pytest

from shared.store import LoggedAction, RedisEventStore, UnknownTable, keys
from shared.store.connect import connect

from tests.redis_nodes import on_node_of
from tests.waiting import blocked_stream_reads, until_blocked_in_read


def action(n: int) -> bytes:
    return b'{"type":"bid","amount":%d}' % n


async def append_n(store: RedisEventStore, table: str, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        out = await store.append(table, i, i % 3, action(i), f"k{i}", b'{"seq":%d}' % (i + 1), 1000 + i)
        assert out.status == "ok" and out.seq == i + 1


async def test_append_then_read_in_order(store, table):
    assert await store.last_seq(table) == 0
    assert await store.read(table, 0) == []
    await append_n(store, table, 5)
    assert await store.last_seq(table) == 5
    got = await store.read(table, 0)
    assert got == [LoggedAction(i + 1, i % 3, action(i), f"k{i}", 1000 + i) for i in range(5)]
    assert [e.seq for e in await store.read(table, 3)] == [4, 5]
    assert [e.seq for e in await store.read(table, 1, count=2)] == [2, 3]
    assert await store.read(table, 5) == []
    ids = [entry_id for entry_id, _ in await store.redis.xrange(keys.log_key(table))]
    assert ids == [b"1-0", b"2-0", b"3-0", b"4-0", b"5-0"]
    meta = await store.get_meta(table)
    assert meta.last_seq == 5 and meta.updated_ms == 1004


async def test_conflict_returns_the_current_seq_and_appends_nothing(store, table):
    await append_n(store, table, 2)
    for stale in (0, 1, 3, 99):
        out = await store.append(table, stale, 0, action(7), f"s{stale}", b"r", 5)
        assert (out.status, out.seq, out.reply) == ("conflict", 2, None)
    assert await store.last_seq(table) == 2
    # A conflicting submit stores no idempotency record, so the client may retry the key.
    assert await store.idem_reply(table, 0, "s1") is None


async def test_same_idempotency_key_returns_the_first_reply_and_appends_nothing(store, table):
    first = await store.append(table, 0, 1, action(1), "once", b'{"seq":1,"first":true}', 10)
    assert first.status == "ok" and first.seq == 1
    for expected in (0, 1, 5):
        again = await store.append(table, expected, 1, action(2), "once", b"other", 11)
        assert (again.status, again.reply) == ("duplicate", b'{"seq":1,"first":true}')
    assert await store.last_seq(table) == 1
    assert await store.idem_reply(table, 1, "once") == b'{"seq":1,"first":true}'
    # Keys are per seat: another seat's same key is a new submit.
    other = await store.append(table, 1, 2, action(3), "once", b"two", 12)
    assert other.status == "ok" and other.seq == 2


async def test_idempotency_record_expires(redis_client, make_meta):
    store = RedisEventStore(redis_client, idem_ttl_ms=60_000)
    meta = make_meta()
    await store.create_table(meta)
    await store.append(meta.table, 0, 0, action(0), "ttl", b"r", 1)
    ttl = await redis_client.pttl(keys.idem_key(meta.table, 0, "ttl"))
    assert 0 < ttl <= 60_000


async def test_fifty_concurrent_appends_for_one_turn_exactly_one_wins(store, table):
    await append_n(store, table, 3)
    outs = await asyncio.gather(
        *(store.append(table, 3, i % 3, action(100 + i), f"race{i}", b"r%d" % i, 2000) for i in range(50))
    )
    winners = [o for o in outs if o.status == "ok"]
    assert len(winners) == 1 and winners[0].seq == 4
    assert all(o.status == "conflict" and o.seq == 4 for o in outs if o.status != "ok")
    entries = await store.read(table, 0)
    assert [e.seq for e in entries] == [1, 2, 3, 4]
    assert await store.redis.xlen(keys.log_key(table)) == 4


async def test_concurrent_appends_each_with_fresh_seq_leave_no_gap(store, table):
    """Writers that retry on conflict with the seq they were told: the log stays gapless."""

    async def writer(w: int) -> int:
        expected, done = 0, 0
        while done < 10:
            out = await store.append(table, expected, w, action(w), f"w{w}-{done}", b"r", 1)
            if out.status == "ok":
                done += 1
                expected = out.seq
            else:
                expected = out.seq
        return done

    assert await asyncio.gather(*(writer(w) for w in range(8))) == [10] * 8
    entries = await store.read(table, 0)
    assert [e.seq for e in entries] == list(range(1, 81))
    assert sorted(e.key for e in entries) == sorted(f"w{w}-{d}" for w in range(8) for d in range(10))


async def test_append_to_unknown_table_raises_and_writes_nothing(store):
    with pytest.raises(UnknownTable):
        await store.append("nope-never-created", 0, 0, action(0), "k", b"r", 1)
    assert await store.redis.exists(keys.log_key("nope-never-created")) == 0
    assert await store.redis.exists(keys.idem_key("nope-never-created", 0, "k")) == 0


async def test_status_is_updated_with_the_append(store, table):
    await store.append(table, 0, 0, action(0), "a", b"r", 1, status="running")
    assert (await store.get_meta(table)).status == "running"
    await store.append(table, 1, 0, action(1), "b", b"r", 2)
    assert (await store.get_meta(table)).status == "running"


async def test_tail_returns_waiting_entries_at_once(store, table):
    await append_n(store, table, 3)
    got = await store.tail(table, 1, block_ms=5000)
    assert [e.seq for e in got] == [2, 3]


async def test_tail_wakes_on_append(store, table, redis_client):
    await append_n(store, table, 1)
    before = await blocked_stream_reads(redis_client)
    waiter = asyncio.create_task(store.tail(table, 1, block_ms=5000))
    await until_blocked_in_read(redis_client, before, "the tail to block in Redis")
    assert not waiter.done()
    loop = asyncio.get_running_loop()
    started = loop.time()
    await store.append(table, 1, 0, action(9), "wake", b"r", 3)
    got = await asyncio.wait_for(waiter, 2)
    assert [(e.seq, e.action) for e in got] == [(2, action(9))]
    assert loop.time() - started < 1.0


async def test_tail_times_out_with_empty_list(store, table):
    assert await store.tail(table, 0, block_ms=50) == []


async def test_tail_rejects_block_forever(store, table):
    with pytest.raises(ValueError):
        await store.tail(table, 0, block_ms=0)


async def test_tail_many_reports_only_tables_with_news(store, make_meta, redis_client):
    tables = []
    for _ in range(3):
        meta = make_meta()
        await store.create_table(meta)
        tables.append(meta.table)
    a, b, c = tables
    await append_n(store, a, 2)
    await append_n(store, c, 1)
    got = await store.tail_many({a: 1, b: 0, c: 0}, block_ms=1000)
    assert {t: [e.seq for e in v] for t, v in got.items()} == {a: [2], c: [1]}
    before = await blocked_stream_reads(redis_client)
    waiter = asyncio.create_task(store.tail_many({a: 2, b: 0, c: 1}, block_ms=5000))
    await until_blocked_in_read(redis_client, before, "tail_many to block in Redis")
    assert not waiter.done()
    await append_n(store, b, 1)
    assert {t: [e.seq for e in v] for t, v in (await asyncio.wait_for(waiter, 2)).items()} == {b: [1]}


async def test_tail_tables_wakes_for_a_clock_event_too(store, make_meta, redis_client):
    """The projection's read: logs and clock streams in one XREAD; a clock event alone ends the wait."""
    a, b = make_meta(), make_meta()
    for meta in (a, b):
        await store.create_table(meta)
    await append_n(store, a.table, 1)
    got = await store.tail_tables({a.table: 0, b.table: 0}, {a.table: "0-0", b.table: "0-0"}, block_ms=1000)
    assert {t: [e.seq for e in v] for t, v in got.entries.items()} == {a.table: [1]} and got.clock == {}
    before = await blocked_stream_reads(redis_client)
    waiter = asyncio.create_task(store.tail_tables({a.table: 1, b.table: 0}, {b.table: "0-0"}, block_ms=5000))
    await until_blocked_in_read(redis_client, before, "tail_tables to block in Redis")
    assert not waiter.done()
    event_id = await redis_client.xadd(keys.clock_key(b.table), {"seq": 0, "seat": 1, "kind": "timeout", "t": 5,
                                                                 "outcome": "abandon"})
    got = await asyncio.wait_for(waiter, 2)
    assert got.entries == {}
    assert [(e.id, e.seq, e.seat, e.kind, e.t, e.outcome) for e in got.clock[b.table]] == [
        (event_id.decode(), 0, 1, "timeout", 5, "abandon")]


async def test_lua_is_loaded_once_then_run_by_sha(store, table, redis_client):
    # On a cluster: the counts of the node that holds the table.
    node = await on_node_of(redis_client, keys.log_key(table))
    await redis_client.execute_command("SCRIPT FLUSH", **node)
    await redis_client.config_resetstat(**node)
    await append_n(store, table, 10)
    stats = await redis_client.info("commandstats", **node)
    # The first EVALSHA meets NOSCRIPT, the script is loaded once, every later call is EVALSHA.
    loads = stats.get("cmdstat_script|load") or stats["cmdstat_script"]  # Redis 7 counts subcommands apart
    assert loads["calls"] == 1
    assert stats["cmdstat_evalsha"]["calls"] == 11
    assert "cmdstat_eval" not in stats


async def test_works_over_resp3(redis_url, make_meta):

    client = connect(redis_url, protocol=3)
    try:
        store = RedisEventStore(client)
        meta = make_meta()
        await store.create_table(meta)
        await append_n(store, meta.table, 2)
        assert [e.seq for e in await store.tail(meta.table, 0, block_ms=100)] == [1, 2]
        stored = await store.get_meta(meta.table)
        assert stored is not None and stored.last_seq == 2
        await store.ensure_turn_group("resp3")
        await store.publish_turn(meta.table, 2, [1])
        assert [(n.table, n.seats) for n in await store.read_turns("resp3", "w")] == [(meta.table, [1])]
    finally:
        await client.aclose()
