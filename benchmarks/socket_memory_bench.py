"""Socket memory benchmark: does the projection's RSS grow over cycles of many sockets, and
is what it keeps a leak or memory the allocator holds on to?

    python3 -m benchmarks.socket_memory_bench --sockets 4000 --cycles 5

Starts a private redis-server and, in a child process, the game service and the projection
in one app (as `roundhouse dev` serves them). Each cycle opens `--sockets` spectator
WebSockets on one table from 16 loopback addresses (127.0.0.2 ...; the per-address spectator
cap is raised to fit), waits for every welcome, closes them all and gives the server a second
to finish the closes. After each cycle the child reports its RSS, the Python objects the
garbage collector tracks and the blocks Python's allocator has handed out (tracemalloc is
off: it would change what is measured). At the end the child calls glibc's malloc_trim(0) and reports RSS
again: memory that comes back then was free, kept by the C allocator, not leaked. One JSON
line per cycle, then a summary line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402

from shared.redis_server import RedisServer, free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 18)]

# The child: serves the app; SIGUSR1 prints one JSON line of memory figures, SIGUSR2 trims.
CHILD = r"""
import asyncio, ctypes, gc, json, os, signal, sys
from aiohttp import web
from services.dev import build_app, installers
from shared.config import Config

def rss_kb():
    for line in open(f"/proc/{os.getpid()}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

def report(trimmed=False):
    gc.collect()
    print(json.dumps({"rss_mb": round(rss_kb() / 1024, 1), "gc_objects": len(gc.get_objects()),
                      "python_blocks": sys.getallocatedblocks(),
                      "trimmed": trimmed}), flush=True)

def trim():
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    report(trimmed=True)

async def main():
    cfg = Config.from_env(redis_url=sys.argv[1], secret=os.environ["ROUNDHOUSE_SECRET"].encode())
    app = build_app(cfg, installers())
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", int(sys.argv[2])).start()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, report)
    loop.add_signal_handler(signal.SIGUSR2, trim)
    print("ready", flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


async def cycle(base: str, table: str, sockets: int) -> None:
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(a, 0))) for a in ADDRESSES]
    hello = {"type": "hello", "v": 1, "table": table}
    open_ws = []
    try:
        async def one(k: int) -> None:
            ws = await sessions[k % len(sessions)].ws_connect(f"{base}/ws")
            await ws.send_json(hello)
            frame = await ws.receive_json(timeout=60)
            assert frame["type"] == "welcome", frame
            open_ws.append(ws)

        for start in range(0, sockets, 500):
            await asyncio.gather(*(one(k) for k in range(start, min(sockets, start + 500))))
        await asyncio.gather(*(ws.close() for ws in open_ws))
    finally:
        for s in sessions:
            await s.close()


def ask(child: subprocess.Popen[str], sig: int) -> dict[str, object]:
    child.send_signal(sig)
    assert child.stdout is not None
    return json.loads(child.stdout.readline())


async def run(sockets: int, cycles: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="rh-socket-memory-") as tmp:
        server = RedisServer(Path(tmp) / "redis", fsync="no").start()
        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "ROUNDHOUSE_SECRET": secrets.token_hex(32),
               "ROUNDHOUSE_MAX_WATCHERS_PER_CLIENT": str(sockets), "ROUNDHOUSE_LIMIT_READS": "off",
               "ROUNDHOUSE_LOG_LEVEL": "ERROR"}
        child = subprocess.Popen([sys.executable, "-c", CHILD, server.url, str(port)], env=env, cwd=ROOT,
                                 stdout=subprocess.PIPE, text=True)
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as http:
                async with http.post(f"{base}/api/tables", json={"title": "chicago-express", "seats": [
                        {"name": "a"}, {"name": "b"}, {"name": "c"}]}) as resp:
                    table = (await resp.json())["table"]
            rows.append({"cycle": 0, **ask(child, signal.SIGUSR1)})
            print(json.dumps(rows[-1]), flush=True)
            for n in range(1, cycles + 1):
                await cycle(base, table, sockets)
                await asyncio.sleep(1.0)  # the server's side of each close runs its course
                rows.append({"cycle": n, **ask(child, signal.SIGUSR1)})
                print(json.dumps(rows[-1]), flush=True)
            rows.append({"cycle": "trimmed", **ask(child, signal.SIGUSR2)})
            print(json.dumps(rows[-1]), flush=True)
        finally:
            child.terminate()
            child.wait(10)
            server.stop()
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sockets", type=int, default=4000)
    p.add_argument("--cycles", type=int, default=5)
    args = p.parse_args()
    rows = asyncio.run(run(args.sockets, args.cycles))
    print(json.dumps({"rss_mb": [r["rss_mb"] for r in rows], "gc_objects": [r["gc_objects"] for r in rows]}))


if __name__ == "__main__":
    main()
