"""`roundhouse bench live`: load the whole stack on loopback and measure it.

Starts its own stack (unless --redis-url): an embedded redis-server (AOF, appendfsync
`--fsync`, default always), `--game-workers` game-service processes and
`--projection-workers` projection processes, each on its own loopback port; every table
lives on one game process and one projection process (table i on game i mod G and
projection i mod P), as a load balancer with table affinity would route it. Then it creates
`--tables` Chicago Express tables of `--players` seats, spreads `--sockets` WebSockets over
them (socket k watches table k mod T as seat k div T, or as a spectator once the seats are
taken) and hands the tables to `--load-workers` load-generator processes
(`services/bench/loadgen.py`), so the load generator does not share an event loop or a core
with the services.

Measured over `--seconds` after `--warmup`: accepted actions/s and the latency from sending
a submit until every socket of its table has that update. `--rate` paces the submits
(actions/s over all tables; 0 = as fast as turns allow). Prints progress, a CPU figure per
process, and last one JSON line: {"bench": {"tables", "sockets", "actions_per_s", "p50_ms",
"p95_ms", "p99_ms", "errors"}}. Loopback only; it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from shared.redis_cluster import LocalCluster
from shared.redis_server import RedisServer, _die_with_parent

from services.bench.messages import Outcome, Progress, Ready, TableSpec, WorkerConfig, decode_message, encode
from services.bench.procs import ROOT, ServiceProcess
from services.game.bench_submit import cpu_seconds

TITLE = "chicago-express"
CREATE_AT_ONCE = 20
STARTUP_TIMEOUT = 120.0  # seconds for every socket to be open and welcomed


class BenchError(Exception):
    """The bench could not run (bad arguments, a process that failed); one line for the user."""


def percentile(ordered: list[float], p: float) -> float:
    """Nearest-rank percentile of sorted values (NaN when there are none)."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


def check_args(args: argparse.Namespace) -> None:
    if args.tables < 1:
        raise BenchError("--tables must be at least 1")
    if args.sockets < 0:
        raise BenchError("--sockets must be 0 or more")
    if not 2 <= args.players <= 6:
        raise BenchError("--players must be 2..6 (Chicago Express)")
    if args.seconds <= 0 or args.warmup < 0 or args.rate < 0:
        raise BenchError("--seconds must be > 0, --warmup and --rate >= 0")
    if int(getattr(args, "redis_cluster", None) or 0) < 0:
        raise BenchError("--redis-cluster must be 0 (one redis-server) or a number of masters")
    for name in ("game_workers", "projection_workers", "load_workers"):
        if getattr(args, name) < 1:
            raise BenchError(f"--{name.replace('_', '-')} must be at least 1")


def socket_layout(tables: int, sockets: int, players: int) -> list[list[int | None]]:
    """Per table, the seat of each of its sockets (None = spectator): socket k watches table
    k mod T as seat k div T while there are seats left, then as a spectator."""
    layout: list[list[int | None]] = [[] for _ in range(tables)]
    for k in range(sockets):
        slot = k // tables
        layout[k % tables].append(slot if slot < players else None)
    return layout


class Stack:
    """Redis (unless given), game and projection processes, each on its own port."""

    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.redis: RedisServer | None = None
        self.cluster: LocalCluster | None = None
        self.redis_url = args.redis_url
        if not self.redis_url and int(getattr(args, "redis_cluster", None) or 0):
            self.cluster = LocalCluster(workdir / "redis-cluster", masters=args.redis_cluster, replicas=1, fsync=args.fsync)
            self.redis_url = self.cluster.url
        elif not self.redis_url:
            self.redis = RedisServer(workdir / "redis", fsync=args.fsync)
            self.redis_url = self.redis.url
        env = {
            "REDIS_URL": self.redis_url,
            "ROUNDHOUSE_SECRET": secrets.token_hex(16),
            "ROUNDHOUSE_LOG_LEVEL": "WARNING",
            # Every socket comes from loopback, --sockets of them, spectators among them: the
            # per-address read budget (socket opens) is off, as for a load balancer's address.
            "ROUNDHOUSE_MAX_WATCHERS_PER_CLIENT": str(max(args.sockets, 1)),
            "ROUNDHOUSE_LIMIT_READS": "off",
            "ROUNDHOUSE_LIMIT_CREATE_ALL": "off",  # --tables at once, from one address
        }
        self.games = [ServiceProcess("game", env, workdir) for _ in range(args.game_workers)]
        self.projections = [ServiceProcess("projection", env, workdir) for _ in range(args.projection_workers)]

    @property
    def services(self) -> list[ServiceProcess]:
        return [*self.games, *self.projections]

    def start(self) -> None:
        if self.redis is not None:
            self.redis.start()
        if self.cluster is not None:
            self.cluster.start()
        for service in self.services:
            service.start()

    def stop(self) -> None:
        for service in self.services:
            service.stop()
        if self.redis is not None:
            self.redis.stop()
        if self.cluster is not None:
            self.cluster.stop()

    def pids(self) -> dict[str, int]:
        out = {s.name: s.pid for s in self.services if s.alive()}
        if self.redis is not None and self.redis.process is not None:
            out["redis"] = self.redis.process.pid
        for i, node in enumerate(self.cluster.servers if self.cluster is not None else []):
            if node.process is not None:
                out[f"redis{i}"] = node.process.pid  # masters first, then their replicas
        return out


