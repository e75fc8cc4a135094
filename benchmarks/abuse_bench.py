"""Abuse benchmark: what a flood costs a legitimate player, with the limits off and on.

    python3 -m benchmarks.abuse_bench --seconds 5

Starts a private redis-server (AOF; appendfsync everysec by default, see --fsync),
`roundhouse game` and `roundhouse projection` twice: once with the limits off, once with
the defaults (docs/running.md#security). In each, a player at 127.0.0.1 submits actions at
one Nim table back to back (measuring each submit): alone, then during a flood, for each
flood in turn, from other loopback addresses (127.0.0.2 ...) that ignore Retry-After:

- `tables`: `--abusers` connections spread over 20 addresses create tables as fast as they can;
- `started`: the same, each table started with one move (out of the unstarted budget);
- `bot_tables`: `--abusers` connections over 20 addresses create tables of people and hand
  every seat to a bot (the all-bot limit's side door);
- `listings`: 8 connections from one address list 200 tables at a time;
- `spectators`: 8 connections from one address open spectator WebSockets and hold them;
- `connections`: one address opens connections over its cap (64 here) as fast as it can.

Each flood runs in a process of its own, at a lower CPU priority (`--flood-nice`, default 10)
and, with `--pin`, on a core apart from the services: a real attacker's clients run on their
own machines, so on a 2-core box the flood's own client CPU must not be what delays the
player (in the player's own event loop, as it was, it was most of the delay). What the flood
got through is printed beside the player's figures, so a flood that was starved shows.

Prints one JSON line per (limits, flood) with the player's submit p50/p99 in ms during the
flood and alone just before it, and what the flood got through; then a summary line: per
flood, the player's p99 during it over its p99 alone just before (the acceptance: at most 2
with the defaults).
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
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402

from shared.redis_server import RedisServer  # noqa: E402

from services.bench.procs import ServiceProcess  # noqa: E402

TITLE_MODULES = "tests.titles.nim"
NIM = {"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "options": {"piles": 9, "pile": 100_000, "max_take": 1}}
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 22)]
CONNECTION_CAP = 64
FLOODS = ("tables", "started", "bot_tables", "listings", "spectators", "connections")
Counts = dict[str, int]
# Spectator sockets one flood holds open at most (the 4,000 were under the 4,096 cap).
MAX_HELD = 4000


class Target(NamedTuple):
    game: str  # http://host:port of `roundhouse game`
    ws: str  # ws://host:port/ws of `roundhouse projection`


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else 0.0


def session_from(address: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(address, 0)))


async def player(url: str, stop: asyncio.Event) -> list[float]:
    """One table, two seats taking one counter in turn; the latency of every submit, ms."""
    async with session_from("127.0.0.1") as http:
        async with http.post(f"{url}/api/tables", json=NIM) as resp:
            created = await resp.json()
        table, tokens = created["table"], [s["token"] for s in created["seats"]]
        seat, seq, samples = created["active_seats"][0], 0, []
        while not stop.is_set():
            body = {"expected_seq": seq, "idempotency_key": secrets.token_hex(8), "action": {"type": "take", "count": 1}}
            started = time.perf_counter()
            async with http.post(f"{url}/api/tables/{table}/actions", json=body,
                                 headers={"Authorization": f"Bearer {tokens[seat]}"}) as resp:
                reply = await resp.json()
            samples.append((time.perf_counter() - started) * 1000)
            if resp.status != 201:
                raise RuntimeError(f"the player was refused: {resp.status} {reply}")
            seq, seat = reply["seq"], reply["active_seats"][0]
    return samples


async def _count(counts: Counts, status: int | str) -> None:
    counts[str(status)] = counts.get(str(status), 0) + 1


async def _create(http: aiohttp.ClientSession, url: str, counts: Counts) -> dict[str, Any] | None:
    async with http.post(f"{url}/api/tables", json=NIM) as resp:
        body = await resp.json()
        await _count(counts, resp.status)
    return body if resp.status == 201 else None


async def _spread(abusers: int, one: Callable[[aiohttp.ClientSession], Coroutine[Any, Any, None]],
                  ready: asyncio.Event) -> None:
    ready.set()

    async def from_address(address: str) -> None:
        async with session_from(address) as http:
            await one(http)

    await asyncio.gather(*(from_address(ADDRESSES[i % len(ADDRESSES)]) for i in range(abusers)))


async def flood_tables(to: Target, stop: asyncio.Event, counts: Counts, abusers: int, ready: asyncio.Event) -> None:
    async def one(http: aiohttp.ClientSession) -> None:
        while not stop.is_set():
            await _create(http, to.game, counts)

    await _spread(abusers, one, ready)


async def flood_started(to: Target, stop: asyncio.Event, counts: Counts, abusers: int, ready: asyncio.Event) -> None:
    async def one(http: aiohttp.ClientSession) -> None:
        while not stop.is_set():
            created = await _create(http, to.game, counts)
            if created is None:
                continue
            seat = created["active_seats"][0]
            body = {"expected_seq": 0, "idempotency_key": "s", "action": {"type": "take", "count": 1}}
            async with http.post(f"{to.game}/api/tables/{created['table']}/actions", json=body,
                                 headers={"Authorization": f"Bearer {created['seats'][seat]['token']}"}) as resp:
                await resp.read()
                await _count(counts, f"move_{resp.status}")

    await _spread(abusers, one, ready)


async def flood_bot_tables(to: Target, stop: asyncio.Event, counts: Counts, abusers: int,
                           ready: asyncio.Event) -> None:
    async def one(http: aiohttp.ClientSession) -> None:
        while not stop.is_set():
            created = await _create(http, to.game, counts)
            for grant in created["seats"] if created else []:
                async with http.post(f"{to.game}/api/tables/{created['table']}/seats/{grant['seat']}/controller",  # type: ignore[index]
                                     json={"kind": "bot", "level": "random"},
                                     headers={"Authorization": f"Bearer {grant['token']}"}) as resp:
                    await resp.read()
                    await _count(counts, f"handover_{resp.status}")

    await _spread(abusers, one, ready)


async def flood_spectators(to: Target, stop: asyncio.Event, counts: Counts, _abusers: int,
                           ready: asyncio.Event) -> None:
    """Open spectator sockets on one table from one address, and hold them (up to MAX_HELD)."""
    held: list[aiohttp.ClientWebSocketResponse] = []
    async with session_from(ADDRESSES[0]) as http:
        created = await _create(http, to.game, {})
        assert created is not None
        hello = {"type": "hello", "v": 1, "table": created["table"]}
        ready.set()

        async def one() -> None:
            while not stop.is_set():
                if len(held) >= MAX_HELD:
                    await asyncio.sleep(0.05)
                    continue
                try:
                    ws = await http.ws_connect(to.ws)
                except aiohttp.WSServerHandshakeError as exc:
                    await _count(counts, exc.status)
                    continue
                except (aiohttp.ClientError, OSError):
                    await _count(counts, "error")
                    continue
                await ws.send_json(hello)
                try:
                    frame = await ws.receive_json(timeout=10)
                except (TimeoutError, aiohttp.ClientError, TypeError, ValueError):  # closed, or no JSON
                    frame = {"type": "closed"}
                await _count(counts, frame.get("code") or frame["type"])
                if frame["type"] == "welcome":
                    held.append(ws)
                else:
                    await ws.close()

        await asyncio.gather(*(one() for _ in range(8)))
        for ws in held:
            await ws.close()


async def flood_listings(to: Target, stop: asyncio.Event, counts: Counts, _abusers: int, ready: asyncio.Event) -> None:
    url = to.game
    ready.set()

    async def one(http: aiohttp.ClientSession) -> None:
        while not stop.is_set():
            async with http.get(f"{url}/api/tables?limit=200") as resp:
                await resp.read()
                await _count(counts, resp.status)

    async with session_from(ADDRESSES[0]) as http:
        await asyncio.gather(*(one(http) for _ in range(8)))


async def flood_connections(to: Target, stop: asyncio.Event, counts: Counts, _abusers: int,
                            ready: asyncio.Event) -> None:
    """Hold the cap's worth of connections open, then keep opening more (each refused)."""
    host, port = to.game.split("://", 1)[1].split(":")
    held = []
    for _ in range(CONNECTION_CAP):
        held.append(await asyncio.open_connection(host, int(port), local_addr=(ADDRESSES[0], 0)))
    ready.set()

    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, int(port), local_addr=(ADDRESSES[0], 0))
                line = await reader.readline()
                await _count(counts, line.split(b" ")[1].decode() if line else "closed")
                writer.close()
            except OSError:
                await _count(counts, "error")

    await asyncio.gather(*(one() for _ in range(8)))
    for _reader, writer in held:
        writer.close()


