"""The Config every in-process service test starts from: the suite's Redis and one secret."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.config import Config, RateLimit

SECRET = b"roundhouse-test-secret-0123456789abcdef"


def config_factory(redis_url: str) -> Callable[..., Config]:
    def make(**overrides: Any) -> Config:
        # The store's table budgets off: see tests/conftest.py. Reads too: tests list 200 rows
        # again and again from one address (tests/hardening/test_read_limits.py sets it).
        overrides = {"max_open_tables_per_client": 0, "max_open_tables": 0, "max_tables_per_client": 0,
                     "max_tables": 0, "max_bot_tables_per_client": 0, "max_bot_tables": 0,
                     "limit_reads": RateLimit(0, 0), **overrides}
        return Config(redis_url=redis_url, secret=SECRET, **overrides)

    return make
