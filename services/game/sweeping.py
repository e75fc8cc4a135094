"""The loop of the game service's background sweepers (clock watch, retention)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from redis.exceptions import RedisError


async def sweep_forever(sweep: Callable[[], Awaitable[object]], poll_s: float, log: logging.Logger,
                        what: str) -> None:
    """Run `sweep` every `poll_s` seconds until cancelled. A Redis that is away for a moment
    costs one line per look, and the next look tries again."""
    while True:
        try:
            await sweep()
        except (RedisError, OSError) as exc:
            log.warning("%s: %s", what, exc)
        await asyncio.sleep(poll_s)
