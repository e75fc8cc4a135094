"""Abuse benchmark: what one greedy client costs another player, with and without the limits.

    python3 -m benchmarks.abuse_bench --seconds 5

Starts a private redis-server (AOF; appendfsync everysec by default, see --fsync) and
`roundhouse game` twice: once with the per-client limits off, once with the defaults
(docs/running.md#security). In each, a player submits actions at one Nim table back to back
(measuring each submit), first alone, then while a second client (another address, told
apart through ROUNDHOUSE_CLIENT_IP_HEADER) that ignores Retry-After creates tables as fast
as `--abusers` connections allow. Prints one JSON line per (limits, phase) with the
player's submit p50/p99 in ms, the greedy client's tables created per second and its 429s;
then a summary line (pairs: [alone, with the greedy client]).
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

import aiohttp  # noqa: E402

from services.bench.procs import ServiceProcess  # noqa: E402
from shared.redis_server import RedisServer  # noqa: E402

TITLE_MODULES = "tests.titles.nim"
NIM = {"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "options": {"piles": 9, "pile": 100_000, "max_take": 1}}


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else 0.0


async def player(http: aiohttp.ClientSession, url: str, stop: asyncio.Event) -> list[float]:
    """One table, two seats taking one counter in turn; the latency of every submit, ms."""
    async with http.post(f"{url}/api/tables", json=NIM, headers={"X-Client": "player"}) as resp:
        created = await resp.json()
    table, tokens = created["table"], [s["token"] for s in created["seats"]]
    seat, seq, samples = created["active_seats"][0], 0, []
    while not stop.is_set():
        body = {"expected_seq": seq, "idempotency_key": secrets.token_hex(8), "action": {"type": "take", "count": 1}}
        started = time.perf_counter()
        async with http.post(f"{url}/api/tables/{table}/actions", json=body,
                             headers={"Authorization": f"Bearer {tokens[seat]}", "X-Client": "player"}) as resp:
            reply = await resp.json()
        samples.append((time.perf_counter() - started) * 1000)
        if resp.status != 201:
            raise RuntimeError(f"the player was refused: {resp.status} {reply}")
        seq, seat = reply["seq"], reply["active_seats"][0]
    return samples


async def greedy(http: aiohttp.ClientSession, url: str, stop: asyncio.Event, counts: dict[int, int]) -> None:
    while not stop.is_set():
        async with http.post(f"{url}/api/tables", json=NIM, headers={"X-Client": "greedy"}) as resp:
            await resp.read()
            counts[resp.status] = counts.get(resp.status, 0) + 1


async def phase(url: str, seconds: float, abusers: int) -> dict[str, float]:
    stop = asyncio.Event()
    counts: dict[int, int] = {}
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        play = asyncio.create_task(player(http, url, stop))
        hogs = [asyncio.create_task(greedy(http, url, stop, counts)) for _ in range(abusers)]
        await asyncio.sleep(seconds)
        stop.set()
        samples = await play
        await asyncio.gather(*hogs)
    return {
        "submits": len(samples),
        "p50_ms": pct(samples, 0.5), "p99_ms": pct(samples, 0.99), "mean_ms": round(statistics.fmean(samples), 2),
        "greedy_tables_per_s": round(counts.get(201, 0) / seconds, 1),
        "greedy_429_per_s": round(counts.get(429, 0) / seconds, 1),
    }


async def run(seconds: float, abusers: int, fsync: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="rh-abuse-bench-") as tmp:
        server = RedisServer(Path(tmp) / "redis", fsync=fsync).start()
        try:
            for limits in ("off", "default"):
                env = {"REDIS_URL": server.url, "ROUNDHOUSE_SECRET": secrets.token_hex(32),
                       "ROUNDHOUSE_CLIENT_IP_HEADER": "X-Client", "ROUNDHOUSE_TITLE_MODULES": TITLE_MODULES}
                if limits == "off":
                    env.update(ROUNDHOUSE_LIMIT_CREATE="off", ROUNDHOUSE_LIMIT_ACTIONS="off")
                game = ServiceProcess("game", env, Path(tmp)).start()
                try:
                    await phase(game.url, 3.0, 0)  # warm-up, not reported
                    for name, hogs in (("alone", 0), ("with_greedy_client", abusers)):
                        row = {"limits": limits, "phase": name, **await phase(game.url, seconds, hogs)}
                        print(json.dumps(row), flush=True)
                        rows.append(row)
                finally:
                    game.stop()
        finally:
            server.stop()
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="length of each phase")
    p.add_argument("--abusers", type=int, default=16, help="connections the greedy client creates tables on")
    p.add_argument("--fsync", default="everysec", choices=("always", "everysec", "no"),
                   help="Redis appendfsync (everysec: the disk's fsync jitter, shared with other work, "
                        "would drown what is measured here: CPU taken from the player)")
    args = p.parse_args()
    rows = asyncio.run(run(args.seconds, args.abusers, args.fsync))
    by = {(r["limits"], r["phase"]): r for r in rows}
    # Each pair: [alone, with the greedy client].
    print(json.dumps({f"limits_{lim}_{key}": [by[(lim, "alone")][key], by[(lim, "with_greedy_client")][key]]
                      for lim in ("off", "default") for key in ("p50_ms", "p99_ms")} | {
        "greedy_tables_per_s": {lim: by[(lim, "with_greedy_client")]["greedy_tables_per_s"] for lim in ("off", "default")},
    }))


if __name__ == "__main__":
    main()
