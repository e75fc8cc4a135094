from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import aiohttp
import pytest

from .stack import GameClient, Stack


@pytest.fixture(scope="module")
def stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Game + projection processes shared by the tests of one module that do not kill them."""
    running = Stack(redis_url, tmp_path_factory.mktemp("e2e-logs")).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        yield session


@pytest.fixture
def game(http: aiohttp.ClientSession, stack: Stack) -> GameClient:
    return GameClient(http, stack.game.url)
