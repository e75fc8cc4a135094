"""Projection fan-out benchmark: append legal actions to many tables, watch them over many
sockets, print how long each update takes to reach every socket of its table.

    python3 -m services.projection.bench --tables 200 --sockets 1000 --rate 1000 --seconds 20

The projection runs as its own process (`roundhouse projection`), the appenders and the
sockets run here, Redis is an embedded redis-server (AOF, appendfsync always) unless
REDIS_URL is set. Latency = from just before the append call until the last socket of the
table has the update. Only loopback addresses are used. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import msgspec

from shared.auth import issue
from shared.engine import default_options, encode_action
from shared.games import get_engine
from shared.redis_server import RedisServer, free_port
from shared.store import RedisEventStore, SeatSpec, TableMeta
from shared.store.connect import connect
from shared.timeline import Timeline

REPO = Path(__file__).resolve().parents[2]


class _Seq(msgspec.Struct):
    type: str
    seq: int = 0


_decode_seq = msgspec.json.Decoder(_Seq)


class BenchTable:
    def __init__(self, store: RedisEventStore, title: str, players: int, seed: int) -> None:
        self.store = store
        self.engine = get_engine(title)
        self.table = "bench" + secrets.token_hex(5)
        self.seats = [f"P{i}" for i in range(players)]
        self.timeline = Timeline(self.engine, self.seats, default_options(self.engine), seed)
        self.seed = seed
        self.seq = 0
        self.sent_at: dict[int, float] = {}
        self.pending: dict[int, int] = {}  # seq -> sockets still to receive it
        self.latencies: list[float] = []
        self.sockets = 0
        self.over = False

    async def create(self) -> None:
        meta = TableMeta(
            table=self.table, title=self.engine.title, options=default_options(self.engine),
            seats=[SeatSpec(n) for n in self.seats], seed=self.seed, status="open", created_ms=int(time.time() * 1000),
        )
        await self.store.create_table(meta)

    async def step(self) -> None:
        state = self.timeline.state
        active = self.engine.active_seats(state)
        if not active or self.engine.result(state) is not None:
            self.over = True
            return
        seat = min(active)
        legal = self.engine.legal_actions(state, seat)
        action = legal[(self.seq * 7 + self.seed) % len(legal)].action
        self.timeline.push(seat, action)
        seq = self.seq + 1
        self.sent_at[seq] = time.perf_counter()
        self.pending[seq] = self.sockets
        out = await self.store.append(self.table, self.seq, seat, encode_action(action), secrets.token_hex(6), b"{}",
                                      int(time.time() * 1000))
        if out.status != "ok":
            raise RuntimeError(f"append failed: {out}")
        self.seq = seq

    def received(self, seq: int) -> None:
        left = self.pending.get(seq)
        if left is None:
            return
        if left <= 1:
            del self.pending[seq]
            self.latencies.append(time.perf_counter() - self.sent_at.pop(seq))
        else:
            self.pending[seq] = left - 1


async def watch(http: aiohttp.ClientSession, url: str, table: BenchTable, seat: int | None, secret: bytes,
                stop: asyncio.Event, stats: dict[str, int]) -> None:
    async with http.ws_connect(url, max_msg_size=0) as ws:
        hello: dict[str, Any] = {"type": "hello", "v": 1, "table": table.table}
        if seat is not None:
            hello["token"] = issue(secret, table.table, seat)
        await ws.send_json(hello)
        expected = None
        while not stop.is_set():
            msg = await ws.receive()
            if msg.type != aiohttp.WSMsgType.TEXT:
                stats["closed"] += 1
                return
            frame = _decode_seq.decode(msg.data)
            stats["bytes"] += len(msg.data)
            if frame.type == "welcome":
                expected = frame.seq + 1
                table.sockets += 1
            elif frame.type == "update":
                if frame.seq != expected:
                    stats["gaps"] += 1
                expected = frame.seq + 1
                stats["frames"] += 1
                table.received(frame.seq)


async def run(args: argparse.Namespace) -> None:
    redis_url = os.environ.get("REDIS_URL")
    server = None
    tmp = tempfile.TemporaryDirectory(prefix="rh-bench-")
    if not redis_url:
        server = RedisServer(Path(tmp.name) / "redis").start()
        redis_url = server.url
    secret = secrets.token_hex(16)
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "ROUNDHOUSE_SECRET": secret, "ROUNDHOUSE_WS_READER": args.reader,
           "PYTHONPATH": str(REPO)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "services.cli", "projection", "--host", "127.0.0.1", "--port", str(port),
        env=env, stdout=asyncio.subprocess.PIPE,
    )
    redis = connect(redis_url)
    try:
        assert proc.stdout is not None
        await asyncio.wait_for(proc.stdout.readline(), 30)
        store = RedisEventStore(redis)
        tables = [BenchTable(store, args.title, args.players, seed=i + 1) for i in range(args.tables)]
        for t in tables:
            await t.create()
        stop = asyncio.Event()
        stats = {"frames": 0, "bytes": 0, "gaps": 0, "closed": 0}
        url = f"http://127.0.0.1:{port}/ws"
        conn = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=conn) as http:
            watchers = []
            for i in range(args.sockets):
                table = tables[i % len(tables)]
                slot = (i // len(tables)) % (args.players + 1)
                seat = None if slot == args.players else slot
                watchers.append(asyncio.create_task(watch(http, url, table, seat, secret.encode(), stop, stats)))
            deadline = time.perf_counter() + 60
            while (ready := sum(t.sockets for t in tables)) < args.sockets:
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"only {ready} of {args.sockets} sockets got a welcome within 60 s")
                await asyncio.sleep(0.05)
            per_table = args.rate / len(tables)
            started = time.perf_counter()
            cpu0 = _proc_cpu(proc.pid)
            own0 = time.process_time()
            redis0 = _proc_cpu(server.process.pid) if server is not None and server.process else 0.0

            async def drive(t: BenchTable, offset: float) -> None:
                await asyncio.sleep(offset)
                n = 0
                while not stop.is_set() and not t.over:
                    await t.step()
                    n += 1
                    delay = started + offset + n / per_table - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)

            drivers = [asyncio.create_task(drive(t, i / args.rate)) for i, t in enumerate(tables)]
            await asyncio.sleep(args.seconds)
            stop.set()
            elapsed = time.perf_counter() - started
            cpu = _proc_cpu(proc.pid) - cpu0
            own = time.process_time() - own0
            redis_cpu = _proc_cpu(server.process.pid) - redis0 if server is not None and server.process else 0.0
            await asyncio.gather(*drivers, return_exceptions=True)
            await asyncio.sleep(0.5)
            for w in watchers:
                w.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
        lat = sorted(x for t in tables for x in t.latencies)
        actions = sum(t.seq for t in tables)
        print(f"reader={args.reader} title={args.title} tables={args.tables} sockets={args.sockets} "
              f"target={args.rate}/s seconds={elapsed:.1f}")
        print(f"actions appended: {actions} ({actions / elapsed:.0f}/s); games finished early: {sum(t.over for t in tables)}")
        print(f"frames received: {stats['frames']} ({stats['frames'] / elapsed:.0f}/s, "
              f"{stats['bytes'] / elapsed / 1e6:.1f} MB/s); gaps: {stats['gaps']}; sockets closed: {stats['closed']}")
        if lat:
            print(
                "submit -> all sockets updated: "
                f"p50 {_ms(lat, 0.50)} ms, p90 {_ms(lat, 0.90)} ms, p99 {_ms(lat, 0.99)} ms, "
                f"max {lat[-1] * 1000:.1f} ms, mean {statistics.fmean(lat) * 1000:.1f} ms "
                f"({len(lat)} updates complete, {sum(len(t.pending) for t in tables)} incomplete)"
            )
        print(
            f"CPU, % of one core: projection {cpu / elapsed * 100:.0f}, "
            f"load generator + sockets {own / elapsed * 100:.0f}, redis-server {redis_cpu / elapsed * 100:.0f}"
        )
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), 20)
        except TimeoutError:
            print("the projection did not stop within 20 s of SIGTERM; killed", file=sys.stderr)
            proc.kill()
            await proc.wait()
        await redis.aclose()
        if server is not None:
            server.stop()
        tmp.cleanup()


def _ms(sorted_values: list[float], q: float) -> str:
    return f"{sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))] * 1000:.1f}"


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--sockets", type=int, default=100)
    p.add_argument("--rate", type=float, default=100.0, help="actions per second over all tables")
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--title", default="chicago-express")
    p.add_argument("--reader", choices=("multi", "per_table"), default="multi")
    asyncio.run(run(p.parse_args(argv)))


if __name__ == "__main__":
    main()
