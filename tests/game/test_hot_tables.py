"""The in-memory table cache: bounded, caught up from the log, restored from snapshots that
are only a cache."""

from __future__ import annotations

from shared.store import keys

from services.game.app import GAME_KEY
from tests.redis_nodes import on_node_of


async def play(table, moves: int, seq: int = 0) -> int:
    detail = await table.detail()
    for _ in range(moves):
        seat = detail["active_seats"][0]
        status, body = await table.act(seat, {"type": "take", "count": 1}, seq)
        assert status == 201, body
        seq = body["seq"]
        detail = body
    return seq


async def test_cache_is_bounded_and_reloads_cold_tables(new_client, make_table):
    client = await new_client(hot_tables=2, snapshot_every=0)
    service = client.app[GAME_KEY].service
    tables = [await make_table(client, 2, options={"pile": 100}) for _ in range(3)]
    assert len(service.tables) == 2  # the first one was evicted
    seqs = [await play(t, 4) for t in tables]  # the evicted table is loaded again from its log
    assert seqs == [4, 4, 4]
    assert service.metrics.table_loads.value("log") >= 1 and len(service.tables) == 2
    for t in tables:
        assert (await t.detail())["last_seq"] == 4


async def test_replica_behind_reads_only_the_missing_entries(new_client, make_table, redis_client):
    first, second = await new_client(), await new_client()
    table = await make_table(first, 2, options={"pile": 100})
    twin = type(table)(second, table.created)
    await twin.detail()  # second replica loads the table at seq 0
    seq = await play(table, 6)  # all through the first replica
    hot = await second.app[GAME_KEY].service.tables.get(table.id)
    assert hot.seq == 0
    # Whatever the second replica folds next comes from reading the log after its seq.
    seat = (await table.detail())["active_seats"][0]
    node = await on_node_of(redis_client, keys.log_key(table.id))
    await redis_client.config_resetstat(**node)
    status, body = await twin.act(seat, {"type": "take", "count": 1}, seq)
    assert (status, body["seq"]) == (201, seq + 1)
    assert hot.seq == seq + 1 and second.app[GAME_KEY].service.metrics.table_loads.value("log") == 1
    stats = await redis_client.info("commandstats", **node)
    assert stats["cmdstat_xrange"]["calls"] == 1


async def test_snapshots_speed_cold_loads_and_deleting_them_changes_nothing(new_client, make_table):
    writer = await new_client(snapshot_every=5)
    table = await make_table(writer, 3, options={"pile": 200}, seed=2)
    seq = await play(table, 12)
    # Undo sits in the history the snapshot must carry.
    last = (await table.detail())["active_seats"][0]
    status, body = await table.act((last - 1) % 3, {"type": "undo"}, seq)
    assert status == 201
    seq = body["seq"]
    await writer.app[GAME_KEY].service.drain()
    store = writer.app[GAME_KEY].service.store
    assert (await store.load_snapshot(table.id))[0] == 10

    async def cold_view():
        reader = await new_client()
        twin = type(table)(reader, table.created)
        detail = await twin.detail()
        legal = await (await reader.get(f"/api/tables/{table.id}/legal", headers=twin.auth(detail["active_seats"][0]))).json()
        hot = await reader.app[GAME_KEY].service.tables.get(table.id)
        return reader, detail, legal, (hot.timeline.state, hot.timeline.effective, [(n.seq, s) for n, s in hot.timeline.redo])

    from_snap, detail_a, legal_a, timeline_a = await cold_view()
    assert from_snap.app[GAME_KEY].service.metrics.table_loads.value("snapshot") == 1
    assert await store.delete_snapshots() >= 1
    from_log, detail_b, legal_b, timeline_b = await cold_view()
    assert from_log.app[GAME_KEY].service.metrics.table_loads.value("log") == 1
    detail_a.pop("updated_ms"), detail_b.pop("updated_ms")
    assert (detail_a, legal_a, timeline_a) == (detail_b, legal_b, timeline_b)
    assert detail_a["last_seq"] == seq


async def test_unusable_snapshot_falls_back_to_the_log(new_client, make_table, redis_client):
    client = await new_client(snapshot_every=0)
    table = await make_table(client, 2, options={"pile": 50})
    seq = await play(table, 3)
    await redis_client.set(keys.snap_key(table.id), b"2:not msgpack at all")
    reader = await new_client()
    twin = type(table)(reader, table.created)
    assert (await twin.detail())["last_seq"] == seq
    assert reader.app[GAME_KEY].service.metrics.table_loads.value("log") == 1


async def test_other_tables_are_served_while_a_long_log_is_folded(new_client, make_table, monkeypatch):
    """A cold table of thousands of entries is folded in chunks that give the event loop back:
    another table's request is answered while that fold is still under way (ordering: the
    long fold is checked to be unfinished when the other answer arrives)."""
    import asyncio

    from shared.tables import fold as loader

    client = await new_client(hot_tables=1, snapshot_every=0)
    service = client.app[GAME_KEY].service
    store = service.store
    long = await make_table(client, 2, options={"pile": 30000, "max_take": 1}, seed=0)
    entries = 20000
    async with store.redis.pipeline(transaction=False) as pipe:  # straight into the stream
        for seq in range(1, entries + 1):
            pipe.xadd(keys.log_key(long.id), {"seat": (seq - 1) % 2, "action": b'{"type":"take","count":1}',
                                               "key": f"k{seq}", "t": 1}, id=f"{seq}-0")
        await pipe.execute()
    other = await make_table(client, 2, options={"pile": 50}, seed=0)  # evicts the long table
    assert service.tables.peek(long.id) is None

    folded = 0
    real_fold_entry = loader.fold_entry

    def counting(timeline, entry, table):
        nonlocal folded
        folded += 1
        return real_fold_entry(timeline, entry, table)

    monkeypatch.setattr(loader, "fold_entry", counting)
    loading = asyncio.ensure_future(service.tables.get(long.id))
    while folded == 0:
        await asyncio.sleep(0)
    resp = await client.get(f"/api/tables/{other.id}/legal", headers=other.auth(0))
    assert resp.status == 200 and (await resp.json())["active"]
    assert not loading.done() and folded < entries  # the long fold was still going on
    hot = await loading
    assert hot.seq == entries and folded == entries
