"""Token buckets keyed by client address (or table): the per-client limits of the game service.

A bucket holds `burst` tokens and refills at `per_s` a second; a request takes one token or
is refused with the seconds until one is back (the 429's `Retry-After`). Buckets live in
this process only (each replica limits on its own) and idle ones are forgotten, so memory
stays bounded by the clients seen in the last few minutes.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict

from shared.config import RateLimit

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


def retry_after(wait: float) -> str:
    """Whole seconds for the Retry-After header (at least 1)."""
    return str(max(1, math.ceil(wait)))
