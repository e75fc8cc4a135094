"""The Config every in-process service test starts from: the suite's Redis and one secret."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.config import Config, RateLimit

SECRET = b"roundhouse-test-secret-0123456789abcdef"

# The store's table budgets, the creation rate of all clients together and the read budget
# off: the suite's one Redis gathers every test's tables, made from 127.0.0.1 (see
# tests/conftest.py), and tests list 200 rows again and again from one address. The tests of
# each limit (tests/hardening/) set the one they test.
NO_BUDGETS: dict[str, Any] = {
    "max_open_tables_per_client": 0, "max_open_tables": 0, "max_tables_per_client": 0, "max_tables": 0,
    "max_bot_tables_per_client": 0, "max_bot_tables": 0, "limit_reads": RateLimit(0, 0),
    "limit_create_all": RateLimit(0, 0), "limit_bot_tables_all": RateLimit(0, 0),
}


def config_factory(redis_url: str) -> Callable[..., Config]:
    def make(**overrides: Any) -> Config:
        return Config(redis_url=redis_url, secret=SECRET, **{**NO_BUDGETS, **overrides})

    return make
