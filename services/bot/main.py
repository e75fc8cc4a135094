"""`roundhouse bot`: the bot worker alone. Redis and the seat-token secret come from the
environment (REDIS_URL, ROUNDHOUSE_SECRET), the game service URL from ROUNDHOUSE_GAME_URL
or --game-url; the other knobs are in docs/bots.md. Runs until SIGTERM / SIGINT."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys

import msgspec

from shared.config import Config
from shared.store.connect import STORE_ERRORS, connect, warm

from services.runner import configure_logging

from .settings import BotSettings
from .submit import HttpSubmitter
from .worker import BotWorker


def _fail(message: str, code: int = 2) -> int:
    print(f"roundhouse bot: {message}", file=sys.stderr)
    return code


def main(args: argparse.Namespace) -> int:
    configure_logging()
    if not os.environ.get("ROUNDHOUSE_SECRET"):
        return _fail("ROUNDHOUSE_SECRET must be set to the game service's secret (the worker signs seat tokens with it)")
    try:
        overrides = {"game_url": args.game_url.rstrip("/")} if args.game_url else {}
        if args.processes is not None:
            if args.processes < 1:
                raise ValueError(f"--processes must be at least 1, not {args.processes}")
            overrides["processes"] = args.processes
        settings = BotSettings.from_env(**overrides)
        cfg = Config.from_env()  # shared settings (a malformed one is one line, not a traceback)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        return asyncio.run(_serve(cfg, settings))
    except STORE_ERRORS as exc:
        return _fail(f"redis at {cfg.redis_url}: {exc}", 1)


async def _serve(cfg: Config, settings: BotSettings) -> int:
    # The socket timeout must outlast a blocking read of the turn stream.
    redis = connect(cfg.redis_url, socket_timeout=settings.block_ms / 1000 + 10,
                    socket_connect_timeout=5)
    await warm(redis)
    worker = BotWorker(redis, HttpSubmitter(settings.game_url, cfg.secret), settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await worker.start()
    except STORE_ERRORS:
        await worker.stop()
        await redis.aclose()
        raise
    except Exception as exc:  # the compute processes could not start (a bad preload, say)
        await worker.stop()
        await redis.aclose()
        return _fail(f"could not start: {type(exc).__name__}: {exc}", 1)
    print(f"roundhouse bot: consumer {settings.consumer} of group {settings.group}, "
          f"{settings.processes} compute processes, submitting to {settings.game_url}", flush=True)
    try:
        await stop.wait()
    finally:
        await worker.stop()
        await redis.aclose()
        print("roundhouse bot: stopped; " + msgspec.json.encode(worker.stats).decode(), flush=True)
    return 0
