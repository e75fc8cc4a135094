"""Abuse benchmark: what a flood costs a legitimate player, with the limits off and on.

    python3 -m benchmarks.abuse_bench --seconds 5

Starts a private redis-server (AOF; appendfsync everysec by default, see --fsync),
`roundhouse game` and `roundhouse projection` twice: once with the limits off, once with
the defaults (docs/running.md#security). In each, a player at 127.0.0.1 submits actions at
one Nim table back to back (measuring each submit): first alone, then during each flood in
turn, from other loopback addresses (127.0.0.2 ...) that ignore Retry-After:

- `tables`: `--abusers` connections spread over 20 addresses create tables as fast as they can;
- `started`: the same, each table started with one move (out of the unstarted budget);
- `bot_tables`: `--abusers` connections over 20 addresses create tables of people and hand
  every seat to a bot (the all-bot limit's side door);
- `listings`: 8 connections from one address list 200 tables at a time;
- `spectators`: 8 connections from one address open spectator WebSockets and hold them;
- `connections`: one address opens connections over its cap (64 here) as fast as it can.

Prints one JSON line per (limits, phase) with the player's submit p50/p99 in ms and what the
flood got through; then a summary line: per flood, the player's p99 during it over its p99
alone, in the same run (the acceptance: at most 2 with the defaults).
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
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, NamedTuple

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


async def _spread(abusers: int, one: Callable[[aiohttp.ClientSession], Coroutine[Any, Any, None]]) -> None:
    async def from_address(address: str) -> None:
        async with session_from(address) as http:
            await one(http)

    await asyncio.gather(*(from_address(ADDRESSES[i % len(ADDRESSES)]) for i in range(abusers)))


async def flood_tables(to: Target, stop: asyncio.Event, counts: Counts, abusers: int) -> None:
    async def one(http: aiohttp.ClientSession) -> None:
        while not stop.is_set():
            await _create(http, to.game, counts)

    await _spread(abusers, one)


async def flood_started(to: Target, stop: asyncio.Event, counts: Counts, abusers: int) -> None:
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

    await _spread(abusers, one)


async def flood_bot_tables(to: Target, stop: asyncio.Event, counts: Counts, abusers: int) -> None:
    async def one(http: aiohttp.ClientSession) -> None:
        while not stop.is_set():
            created = await _create(http, to.game, counts)
            for grant in created["seats"] if created else []:
                async with http.post(f"{to.game}/api/tables/{created['table']}/seats/{grant['seat']}/controller",  # type: ignore[index]
                                     json={"kind": "bot", "level": "random"},
                                     headers={"Authorization": f"Bearer {grant['token']}"}) as resp:
                    await resp.read()
                    await _count(counts, f"handover_{resp.status}")

    await _spread(abusers, one)


async def flood_spectators(to: Target, stop: asyncio.Event, counts: Counts, _abusers: int) -> None:
    """Open spectator sockets on one table from one address, and hold them (up to MAX_HELD)."""
    held: list[aiohttp.ClientWebSocketResponse] = []
    async with session_from(ADDRESSES[0]) as http:
        created = await _create(http, to.game, {})
        assert created is not None
        hello = {"type": "hello", "v": 1, "table": created["table"]}

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


async def flood_listings(to: Target, stop: asyncio.Event, counts: Counts, _abusers: int) -> None:
    url = to.game

    async def one(http: aiohttp.ClientSession) -> None:
        while not stop.is_set():
            async with http.get(f"{url}/api/tables?limit=200") as resp:
                await resp.read()
                await _count(counts, resp.status)

    async with session_from(ADDRESSES[0]) as http:
        await asyncio.gather(*(one(http) for _ in range(8)))


async def flood_connections(to: Target, stop: asyncio.Event, counts: Counts, _abusers: int) -> None:
    """Hold the cap's worth of connections open, then keep opening more (each refused)."""
    host, port = to.game.split("://", 1)[1].split(":")
    held = []
    for _ in range(CONNECTION_CAP):
        held.append(await asyncio.open_connection(host, int(port), local_addr=(ADDRESSES[0], 0)))

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


FLOOD: dict[str, Callable[[Target, asyncio.Event, Counts, int], Coroutine[Any, Any, None]]] = {
    "tables": flood_tables, "started": flood_started, "bot_tables": flood_bot_tables, "listings": flood_listings,
    "spectators": flood_spectators, "connections": flood_connections,
}


async def phase(to: Target, seconds: float, flood: str | None, abusers: int) -> dict[str, object]:
    stop = asyncio.Event()
    counts: Counts = {}
    play = asyncio.create_task(player(to.game, stop))
    hogs = [asyncio.create_task(FLOOD[flood](to, stop, counts, abusers))] if flood else []
    await asyncio.sleep(seconds)
    stop.set()
    samples = await play
    await asyncio.gather(*hogs)
    return {
        "submits": len(samples),
        "p50_ms": pct(samples, 0.5), "p99_ms": pct(samples, 0.99),
        "mean_ms": round(statistics.fmean(samples), 2) if samples else 0.0,
        "flood_per_s": {status: round(n / seconds, 1) for status, n in sorted(counts.items())},
    }


OFF = {
    "ROUNDHOUSE_LIMIT_CREATE": "off", "ROUNDHOUSE_LIMIT_ACTIONS": "off", "ROUNDHOUSE_LIMIT_READS": "off",
    "ROUNDHOUSE_LIMIT_CREATE_ALL": "off", "ROUNDHOUSE_MAX_OPEN_TABLES_PER_CLIENT": "0",
    "ROUNDHOUSE_MAX_OPEN_TABLES": "0", "ROUNDHOUSE_MAX_TABLES_PER_CLIENT": "0", "ROUNDHOUSE_MAX_TABLES": "0",
    "ROUNDHOUSE_MAX_BOT_TABLES_PER_CLIENT": "0", "ROUNDHOUSE_MAX_BOT_TABLES": "0", "ROUNDHOUSE_LIMIT_BOT_TABLES": "off",
    "ROUNDHOUSE_MAX_WATCHERS_PER_CLIENT": str(MAX_HELD + 96),
}


async def run(seconds: float, abusers: int, fsync: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="rh-abuse-bench-") as tmp:
        server = RedisServer(Path(tmp) / "redis", fsync=fsync).start()
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
                try:
                    await phase(to, 3.0, None, 0)  # warm-up, not reported
                    for flood in (None, *FLOODS):
                        row: dict[str, object] = {"limits": limits, "phase": flood or "alone",
                                                  **await phase(to, seconds, flood, abusers)}
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
    args = p.parse_args()
    rows = asyncio.run(run(args.seconds, args.abusers, args.fsync))
    by: dict[tuple[Any, Any], dict[str, Any]] = {(r["limits"], r["phase"]): r for r in rows}
    summary: dict[str, object] = {}
    for lim in ("off", "default"):
        alone = by[(lim, "alone")]["p99_ms"]
        summary[f"limits_{lim}_p99_alone_ms"] = alone
        for flood in FLOODS:
            during = by[(lim, flood)]["p99_ms"]
            summary[f"limits_{lim}_{flood}_p99_ms"] = during
            summary[f"limits_{lim}_{flood}_p99_ratio"] = round(during / alone, 2) if alone else None
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
