"""Listing benchmark: `GET /api/tables?status=...&limit=...` as the table count grows.

    python3 -m benchmarks.list_bench --counts 1000,5000,20000

Fills a private redis-server with N tables (one in 50 finished, the rest open or running,
the finished ones the oldest: the worst case for a filtered scan), then times
`RedisEventStore.list_tables(limit=1, status="finished")` and `limit=50` through the status
index, and the same page found by the old way (scan the full listing newest first,
filtering every meta), for comparison. Prints one JSON line per N, then a summary line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis.asyncio as aioredis  # noqa: E402

from shared.redis_server import RedisServer  # noqa: E402
from shared.store import RedisEventStore, keys  # noqa: E402
from shared.store.events import _META_FIELDS, _summary  # noqa: E402


async def fill(store: RedisEventStore, redis: aioredis.Redis, have: int, want: int) -> None:
    """Tables up to `want`, written in pipelines (as create_table would, without its round trips)."""
    batch = 500
    for start in range(have, want, batch):
        async with redis.pipeline(transaction=False) as pipe:
            for i in range(start, min(want, start + batch)):
                status = "finished" if i % 50 == 0 else ("running" if i % 3 else "open")
                # Finished tables oldest: a scan newest-first reaches them last.
                created = (1 if status == "finished" else 2) * 10**12 + i
                table = "lb" + secrets.token_hex(6)
                pipe.hset(keys.meta_key(table), mapping={
                    "table": table, "title": "nim", "options": "{}", "seats": '[{"name":"a"},{"name":"b"}]',
                    "seed": "0", "status": status, "created_ms": str(created), "last_seq": "0",
                    "updated_ms": str(created), "rules_version": "1"})
                pipe.zadd(keys.TABLES, {table: created})
                pipe.zadd(keys.status_key(status), {table: created})
            await pipe.execute()


async def scan_listing(redis: aioredis.Redis, limit: int, status: str) -> int:
    """The listing before the index: pages of the full listing, every meta read and filtered."""
    found, offset, page = 0, 0, max(limit, 100)
    while found < limit:
        ids: list[bytes] = await redis.zrevrange(keys.TABLES, offset, offset + page - 1)  # type: ignore[assignment]
        if not ids:
            break
        async with redis.pipeline(transaction=False) as pipe:
            for table in ids:
                pipe.hmget(keys.meta_key(table.decode()), _META_FIELDS)
            rows = await pipe.execute()
        for row in rows:
            summary = _summary(row)
            if summary is not None and summary.status == status:
                found += 1
                if found == limit:
                    break
        offset += len(ids)
    return found


async def timed_ms(make, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        await make()
        samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 3)


async def run(counts: list[int], repeat: int) -> list[dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="rh-list-bench-") as tmp:
        server = RedisServer(Path(tmp) / "redis", fsync="no").start()
        redis = aioredis.from_url(server.url)
        store = RedisEventStore(redis)
        rows = []
        try:
            have = 0
            for n in counts:
                await fill(store, redis, have, n)
                have = n
                row = {
                    "tables": n,
                    "index_limit1_ms": await timed_ms(lambda: store.list_tables(limit=1, status="finished"), repeat),
                    "index_limit50_ms": await timed_ms(lambda: store.list_tables(limit=50, status="finished"), repeat),
                    "scan_limit1_ms": await timed_ms(lambda: scan_listing(redis, 1, "finished"), max(1, repeat // 10)),
                }
                print(json.dumps(row), flush=True)
                rows.append(row)
        finally:
            await redis.aclose()
            server.stop()
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--counts", default="1000,5000,20000", help="table counts, rising")
    p.add_argument("--repeat", type=int, default=50, help="timed listings per point (median)")
    args = p.parse_args()
    counts = sorted(int(c) for c in args.counts.split(","))
    rows = asyncio.run(run(counts, args.repeat))
    first, last = rows[0], rows[-1]
    print(json.dumps({
        "tables": [first["tables"], last["tables"]],
        "index_limit1_ms": [first["index_limit1_ms"], last["index_limit1_ms"]],
        "scan_limit1_ms": [first["scan_limit1_ms"], last["scan_limit1_ms"]],
    }))


if __name__ == "__main__":
    main()
