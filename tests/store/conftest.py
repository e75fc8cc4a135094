from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from shared.store import RedisEventStore, SeatSpec, TableMeta


@pytest.fixture
def store(redis_client) -> RedisEventStore:
    return RedisEventStore(redis_client)


@pytest.fixture
def make_meta() -> Callable[..., TableMeta]:
    def make(**overrides: Any) -> TableMeta:
        base = TableMeta(
            table="t" + secrets.token_hex(6),
            title="chicago-express",
            options={"variant": "base"},
            seats=[SeatSpec("Ada"), SeatSpec("Bot", "bot", "easy"), SeatSpec("Cy")],
            seed=12345,
            status="open",
            created_ms=1_700_000_000_000,
        )
        return msgspec.structs.replace(base, **overrides)

    return make


@pytest.fixture
async def table(store: RedisEventStore, make_meta) -> str:
    meta = make_meta()
    await store.create_table(meta)
    return meta.table
