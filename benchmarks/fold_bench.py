"""Long-game benchmark: what a table costs as its log grows (the contract's checkpoints and the
one loader), on a long synthetic game: the test title Nim with one big pile taken one by one.

    python3 -m benchmarks.fold_bench --actions 5000

Prints, as the last stdout line, JSON with:
- accept_us_at_10 / accept_us_at_N: mean cost of accepting one action (Timeline check +
  commit: the engine's apply and the decision tree) around action 10 and around action N;
- snapshot_encode_ms_at_N: encoding the table's snapshot at action N (done every
  `snapshot_every` actions by the game service, off the reply path);
- cold_load_ms_log / cold_load_ms_snapshot: opening the table through the one loader from a
  real redis-server, folding the whole log vs. from a snapshot at action N;
- undo_ms_to_1 / undo_ms_to_N_minus_5: undoing back to entry 1 and to entry N-5 at action N.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis.asyncio as aioredis  # noqa: E402

from shared.engine import Undo  # noqa: E402
from shared.games import register  # noqa: E402
from shared.redis_server import RedisServer  # noqa: E402
from shared.store import RedisEventStore, SeatSpec, TableMeta  # noqa: E402
from shared.tables import open_table  # noqa: E402
from shared.tables.snapshot import encode_timeline  # noqa: E402
from shared.timeline import Timeline  # noqa: E402

from tests.titles.nim import ENGINE as NIM  # noqa: E402
from tests.titles.nim import Take  # noqa: E402

SEATS = ["a", "b"]
WINDOW = 200  # actions timed around each point


def long_timeline(actions: int) -> tuple[Timeline[Any], list[float]]:
    """A Nim table played `actions` times; the cost of each accept in microseconds."""
    options = {"pile": actions + 10, "max_take": 1, "piles": 1, "undo": "any"}
    timeline = Timeline(NIM, SEATS, options, 0)
    costs = []
    clock = time.perf_counter
    for i in range(actions):
        started = clock()
        timeline.commit(timeline.check(i % 2, Take(1)))
        costs.append((clock() - started) * 1e6)
    return timeline, costs


def undo_ms(timeline: Timeline[Any], target: int, repeat: int = 20) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        timeline.check(0, Undo(action_id=target))  # what accepting the undo costs
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def cold_loads(timeline: Timeline[Any], actions: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(Path(tmp) / "redis").start()
        try:
            redis = aioredis.from_url(server.url)
            store = RedisEventStore(redis)
            meta = TableMeta(table="longgame", title=NIM.title, options=timeline.options,
                             seats=[SeatSpec(n) for n in SEATS], seed=0, status="running", created_ms=0,
                             rules_version=NIM.meta.rules_version)
            await store.create_table(meta)
            async with redis.pipeline(transaction=False) as pipe:
                for seq in range(1, actions + 1):
                    pipe.xadd(f"rh:{{{meta.table}}}:log", {"seat": (seq - 1) % 2, "action": b'{"type":"take","count":1}',
                                                          "key": f"k{seq}", "t": 0}, id=f"{seq}-0")
                await pipe.execute()
            out = {}
            for label in ("log", "snapshot"):
                if label == "snapshot":
                    await store.save_snapshot(meta.table, actions, encode_timeline(timeline))
                started = time.perf_counter()
                loaded = await open_table(store, meta.table)
                out[f"cold_load_ms_{label}"] = round((time.perf_counter() - started) * 1000, 1)
                assert loaded.source == label and loaded.timeline.length == actions
            await redis.aclose()
            return out
        finally:
            server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=5000, help="length of the synthetic game (default 5000)")
    args = parser.parse_args(argv)
    register(NIM)
    n = args.actions
    timeline, costs = long_timeline(n)
    started = time.perf_counter()
    blob = encode_timeline(timeline)
    encode_ms = (time.perf_counter() - started) * 1000
    figures: dict[str, Any] = {
        "actions": n,
        "accept_us_at_10": round(statistics.mean(costs[:WINDOW]), 2),
        f"accept_us_at_{n}": round(statistics.mean(costs[-WINDOW:]), 2),
        f"snapshot_encode_ms_at_{n}": round(encode_ms, 2),
        "snapshot_kib": round(len(blob) / 1024, 1),
        "undo_ms_to_1": round(undo_ms(timeline, 1), 3),
        f"undo_ms_to_{n - 5}": round(undo_ms(timeline, n - 5), 3),
    }
    figures.update(asyncio.run(cold_loads(timeline, n)))
    print(json.dumps({"fold_bench": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
