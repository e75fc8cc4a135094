"""Submit-path benchmark: N Chicago Express tables played at once over HTTP on loopback.

    python3 -m services.game.bench_submit --tables 200 --seconds 10 [--rate 1000]

Starts a redis-server (unless REDIS_URL) and `roundhouse game` in a subprocess, then one
client loop per table: pick a random legal action (the client folds its own copy of the
table, so it needs no extra request), submit it, repeat; a finished table is replaced by a
new one. Prints accepted actions/s and submit latency percentiles.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import msgspec

from shared.engine import default_options, encode_action
from shared.games import get_engine
from shared.redis_server import RedisServer, free_port
from shared.timeline import Timeline

ROOT = Path(__file__).resolve().parents[2]
TITLE = "chicago-express"


def pick(rng: random.Random, engine, state, seat: int):
    choice = rng.choice(engine.legal_actions(state, seat))
    if choice.range is None:
        return choice.action
    r = choice.range
    return msgspec.structs.replace(choice.action, **{r.field: rng.randrange(r.min, r.max + 1, r.step)})


async def play_tables(base: str, slot: int, stop_at: float, latencies: list[float], counts: dict[str, int],
                      interval: float) -> None:
    engine = get_engine(TITLE)
    rng = random.Random(slot)
    # Start the tables spread over one interval so a paced run is not 200 requests at once.
    await asyncio.sleep(rng.random() * interval)
    next_at = time.monotonic()
    async with aiohttp.ClientSession(base) as http:
        while time.monotonic() < stop_at:
            seed = rng.randrange(2**31)
            body = {"title": TITLE, "seats": [{"name": f"p{i}"} for i in range(4)], "seed": seed}
            async with http.post("/api/tables", json=body) as resp:
                created = await resp.json()
                if resp.status != 201:
                    raise RuntimeError(f"create table: {resp.status} {created}")
            table, tokens = created["table"], [s["token"] for s in created["seats"]]
            timeline = Timeline(engine, [f"p{i}" for i in range(4)], default_options(engine), seed)
            n = 0
            while engine.result(timeline.state) is None and time.monotonic() < stop_at:
                if interval:
                    next_at += interval
                    await asyncio.sleep(max(0.0, next_at - time.monotonic()))
                seat = min(engine.active_seats(timeline.state))
                action = pick(rng, engine, timeline.state, seat)
                payload = b'{"expected_seq":%d,"idempotency_key":"k%d","action":%s}' % (
                    timeline.length, n, encode_action(action))
                started = time.perf_counter()
                async with http.post(f"/api/tables/{table}/actions", data=payload, headers={
                    "Authorization": f"Bearer {tokens[seat]}", "Content-Type": "application/json"}) as resp:
                    await resp.read()
                    status = resp.status
                latencies.append(time.perf_counter() - started)
                counts[str(status)] = counts.get(str(status), 0) + 1
                if status != 201:
                    raise RuntimeError(f"table {table}: {status}")
                timeline.push(seat, action)
                n += 1


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_side(metrics: str, name: str) -> str:
    """Share of a service histogram's samples within 5, 10 and 50 ms."""
    buckets = {}
    for line in metrics.splitlines():
        if line.startswith(f"{name}_bucket"):
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            buckets[bound] = float(line.rsplit(" ", 1)[1])
    total = buckets.get("+Inf") or 1.0
    return "  ".join(
        f"<{float(b) * 1000:g}ms={n / total * 100:.1f}%" for b, n in buckets.items() if b in ("0.005", "0.01", "0.05"))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


async def run(args: argparse.Namespace) -> None:
    redis = None
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        redis = RedisServer(tempfile.mkdtemp(prefix="rh-bench-"), fsync=args.fsync).start()
        redis_url = redis.url
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "ROUNDHOUSE_SECRET": "bench-" + "0" * 32, "PYTHONPATH": str(ROOT)}
    profile = ["-m", "cProfile", "-o", os.environ["BENCH_PROFILE"]] if os.environ.get("BENCH_PROFILE") else []
    command = [sys.executable, *profile, "-m", "services.cli", "game", "--host", "127.0.0.1", "--port", str(port)]
    service = subprocess.Popen(command,
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert service.stdout is not None
        await asyncio.to_thread(service.stdout.readline)
        latencies: list[float] = []
        counts: dict[str, int] = {}
        start = time.monotonic()
        interval = args.tables / args.rate if args.rate else 0.0
        await asyncio.gather(*(play_tables(f"http://127.0.0.1:{port}", i, start + args.seconds, latencies, counts,
                                           interval) for i in range(args.tables)))
        elapsed = time.monotonic() - start
        print(f"tables={args.tables} rate={args.rate or 'max'}/s seconds={elapsed:.1f} "
              f"fsync={args.fsync if redis else 'external'}")
        print(f"accepted actions/s: {counts.get('201', 0) / elapsed:.0f}  (statuses {counts})")
        print("submit latency ms: " + "  ".join(
            f"p{p}={percentile(latencies, p) * 1000:.1f}" for p in (50, 90, 99, 99.9)))
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/api/metrics") as resp:
                text = await resp.text()
        print("in the service: submit " + server_side(text, "roundhouse_game_submit_seconds")
              + "; append " + server_side(text, "roundhouse_game_append_seconds"))
        cpu = {"game": cpu_seconds(service.pid), "load generator": cpu_seconds(os.getpid())}
        if redis is not None and redis.process is not None:
            cpu["redis"] = cpu_seconds(redis.process.pid)
        print("cpu % of one core: " + "  ".join(f"{k}={v / elapsed * 100:.0f}" for k, v in cpu.items()))
    finally:
        service.terminate()
        service.wait(10)
        if redis is not None:
            redis.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--rate", type=float, default=0, help="target actions/s over all tables (0: as fast as possible)")
    p.add_argument("--fsync", default="always", choices=("always", "everysec", "no"))
    asyncio.run(run(p.parse_args()))


if __name__ == "__main__":
    main()
