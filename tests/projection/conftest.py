from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from shared.auth import issue
from shared.config import Config
from shared.engine import Engine
from shared.games import get_engine
from shared.store import RedisEventStore

from services.projection.app import PROJECTION, Projection, create_app
from services.projection.hub import Hub
from services.projection.settings import ProjectionSettings
from tests.service_config import NO_BUDGETS

from .support import CountingEngine, TableDriver

SECRET = b"projection-test-secret-0123456789"  # >= 32 bytes for `roundhouse projection`


def engine_under_test() -> Engine[Any]:
    return get_engine("chicago-express")


@pytest.fixture
def engine() -> CountingEngine:
    return CountingEngine(engine_under_test())


@pytest.fixture
def cfg(redis_url: str) -> Config:
    return Config(redis_url=redis_url, secret=SECRET, max_body=16 * 1024, ws_send_timeout=1.0, **NO_BUDGETS)


@pytest.fixture
def settings() -> ProjectionSettings:
    return ProjectionSettings(heartbeat=5.0, hello_timeout=2.0, feed_grace=0.2, block_ms=2000)


@pytest.fixture
def store(redis_client) -> RedisEventStore:
    return RedisEventStore(redis_client)


@pytest.fixture
async def driver(store: RedisEventStore, engine: CountingEngine) -> TableDriver:
    return await TableDriver(store, engine.inner).create()


def token(table: str, seat: int) -> str:
    return issue(SECRET, table, seat)


AppFactory = Callable[..., Awaitable[TestClient]]


@pytest.fixture
def start_app(aiohttp_client, cfg: Config, settings: ProjectionSettings, engine: CountingEngine) -> AppFactory:
    """Start a projection app (a fresh instance each call) against the test Redis."""

    async def start(**overrides: Any) -> TestClient:
        app = create_app(
            overrides.pop("cfg", cfg),
            engine_for=overrides.pop("engine_for", lambda title: engine),
            settings=ProjectionSettings(**{**_fields(settings), **overrides}),
        )
        return await aiohttp_client(app)

    return start


@pytest.fixture
async def client(start_app: AppFactory) -> TestClient:
    return await start_app()


def projection_of(client: TestClient) -> Projection:
    app = client.app
    assert isinstance(app, web.Application)
    return app[PROJECTION]


def hub_of(client: TestClient) -> Hub:
    """The started projection's hub (it exists from startup to cleanup)."""
    hub = projection_of(client).hub
    assert hub is not None, "the projection app has not started"
    return hub


def _fields(s: ProjectionSettings) -> dict[str, Any]:
    return {f: getattr(s, f) for f in s.__struct_fields__}
