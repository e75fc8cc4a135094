"""Per-server views for tests that count commands: on a cluster, of the node holding a key."""

from __future__ import annotations

from typing import Any

from redis.asyncio.cluster import RedisCluster


async def on_node_of(redis: Any, key: str) -> dict[str, Any]:
    """Keyword arguments that send a server command (INFO, CONFIG RESETSTAT, SCRIPT FLUSH) to
    the node holding `key` on a cluster; none on a single server."""
    if not isinstance(redis, RedisCluster):
        return {}
    await redis.initialize()  # the slot map is read on first use
    return {"target_nodes": redis.get_node_from_key(key)}