Flood = Callable[[Target, asyncio.Event, Counts, int, asyncio.Event], Coroutine[Any, Any, None]]
FLOOD: dict[str, Flood] = {
    "tables": flood_tables, "started": flood_started, "bot_tables": flood_bot_tables, "listings": flood_listings,
    "spectators": flood_spectators, "connections": flood_connections,
}


class Measured(TypedDict):
    submits: int
    p50_ms: float
    p99_ms: float
    mean_ms: float
    flood_per_s: dict[str, float]


class FloodOptions(NamedTuple):
    abusers: int
    nice: int  # added to the flood process's niceness
    pin: bool  # the flood on the last core, the services and the player on the others


async def phase(to: Target, seconds: float, flood: str | None, opts: FloodOptions) -> Measured:
    stop = asyncio.Event()
    counts: Counts = {}
    child = await _start_flood(to, flood, opts) if flood else None
    play = asyncio.create_task(player(to.game, stop))
    await asyncio.sleep(seconds)
    stop.set()
    samples = await play
    flood_s = seconds
    if child is not None:
        counts, flood_s = await _stop_flood(child)
    return {
        "submits": len(samples),
        "p50_ms": pct(samples, 0.5), "p99_ms": pct(samples, 0.99),
        "mean_ms": round(statistics.fmean(samples), 2) if samples else 0.0,
        "flood_per_s": {status: round(n / flood_s, 1) for status, n in sorted(counts.items())},
    }


