"""Bot response time through the whole stack: `python3 -m benchmarks.bot_response_bench`.

Starts its own redis-server (AOF, appendfsync always), the game service on loopback and one
bot worker submitting over HTTP (`benchmarks/stack.py`), then plays tables where seat 0 is a
person who moves at once (a random legal move over the HTTP API) and the other seats are
bots. A bot's response time is the time between the log entry that made its turn and the
bot's own entry (both timestamped by the game service when appended): turn notice, reading
and folding the log, the decision in a compute process, and the submit. Prints percentiles
per bot level; the last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp  # noqa: E402
import msgspec  # noqa: E402

from shared.bots import BOT_NAMES  # noqa: E402

from benchmarks.stack import bot_stack, create_table, play_person  # noqa: E402
from services.offline.arena import percentile  # noqa: E402


async def run(args: argparse.Namespace) -> dict[str, list[float]]:
    levels = [x.strip() for x in args.bots.split(",")]
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {level: [] for level in levels}
    async with bot_stack(args.processes) as stack, aiohttp.ClientSession() as session:
        for _ in range(args.games):
            seats = [{"name": "Person"}] + [{"name": f"Bot{i}", "kind": "bot", "level": level}
                                            for i, level in enumerate(levels)]
            created = await create_table(session, stack.base, args.title, seats)
            await play_person(session, stack.base, created["table"], created["seats"][0]["token"], rng)
            for seat, ms in await stack.bot_reply_ms(created["table"]):
                times[levels[seat - 1]].append(ms)
    return {level: sorted(values) for level, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m benchmarks.bot_response_bench", description=__doc__.split("\n")[0])
    p.add_argument("--title", default="chicago-express")
    p.add_argument("--bots", default="random,heuristic,mcts", help=f"levels of seats 1.. ({', '.join(BOT_NAMES)})")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    started = time.perf_counter()
    times = asyncio.run(run(args))
    print(f"bot response time (turn begins -> bot move logged), {args.games} games, "
          f"{time.perf_counter() - started:.0f} s, {args.processes} compute processes")
    figures = {}
    for level, values in times.items():
        figures[level] = {"moves": len(values), "ms_p50": percentile(values, 50), "ms_p95": percentile(values, 95),
                          "ms_max": values[-1] if values else 0}
        print(f"{level:<10} moves {len(values):>5}  p50 {figures[level]['ms_p50']:>6} ms  "
              f"p95 {figures[level]['ms_p95']:>6} ms  max {figures[level]['ms_max']:>6} ms")
    print(msgspec.json.encode({"bot_response": figures}).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
