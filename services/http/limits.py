"""Token buckets keyed by client address (or table): the per-client limits of the game service.

A bucket holds `burst` tokens and refills at `per_s` a second; a request takes one token or
is refused with the seconds until one is back (the 429's `Retry-After`). Buckets live in
this process only (each replica limits on its own) and idle ones are forgotten, so memory
stays bounded by the clients seen in the last few minutes.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict

from shared.config import RateLimit

from services.http.errors import coded

# How long a 429 is held back (see refuse_over); the store budget's refusals are held too.
TARPIT_S = 1.0
# What opening a WebSocket takes from its address's read budget (ROUNDHOUSE_LIMIT_READS): the
# welcome is a fold and a whole view, and every later move is pushed to it.
SOCKET_COST = 5.0

# Buckets kept per limiter; the least recently used go first (a full bucket is forgotten
# at no cost: a new one starts full too).
MAX_KEYS = 100_000


class Limiter:
    def __init__(self, limit: RateLimit) -> None:
        self.limit = limit
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, at)

    def take(self, key: str, now: float | None = None, cost: float = 1.0) -> float:
        """Take `cost` tokens (at most the burst) for `key`: 0.0 if allowed, else the seconds
        until they are available (nothing is taken then)."""
        limit = self.limit
        if not limit.enabled:
            return 0.0
        now = time.monotonic() if now is None else now
        tokens, at = self._buckets.pop(key, (limit.burst, now))
        tokens = min(limit.burst, tokens + (now - at) * limit.per_s)
        cost = min(cost, limit.burst)
        if tokens >= cost:
            self._buckets[key] = (tokens - cost, now)
            wait = 0.0
        else:
            self._buckets[key] = (tokens, now)
            wait = (cost - tokens) / limit.per_s
        while len(self._buckets) > MAX_KEYS:
            self._buckets.popitem(last=False)
        return wait


async def refuse_over_all(limiter: Limiter, code: str, message: str) -> None:
    """Take a token of the bucket every client shares, or raise `code` (a 503 with Retry-After)
    with `message` and the wait. Held back TARPIT_S, however soon a token is back: many
    clients share this bucket, and a flood's refusals must not cost more than what it is
    refused."""
    wait = limiter.take("*")
    if wait:
        await asyncio.sleep(TARPIT_S)
        raise coded(code, f"{message}; retry in {wait:.1f}s", retry_after=retry_after(wait))


def retry_after(wait: float) -> str:
    """Whole seconds for the Retry-After header (at least 1)."""
    return str(max(1, math.ceil(wait)))


async def refuse_over(limiter: Limiter, key: str, what: str, cost: float = 1.0) -> None:
    """Take `cost` of `key`'s tokens for `what`, or raise a 429 `rate_limited` with Retry-After.

    The refusal is held back TARPIT_S, however soon the tokens are back: a client that
    ignores Retry-After and floods then gets one answer per connection per TARPIT_S, so its
    refusals stop costing the other tables CPU (a socket open, 5 tokens at 100/s, was back
    in 50 ms, and refused 20 times a second a connection). A client that honours
    Retry-After waits at most TARPIT_S longer than it would have."""
    wait = limiter.take(key, cost=cost)
    if wait:
        await asyncio.sleep(TARPIT_S)
        per_s, burst = limiter.limit.per_s, limiter.limit.burst
        raise coded("rate_limited", f"too many {what} from this client (limit {per_s:g}/s, burst {burst:g}); "
                                    f"retry in {wait:.1f}s", retry_after=retry_after(wait))