async def _start_flood(to: Target, flood: str, opts: FloodOptions) -> asyncio.subprocess.Process:
    """The flood in its own process (see the module doc), once it says it is ready."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "benchmarks.abuse_bench", "--flood", flood, "--game", to.game, "--ws", to.ws,
        "--abusers", str(opts.abusers), "--flood-nice", str(opts.nice), *(["--pin"] if opts.pin else []),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).resolve().parents[1])
    assert child.stdout is not None
    if await child.stdout.readline() != b"ready\n":
        raise RuntimeError(f"the {flood} flood did not start")
    return child


async def _stop_flood(child: asyncio.subprocess.Process) -> tuple[Counts, float]:
    """Tell the flood to stop (its stdin closes); what it counted and for how long it ran."""
    assert child.stdin is not None and child.stdout is not None
    child.stdin.close()
    line = await child.stdout.readline()
    await child.wait()
    report = json.loads(line)
    return report["counts"], report["seconds"]


async def run_flood(flood: str, to: Target, abusers: int) -> None:
    """The flood child: flood until stdin closes, then print what it counted."""
    stop = asyncio.Event()
    counts: Counts = {}
    ready = asyncio.Event()
    loop = asyncio.get_running_loop()
    task = asyncio.create_task(FLOOD[flood](to, stop, counts, abusers, ready))
    waiter = asyncio.create_task(ready.wait())
    await asyncio.wait([task, waiter], return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        task.result()  # raises what stopped it before it was ready
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    started = time.perf_counter()
    loop.add_reader(sys.stdin.fileno(), stop.set)  # readable at EOF: the parent closed it
    await task
    print(json.dumps({"counts": counts, "seconds": round(time.perf_counter() - started, 3)}), flush=True)


def _lower_priority(nice: int, pin: bool) -> None:
    os.nice(nice)
    if pin and len(cores := sorted(os.sched_getaffinity(0))) > 1:
        os.sched_setaffinity(0, {cores[-1]})


def _pin_away_from_flood(*pids: int | None) -> None:
    """This process (the player) and `pids` (the services) on every core but the flood's."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) > 1:
        for pid in (0, *pids):
            if pid is not None:
                os.sched_setaffinity(pid, set(cores[:-1]))