async def create_tables(stack: Stack, args: argparse.Namespace) -> list[TableSpec]:
    layout = socket_layout(args.tables, args.sockets, args.players)
    gate = asyncio.Semaphore(CREATE_AT_ONCE)
    seats = [{"name": f"P{i}"} for i in range(args.players)]

    async def create(http: aiohttp.ClientSession, i: int) -> TableSpec:
        game = stack.games[i % len(stack.games)]
        projection = stack.projections[i % len(stack.projections)]
        seed = args.seed * 1_000_003 + i
        async with gate, http.post(f"{game.url}/api/tables", json={"title": TITLE, "seats": seats, "seed": seed}) as resp:
            created = await resp.json()
            if resp.status != 201:
                raise BenchError(f"creating table {i}: HTTP {resp.status} {created}")
        return TableSpec(table=created["table"], seed=seed, tokens=[s["token"] for s in created["seats"]],
                         game_url=game.url, ws_url=projection.ws_url, sockets=layout[i])

    async with aiohttp.ClientSession() as http:
        return list(await asyncio.gather(*(create(http, i) for i in range(args.tables))))


class LoadWorker:
    """One load-generator process and what it has reported."""

    def __init__(self, index: int, config: WorkerConfig) -> None:
        self.index = index
        self.config = config
        self.proc: asyncio.subprocess.Process | None = None
        self.ready = asyncio.Event()
        self.accepted = 0
        self.outcome: Outcome | None = None
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "services.bench.loadgen",
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            preexec_fn=_die_with_parent,
            limit=1 << 28,  # the result line carries every latency
        )
        assert self.proc.stdin is not None
        self.proc.stdin.write(encode(self.config) + b"\n")
        await self.proc.stdin.drain()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for line in self.proc.stdout:
            message = decode_message(line)
            if isinstance(message, Ready):
                self.ready.set()
            elif isinstance(message, Progress):
                self.accepted = message.accepted
            elif isinstance(message, Outcome):
                self.outcome = message
        self.ready.set()  # ended: whoever waits for it must look at the outcome

    async def go(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(b"go\n")
        await self.proc.stdin.drain()

    async def finish(self, timeout: float) -> None:
        assert self.proc is not None and self.reader is not None
        try:
            await asyncio.wait_for(asyncio.shield(self.reader), timeout)
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            self.kill()

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()


def split_tables(specs: list[TableSpec], workers: int) -> list[list[TableSpec]]:
    return [specs[i::workers] for i in range(workers) if specs[i::workers]]


async def run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    stack = Stack(args, workdir)
    workers: list[LoadWorker] = []
    try:
        stack.start()
        fsync = args.fsync if stack.redis is not None or stack.cluster is not None else "external Redis"
        print(f"stack: redis ({fsync}) at {stack.redis_url}; game x{len(stack.games)} "
              f"{[g.port for g in stack.games]}; projection x{len(stack.projections)} "
              f"{[p.port for p in stack.projections]}", flush=True)
        specs = await create_tables(stack, args)
        interval = args.tables / args.rate if args.rate else 0.0
        for i, share in enumerate(split_tables(specs, args.load_workers)):
            workers.append(LoadWorker(i, WorkerConfig(title=TITLE, players=args.players, tables=share, interval=interval,
                                                      warmup=args.warmup, seconds=args.seconds, seed=args.seed + i)))
        for worker in workers:
            await worker.start()
        await asyncio.wait_for(asyncio.gather(*(w.ready.wait() for w in workers)), STARTUP_TIMEOUT)
        failed = [(w.index, w.proc.returncode) for w in workers if w.proc is not None and w.proc.returncode is not None]
        if failed:
            raise BenchError(f"load generator {failed[0][0]} exited with {failed[0][1]} before it was ready")
        print(f"{args.tables} tables, {args.sockets} sockets open; load generators x{len(workers)}; "
              f"rate {'as fast as turns allow' if not args.rate else f'{args.rate:g}/s'}; "
              f"warm-up {args.warmup:g}s, measuring {args.seconds:g}s", flush=True)
        for worker in workers:
            await worker.go()
        cpu = await measure(stack, workers, args)
        for worker in workers:
            await worker.finish(timeout=15.0)
    finally:
        for worker in workers:
            worker.kill()
        stack.stop()
    return summarize(args, workers, cpu)


async def measure(stack: Stack, workers: list[LoadWorker], args: argparse.Namespace) -> dict[str, float]:
    """Print progress each second; return each process's CPU use (% of one core) over the window."""
    pids = {**stack.pids(), **{f"loadgen-{w.index}": w.proc.pid for w in workers if w.proc is not None}}
    started = time.monotonic()
    before: dict[str, float] = {}
    window_start, window_end = started + args.warmup, started + args.warmup + args.seconds
    last = 0
    while time.monotonic() < window_end:
        await asyncio.sleep(min(1.0, max(0.01, window_end - time.monotonic())))
        now = time.monotonic()
        if not before and now >= window_start:
            before = {name: cpu_seconds(pid) for name, pid in pids.items()}
            began = now
        accepted = sum(w.accepted for w in workers)
        print(f"  {now - started:5.1f}s  accepted {accepted:7d}  (+{accepted - last})", flush=True)
        last = accepted
    elapsed = time.monotonic() - began if before else 0.0
    return {name: (cpu_seconds(pid) - before[name]) / elapsed * 100 for name, pid in pids.items()
            if name in before and elapsed > 0}


def summarize(args: argparse.Namespace, workers: list[LoadWorker], cpu: dict[str, float]) -> dict[str, Any]:
    outcomes = [w.outcome for w in workers if w.outcome is not None]
    errors = sum(o.errors for o in outcomes) + (len(workers) - len(outcomes))
    latencies = sorted(ms for o in outcomes for ms in o.latencies_ms)
    accepted = sum(o.accepted for o in outcomes)
    for o in outcomes:
        for sample in o.error_samples:
            print(f"  error: {sample}", flush=True)
    for w in workers:
        if w.outcome is None:
            print(f"  error: load generator {w.index} reported no result", flush=True)
    replaced = sum(o.tables_replaced for o in outcomes)
    print(f"accepted actions/s: {accepted / args.seconds:.1f}  ({accepted} in {args.seconds:g}s; "
          f"{replaced} finished tables replaced)")
    replies = sorted(ms for o in outcomes for ms in o.reply_ms)
    for label, values in (("submit -> every socket updated", latencies), ("submit -> HTTP reply", replies)):
        print(f"latency {label}, ms: " + "  ".join(
            f"p{p:g}={percentile(values, p):.1f}" for p in (50, 90, 95, 99, 99.9, 100)))
    print("cpu % of one core over the window: " + "  ".join(f"{k}={v:.0f}" for k, v in sorted(cpu.items())), flush=True)
    if accepted:
        # CPU per action does not depend on what else shares the machine; % of a core does.
        per_action = {k: v / 100 * args.seconds / accepted * 1000 for k, v in cpu.items()}
        print("cpu ms per accepted action: " + "  ".join(f"{k}={v:.3f}" for k, v in sorted(per_action.items()))
              + f"  total={sum(per_action.values()):.3f}", flush=True)
    return {"bench": {
        "tables": args.tables,
        "sockets": args.sockets,
        "actions_per_s": round(accepted / args.seconds, 1),
        "p50_ms": _ms(percentile(latencies, 50)),
        "p95_ms": _ms(percentile(latencies, 95)),
        "p99_ms": _ms(percentile(latencies, 99)),
        "errors": errors,
    }}


def _ms(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 2)


def main(args: argparse.Namespace) -> int:
    try:
        check_args(args)
        with tempfile.TemporaryDirectory(prefix="rh-bench-live-") as workdir:
            summary = asyncio.run(run(args, Path(workdir)))
    except BenchError as exc:
        print(f"roundhouse bench live: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("roundhouse bench live: interrupted", file=sys.stderr)
        return 130
    print(json.dumps(summary), flush=True)
    return 0
