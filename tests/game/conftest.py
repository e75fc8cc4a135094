from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from shared.config import Config
from shared.store import keys

from services.game.app import GAME_KEY, create_app
from tests.service_config import SECRET, config_factory  # noqa: F401 - SECRET for the tests here

_keys = itertools.count()


@pytest.fixture
def make_cfg(redis_url) -> Callable[..., Config]:
    return config_factory(redis_url)


@pytest.fixture
def new_client(aiohttp_client, make_cfg):
    """Start a game service (one replica) on loopback; several may share the Redis."""

    async def start(**overrides: Any):
        return await aiohttp_client(create_app(make_cfg(**overrides)))

    return start


@pytest.fixture
async def client(new_client):
    return await new_client()


def key() -> str:
    return f"key-{next(_keys)}"


class Table:
    """A table created through the API, with helpers that speak its HTTP."""

    def __init__(self, client, created: dict[str, Any]) -> None:
        self.client = client
        self.id = created["table"]
        self.created = created
        self.tokens = [s["token"] for s in created["seats"]]

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    async def act(self, seat: int, action: dict[str, Any], expected_seq: int, idem: str | None = None):
        body = {"expected_seq": expected_seq, "idempotency_key": idem or key(), "action": action}
        resp = await self.client.post(f"/api/tables/{self.id}/actions", json=body, headers=self.auth(seat))
        return resp.status, await resp.json()

    async def detail(self) -> dict[str, Any]:
        resp = await self.client.get(f"/api/tables/{self.id}")
        assert resp.status == 200
        return await resp.json()

    async def log_state(self) -> tuple[int, list[bytes]]:
        """(XLEN, entry ids) of the table's stream, straight from Redis."""
        redis = self.client.app[GAME_KEY].redis
        entries = await redis.xrange(keys.log_key(self.id))
        return await redis.xlen(keys.log_key(self.id)), [i for i, _ in entries]


@pytest.fixture
def make_table() -> Callable[..., Awaitable[Table]]:
    async def make(client, seats: int | list[dict[str, Any]] = 2, title: str = "nim", seed: int = 0, **extra: Any) -> Table:
        seat_list = [{"name": f"p{i}"} for i in range(seats)] if isinstance(seats, int) else seats
        resp = await client.post("/api/tables", json={"title": title, "seats": seat_list, "seed": seed, **extra})
        body = await resp.json()
        assert resp.status == 201, body
        return Table(client, body)

    return make
