"""Clients from several loopback source addresses (127.0.0.2, 127.0.0.3, ...): Linux routes
all of 127/8 to lo, so each is a distinct client address to a server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp


@asynccontextmanager
async def peer(n: int) -> AsyncIterator[aiohttp.ClientSession]:
    """A session whose connections come from 127.0.0.<n>."""
    connector = aiohttp.TCPConnector(local_addr=(f"127.0.0.{n}", 0), force_close=False)
    async with aiohttp.ClientSession(connector=connector) as session:
        yield session
