"""Append latency and server CPU: one Redis vs a local Redis Cluster, replica acknowledgement off/on.

    nice python3 -m benchmarks.store_cluster_bench --tables 50 --actions 40 --concurrency 50

Starts, on this machine, one redis-server with one replica and a 3-master cluster with one
replica each (both `appendfsync always`), then for each of (single, cluster) x (WAIT off,
WAIT 1 replica) appends `--actions` actions to each of `--tables` tables through
`RedisEventStore.append`, `--concurrency` tables at a time, and prints one JSON line per case:
actions/s, per-append latency p50/p99 in ms, and the CPU seconds the redis-servers used per
1,000 actions. All processes share the machine, so compare cases of one run only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.redis_cluster import LocalCluster  # noqa: E402
from shared.redis_server import RedisServer  # noqa: E402
from shared.store import RedisEventStore, SeatSpec, TableMeta  # noqa: E402
from shared.store.connect import connect  # noqa: E402


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime + stime
    return total / ticks


async def run_case(url: str, pids: list[int], replica_ack: int, args: argparse.Namespace) -> dict[str, object]:
    client = connect(url)
    store = RedisEventStore(client, replica_ack=replica_ack, replica_ack_ms=5000)
    tables = []
    for _ in range(args.tables):
        table = "b" + secrets.token_hex(6)
        await store.create_table(TableMeta(table=table, title="nim", options={}, seats=[SeatSpec("a")],
                                           seed=0, status="running", created_ms=1))
        tables.append(table)
    latencies: list[float] = []
    gate = asyncio.Semaphore(args.concurrency)

    async def play(table: str) -> None:
        async with gate:
            for i in range(args.actions):
                started = time.perf_counter()
                out = await store.append(table, i, 0, b'{"type":"take","count":1}', f"k{i}", b"{}", 1000 + i)
                latencies.append(time.perf_counter() - started)
                assert out.status == "ok", out

    cpu_before, started = cpu_seconds(pids), time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    elapsed, cpu = time.perf_counter() - started, cpu_seconds(pids) - cpu_before
    await client.aclose()
    latencies.sort()
    n = len(latencies)
    return {
        "actions": n,
        "actions_per_s": round(n / elapsed),
        "p50_ms": round(statistics.median(latencies) * 1000, 2),
        "p99_ms": round(latencies[min(n - 1, int(n * 0.99))] * 1000, 2),
        "redis_cpu_s_per_1000": round(cpu / n * 1000, 3),
    }


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        primary = RedisServer(Path(tmp) / "primary").start()
        replica = RedisServer(Path(tmp) / "replica", extra_args=("--replicaof", "127.0.0.1", str(primary.port))).start()
        cluster = LocalCluster(Path(tmp) / "cluster", masters=3, replicas=1).start()
        try:
            single_pids = [primary.process.pid, replica.process.pid]  # type: ignore[union-attr]
            cluster_pids = [s.process.pid for s in cluster.servers]  # type: ignore[union-attr]
            for backend, url, pids in (("single", primary.url, single_pids), ("cluster-3x1", cluster.url, cluster_pids)):
                for ack in (0, 1):
                    figures = await run_case(url, pids, ack, args)
                    print(json.dumps({"backend": backend, "wait_replicas": ack, **figures}), flush=True)
        finally:
            cluster.stop()
            replica.stop()
            primary.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables (default: %(default)s)")
    parser.add_argument("--actions", type=int, default=40, help="actions per table (default: %(default)s)")
    parser.add_argument("--concurrency", type=int, default=50, help="tables appended to at once (default: %(default)s)")
    asyncio.run(main(parser.parse_args()))
