"""The replica acknowledgement (ROUNDHOUSE_REDIS_WAIT_REPLICAS): an append is acknowledged only
once replicas hold it (WAIT), with a clear error when they do not in time; and a failover
(kill -9 of a master mid-play) then loses no acknowledged action and appends none twice."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest
import redis as redis_py
from redis.exceptions import RedisError

from shared.redis_cluster import LocalCluster
from shared.redis_server import RedisServer
from shared.store import RedisEventStore, ReplicaAckTimeout, keys
from shared.store.connect import connect

from tests.redis_nodes import on_node_of
from tests.waiting import until


async def connected_replicas(redis, table: str) -> int:
    info = await redis.info("replication", **await on_node_of(redis, keys.log_key(table)))
    return int(info["connected_slaves"])


async def test_too_few_replicas_is_a_clear_error_and_the_retry_waits_again(redis_client, make_meta):
    meta = make_meta()
    await RedisEventStore(redis_client).create_table(meta)
    wanted = await connected_replicas(redis_client, meta.table) + 1  # one more than there are
    store = RedisEventStore(redis_client, replica_ack=wanted, replica_ack_ms=50)
    with pytest.raises(ReplicaAckTimeout) as caught:
        await store.append(meta.table, 0, 0, b'{"type":"go"}', "k0", b"{}", 1000)
    assert f"seq 1 is on the master, but {wanted - 1} of {wanted} replica(s)" in str(caught.value)
    assert isinstance(caught.value, RedisError)  # the services answer 503 "retry with the same key"
    assert await store.last_seq(meta.table) == 1  # on the master: the retry must find it, not append again
    with pytest.raises(ReplicaAckTimeout, match="the earlier append with this key"):
        await store.append(meta.table, 0, 0, b'{"type":"go"}', "k0", b"{}", 1000)
    assert await store.last_seq(meta.table) == 1


async def test_an_acknowledged_append_is_on_the_replica(tmp_path: Path, make_meta):
    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica", extra_args=("--replicaof", "127.0.0.1", str(primary.port))).start()
    client, follower = connect(primary.url), redis_py.Redis(port=replica.port)
    try:
        await until(lambda: follower.info("replication")["master_link_status"] == "up", "the replica to link")
        store = RedisEventStore(client, replica_ack=1, replica_ack_ms=5000)
        meta = make_meta()
        await store.create_table(meta)
        for i in range(5):
            out = await store.append(meta.table, i, 0, b'{"i":%d}' % i, f"k{i}", b"{}", 1000 + i)
            assert out.status == "ok"
            # Acknowledged means the replica has it already: read there at once, no waiting.
            assert follower.xlen(keys.log_key(meta.table)) == i + 1
        assert (await store.append(meta.table, 0, 0, b'{"i":0}', "k0", b"{}", 1000)).status == "duplicate"
    finally:
        await client.aclose()
        follower.close()
        replica.stop()
        primary.stop()


async def test_a_master_killed_mid_play_loses_no_acknowledged_action(tmp_path: Path, make_meta):
    cluster = LocalCluster(tmp_path / "cluster", masters=3, replicas=1, node_timeout_ms=1000).start()
    client = connect(cluster.url)
    try:
        store = RedisEventStore(client, replica_ack=1, replica_ack_ms=2000)
        tables = [make_meta(table="f" + secrets.token_hex(5)) for _ in range(6)]
        for meta in tables:
            await store.create_table(meta)
        acked: dict[str, list[str]] = {m.table: [] for m in tables}
        victim = cluster.master_of_slot(_slot(keys.log_key(tables[0].table)))
        killed = asyncio.Event()

        async def play(table: str, actions: int) -> None:
            for i in range(actions):
                key = f"{table}-{i}"
                while True:  # a client's retry: the same idempotency key until acknowledged
                    try:
                        out = await store.append(table, i, 0, b'{"i":%d}' % i, key, b"{}", 1000 + i)
                    except (RedisError, OSError):
                        await asyncio.sleep(0.05)
                        continue
                    # "duplicate": an earlier try was applied (and kept) but its answer was lost.
                    assert out.status in ("ok", "duplicate"), out
                    break
                acked[table].append(key)
                if table == tables[0].table and i == 10:
                    cluster.servers[victim].kill()  # kill -9 mid-play
                    killed.set()

        async def bring_back() -> None:
            # The promoted replica has no replica of its own: its tables' appends wait (and
            # time out) until the old master is back, now as its replica.
            await killed.wait()
            await until(lambda: cluster.master_of_slot(slot) != victim, "the replica to be promoted", timeout=30)
            cluster.servers[victim].start()

        slot = _slot(keys.log_key(tables[0].table))
        await asyncio.wait_for(asyncio.gather(bring_back(), *(play(m.table, 30) for m in tables)), timeout=90)
        cluster.wait_ok()
        assert cluster.master_of_slot(slot) != victim
        for meta in tables:
            entries = await store.read(meta.table, 0)
            # Every acknowledged action is in the log, once, in order: nothing lost, nothing twice.
            assert [e.key for e in entries] == acked[meta.table]
            assert [e.seq for e in entries] == list(range(1, 31))
    finally:
        await client.aclose()
        cluster.stop()


def _slot(key: str) -> int:
    from redis.crc import key_slot

    return key_slot(key.encode())
