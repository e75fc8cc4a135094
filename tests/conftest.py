"""Shared fixtures. Integration tests talk to a real redis-server started here on a free port
(or to REDIS_URL when it is set); never a mock. With REDIS_CLUSTER=1 they talk instead to a
real local Redis Cluster (3 masters, 1 replica each) started here (shared/redis_cluster.py)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

# Imported up front on purpose: hypothesis's pytest plugin otherwise imports it in its
# end-of-session summary, through pytest's assertion rewriter (ast.parse), and CPython 3.11.7
# can then fail with "SystemError: AST constructor recursion depth mismatch" after all tests passed.
import hypothesis.internal.observability  # noqa: F401
import pytest

# The test titles (tests/titles) join the registry in this process and in every service,
# bot worker and compute process the tests start (they inherit the environment).
TEST_TITLES = "tests.titles.nim,tests.titles.sealed"
os.environ["ROUNDHOUSE_TITLE_MODULES"] = TEST_TITLES
# One session Redis gathers every test's tables, all made from 127.0.0.1 and mostly never
# started: the store's unstarted-table budget would refuse them. Its own tests
# (tests/hardening/test_store_budget.py) set it; tests/service_config.py does the same in-process.
os.environ.setdefault("ROUNDHOUSE_MAX_OPEN_TABLES_PER_CLIENT", "0")
os.environ.setdefault("ROUNDHOUSE_MAX_OPEN_TABLES", "0")
os.environ.setdefault("ROUNDHOUSE_MAX_TABLES_PER_CLIENT", "0")
os.environ.setdefault("ROUNDHOUSE_MAX_TABLES", "0")
os.environ.setdefault("ROUNDHOUSE_MAX_BOT_TABLES_PER_CLIENT", "0")
os.environ.setdefault("ROUNDHOUSE_MAX_BOT_TABLES", "0")
# And the creation rates of all clients together: tests/hardening/test_store_budget.py sets them.
os.environ.setdefault("ROUNDHOUSE_LIMIT_CREATE_ALL", "off")
os.environ.setdefault("ROUNDHOUSE_LIMIT_BOT_TABLES_ALL", "off")
# Likewise reads: every service a test starts is read from 127.0.0.1 by tests that poll the
# API (tests/hardening/test_read_limits.py sets the budget it tests).
os.environ.setdefault("ROUNDHOUSE_LIMIT_READS", "off")
# Imported once the environment above is set, so no module reads it earlier (hence noqa E402).
import redis.asyncio as aioredis  # noqa: E402
from redis.asyncio.cluster import RedisCluster  # noqa: E402

from shared.redis_cluster import LocalCluster  # noqa: E402
from shared.redis_server import RedisServer  # noqa: E402
from shared.store.connect import connect  # noqa: E402

SHARED_DIR = Path(__file__).resolve().parents[2] / "shared"


def cluster_run() -> bool:
    return os.environ.get("REDIS_CLUSTER", "").lower() in ("1", "yes", "true")


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster | None]:
    if not cluster_run():
        yield None
        return
    cluster = LocalCluster(tmp_path_factory.mktemp("redis-cluster"), masters=3, replicas=1).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory, redis_cluster: LocalCluster | None) -> Iterator[RedisServer | None]:
    if os.environ.get("REDIS_URL") or redis_cluster is not None:
        yield None
        return
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer | None, redis_cluster: LocalCluster | None) -> str:
    if redis_cluster is not None:
        return redis_cluster.url
    return os.environ["REDIS_URL"] if redis_server is None else redis_server.url


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[aioredis.Redis | RedisCluster]:
    client = connect(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run last, whatever order the paths were given in: their session-wide
    `sync_playwright` keeps an event loop running on the main thread, and every asyncio test
    collected after the first of them would fail with "cannot be called from a running event
    loop" (seen with `pytest tests/web/test_1841_page.py tests/offline`)."""
    web = Path(__file__).parent / "web"
    items.sort(key=lambda item: item.path.is_relative_to(web))  # stable: each group keeps its order
