"""Bounded waits on a condition: what tests use instead of a fixed sleep, so a test fails
when the thing it waits for never happens, and does not wait longer than it must."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast, overload

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

T = TypeVar("T")


# Two signatures: with one `T | Awaitable[T]`, an async condition left T unsolved (Never).
@overload
async def until(condition: Callable[[], Awaitable[T]], what: str, timeout: float = 10.0,
                interval: float = 0.01) -> T: ...
@overload
async def until(condition: Callable[[], T], what: str, timeout: float = 10.0, interval: float = 0.01) -> T: ...


async def until(condition: Callable[[], Any], what: str, timeout: float = 10.0, interval: float = 0.01) -> Any:
    """Poll `condition` (plain or async) until it returns something truthy, and return that;
    fail the test, naming `what`, after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(interval)


async def blocked_stream_reads(redis: aioredis.Redis | RedisCluster) -> set[Any]:
    """Ids of the connections Redis has now parked in a blocking XREAD / XREADGROUP (on a
    cluster, (node, id) over every node)."""
    if isinstance(redis, RedisCluster):
        # redis-py types client_list as one node's list; given target_nodes, a cluster answers per node
        per_node = cast(dict[Any, list[dict[str, str]]], await redis.client_list(target_nodes=RedisCluster.ALL_NODES))
        clients = [(node, c) for node, found in per_node.items() for c in found]
    else:
        clients = [(None, c) for c in await redis.client_list()]
    return {(node, int(c["id"])) if node else int(c["id"]) for node, c in clients
            if "b" in str(c["flags"]) and c["cmd"] in ("xread", "xreadgroup")}


async def until_blocked_in_read(redis: aioredis.Redis | RedisCluster, before: set[Any], what: str) -> set[Any]:
    """Wait until a connection not in `before` is blocked in a stream read; returns its id(s)."""
    async def new_blocked() -> set[int]:
        return await blocked_stream_reads(redis) - before

    return await until(new_blocked, what)
