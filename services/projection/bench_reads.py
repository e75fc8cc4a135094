"""Client CPU of one stream read: a 1-key XREAD (per_table reader) against an N-key XREAD
(multi reader) when one table has news, and an N-key XREAD when all have.

    python3 -m services.projection.bench_reads --tables 200

Runs its own redis-server (no fsync; reads only) on loopback. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from shared.redis_server import RedisServer
from shared.store import RedisEventStore, SeatSpec, TableMeta


async def _measure(name: str, calls: int, read: Callable[[], Awaitable[Any]]) -> None:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(calls):
        await read()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"{name}: {cpu / calls * 1e6:.0f} us client CPU per call, {wall / calls * 1e6:.0f} us wall")


async def run(tables: int, calls: int) -> None:
    with tempfile.TemporaryDirectory(prefix="rh-reads-") as tmp:
        server = RedisServer(Path(tmp), fsync="no").start()
        redis = aioredis.from_url(server.url)
        try:
            store = RedisEventStore(redis)
            names = [f"t{i}" for i in range(tables)]
            for t in names:
                meta = TableMeta(table=t, title="none", options={}, seats=[SeatSpec("a")], seed=1, status="open", created_ms=1)
                await store.create_table(meta)
                await store.append(t, 0, 0, b'{"type":"pass"}', "k", b"", 1)
            one_new = {t: 1 for t in names} | {names[0]: 0}
            all_new = {t: 0 for t in names}
            await _measure("tail, 1 table with 1 new entry", calls, lambda: store.tail(names[0], 0, 1000))
            await _measure(f"tail_many, {tables} tables, 1 with 1 new entry", calls, lambda: store.tail_many(one_new, 1000))
            await _measure(
                f"tail_many, {tables} tables, each with 1 new entry", max(1, calls // 10), lambda: store.tail_many(all_new, 1000)
            )
        finally:
            await redis.aclose()
            server.stop()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--calls", type=int, default=2000)
    args = p.parse_args(argv)
    asyncio.run(run(args.tables, args.calls))


if __name__ == "__main__":
    main()