OFF = {
    "ROUNDHOUSE_LIMIT_CREATE": "off", "ROUNDHOUSE_LIMIT_ACTIONS": "off", "ROUNDHOUSE_LIMIT_READS": "off",
    "ROUNDHOUSE_LIMIT_CREATE_ALL": "off", "ROUNDHOUSE_MAX_OPEN_TABLES_PER_CLIENT": "0",
    "ROUNDHOUSE_MAX_OPEN_TABLES": "0", "ROUNDHOUSE_MAX_TABLES_PER_CLIENT": "0", "ROUNDHOUSE_MAX_TABLES": "0",
    "ROUNDHOUSE_MAX_BOT_TABLES_PER_CLIENT": "0", "ROUNDHOUSE_MAX_BOT_TABLES": "0", "ROUNDHOUSE_LIMIT_BOT_TABLES": "off",
    "ROUNDHOUSE_LIMIT_BOT_TABLES_ALL": "off",
    "ROUNDHOUSE_MAX_WATCHERS_PER_CLIENT": str(MAX_HELD + 96),
}


async def run(seconds: float, opts: FloodOptions, fsync: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="rh-abuse-bench-") as tmp:
        server = RedisServer(Path(tmp) / "redis", fsync=fsync).start()
        if opts.pin:
            _pin_away_from_flood(server.process.pid if server.process else None)
        try:
            for limits in ("off", "default"):
                server_client_env = {"REDIS_URL": server.url, "ROUNDHOUSE_SECRET": secrets.token_hex(32),
                                     "ROUNDHOUSE_TITLE_MODULES": TITLE_MODULES,
                                     "ROUNDHOUSE_MAX_CONNECTIONS_PER_CLIENT": str(CONNECTION_CAP)}
                if limits == "off":
                    server_client_env.update(OFF)
                game = ServiceProcess("game", server_client_env, Path(tmp)).start()
                # The projection keeps the default connection cap (4,096): its flood is sockets held.
                projection_env = {k: v for k, v in server_client_env.items()
                                  if k != "ROUNDHOUSE_MAX_CONNECTIONS_PER_CLIENT"}
                projection = ServiceProcess("projection", projection_env, Path(tmp)).start()
                to = Target(game.url, projection.ws_url)
                if opts.pin:
                    _pin_away_from_flood(game.pid, projection.pid)
                try:
                    await phase(to, 3.0, None, opts)  # warm-up, not reported
                    for flood in FLOODS:
                        # The player alone right before each flood: the load of the other work on a
                        # shared machine drifts over a run, and the ratio is to the nearest baseline.
                        alone = await phase(to, seconds, None, opts)
                        during = await phase(to, seconds, flood, opts)
                        ratio = round(during["p99_ms"] / alone["p99_ms"], 2) if alone["p99_ms"] else None
                        row: dict[str, object] = {"limits": limits, "phase": flood, **during,
                                                  "alone_p50_ms": alone["p50_ms"], "alone_p99_ms": alone["p99_ms"],
                                                  "p99_ratio": ratio}
                        print(json.dumps(row), flush=True)
                        rows.append(row)
                finally:
                    projection.stop()
                    game.stop()
        finally:
            server.stop()
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0, help="length of each phase")
    p.add_argument("--abusers", type=int, default=16, help="connections the table flood creates tables on")
    p.add_argument("--fsync", default="everysec", choices=("always", "everysec", "no"),
                   help="Redis appendfsync (everysec: the disk's fsync jitter, shared with other work, "
                        "would drown what is measured here: CPU taken from the player)")
    p.add_argument("--flood-nice", type=int, default=10,
                   help="niceness added to the flood process (0: the flood competes with the services "
                        "for CPU as no remote attacker's clients do)")
    p.add_argument("--pin", action="store_true",
                   help="the flood process on the last core, the services and the player on the others")
    p.add_argument("--flood", choices=FLOODS, help=argparse.SUPPRESS)  # the flood child (see _start_flood)
    p.add_argument("--game", help=argparse.SUPPRESS)
    p.add_argument("--ws", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.flood:
        _lower_priority(args.flood_nice, args.pin)
        asyncio.run(run_flood(args.flood, Target(args.game, args.ws), args.abusers))
        return
    opts = FloodOptions(args.abusers, args.flood_nice, args.pin)
    rows = asyncio.run(run(args.seconds, opts, args.fsync))
    summary: dict[str, object] = {"flood_nice": opts.nice, "pin": opts.pin}
    for r in rows:
        summary[f"limits_{r['limits']}_{r['phase']}_p99_ratio"] = r["p99_ratio"]
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
