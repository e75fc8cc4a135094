"""One Redis client from one URL: a single server, or Redis Cluster through redis-py's cluster client.

A URL names a cluster when its scheme is `redis-cluster://` (`host:port[,host:port...]`, the
seed nodes; the rest of the cluster is discovered), or when `ROUNDHOUSE_REDIS_CLUSTER=1` is set
(then a plain `redis://host:port` is one seed node). Everything else is a single server.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import RedisClusterException, RedisError

CLUSTER_SCHEME = "redis-cluster"
_TRUE = ("1", "yes", "true", "on")

AnyRedis = aioredis.Redis | RedisCluster
# What Redis being unavailable raises: redis-py's cluster client also raises
# RedisClusterException (no seed node answers) and SlotNotCoveredError (a slot without a
# master mid-failover), which are no RedisError. STORE_ERRORS adds the socket's own errors.
REDIS_ERRORS: tuple[type[Exception], ...] = (RedisError, RedisClusterException)
STORE_ERRORS: tuple[type[Exception], ...] = (*REDIS_ERRORS, OSError)
# As the game service's request handler catches them: a connection refused or reset, not
# every OSError (a bug writing a file is no store outage).
REDIS_OR_CONNECTION_ERRORS: tuple[type[Exception], ...] = (*REDIS_ERRORS, ConnectionError)

_REDIS_PACKAGE = os.path.dirname(aioredis.__file__).rsplit(os.sep, 1)[0] + os.sep


def torn_connection(exc: BaseException) -> bool:
    """An AttributeError raised inside redis-py itself: its async cluster client, reading the slot
    map again mid-failover, closes connections that other commands are still writing to (their
    `_writer` is None by then). That is the store being unavailable for a moment, not a bug of
    ours, and is answered as such; an AttributeError in our own code stays a bug."""
    if not isinstance(exc, AttributeError):
        return False
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_filename.startswith(_REDIS_PACKAGE)


def is_cluster_url(url: str, env: Mapping[str, str] = os.environ) -> bool:
    return url.startswith(CLUSTER_SCHEME + "://") or env.get("ROUNDHOUSE_REDIS_CLUSTER", "").lower() in _TRUE


def cluster_url(nodes: list[tuple[str, int]], password: str | None = None) -> str:
    auth = f":{quote(password, safe='')}@" if password else ""
    return f"{CLUSTER_SCHEME}://{auth}" + ",".join(f"{host}:{port}" for host, port in nodes)


def seed_nodes(url: str) -> list[tuple[str, int]]:
    """The host:port pairs of a cluster URL (`redis-cluster://a:1,b:2` or `redis://a:1/0`)."""
    netloc = url.split("://", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
    nodes = []
    for part in netloc.split(","):
        host, sep, port = part.rpartition(":")
        if not sep or not port.isdigit():
            raise ValueError(f"bad Redis Cluster node {part!r} in {url!r}: want host:port")
        nodes.append((host.strip("[]"), int(port)))
    return nodes


def connect(url: str, *, max_connections: int | None = None, blocking_pool: bool = False, pool_timeout: float = 10.0,
            env: Mapping[str, str] = os.environ, **kwargs: Any) -> AnyRedis:
    """A client for `url` (decode_responses stays False: the store reads raw bytes).

    `max_connections` is per client on a single server, per node on a cluster. With
    `blocking_pool` a single-server client waits for a free connection instead of failing;
    the cluster client has no such pool, so its limit is raised to at least 1,000 per node."""
    if is_cluster_url(url, env):
        parts = urlsplit(url.split(",", 1)[0])
        nodes = [ClusterNode(host, port) for host, port in seed_nodes(url)]
        per_node = max(max_connections or 0, 1000) if blocking_pool else (max_connections or 1000)
        password = None if parts.password is None else unquote(parts.password)
        return RedisCluster(startup_nodes=nodes, password=password, username=parts.username,
                            max_connections=per_node, **kwargs)
    if blocking_pool:
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=max_connections or 50,
                                                         timeout=pool_timeout, **kwargs)
        return aioredis.Redis(connection_pool=pool)
    if max_connections is not None:
        kwargs["max_connections"] = max_connections
    return aioredis.from_url(url, **kwargs)


def is_cluster_client(redis: Any) -> bool:
    return isinstance(redis, RedisCluster)


async def warm(redis: Any) -> None:
    """Read a cluster client's slot map now, before the first burst of commands: redis-py 8.1's
    async cluster client, reading it lazily under concurrent first commands, can close
    connections other commands are using (AttributeError on `writelines`). A cluster not
    reachable yet is left to the first command (which retries), as a single server is."""
    if is_cluster_client(redis):
        try:
            await redis.initialize()
        except (RedisError, OSError):
            pass


# How long a readiness check may take: a probe (e.g. Kubernetes' timeoutSeconds) must get an
# answer, and a node that does not answer within this is as good as down.
HEALTH_TIMEOUT_S = 2.0


async def unhealthy(redis: Any, timeout: float = HEALTH_TIMEOUT_S) -> str | None:
    """Why the store cannot serve now, or None when it can: what the ready endpoints report.

    A single server must answer PING. A cluster must have every master of its slot map answer
    and say `cluster_state:ok` (every slot served): one master down, before or while its
    replica is promoted, is "not ready", as is a cluster without a quorum; ready again once the
    promoted replica serves."""
    try:
        return await asyncio.wait_for(_check(redis), timeout)  # one bound for the whole check
    except TimeoutError:
        return f"redis did not answer within {timeout} s"
    except STORE_ERRORS as exc:  # OSError too: a node's name that does not resolve
        return f"redis unreachable: {type(exc).__name__}"


async def _check(redis: Any) -> str | None:
    if not is_cluster_client(redis):
        await redis.ping()
        return None
    # Once, to the masters of the slot map as it is: no retries (redis-py would retry a dead
    # master until the failover is over, and a probe must hear "not ready" now). A node that
    # failed marks the map stale, so initialize() reads it again next time.
    await redis.initialize()
    infos = await redis.execute_command("CLUSTER INFO", target_nodes=redis.get_primaries())
    if "cluster_state" in infos:  # one master: redis-py returns its answer, not a map of them
        infos = {"the master": infos}
    failing = sorted(node for node, info in infos.items() if info.get("cluster_state") != "ok")
    if failing:
        return f"redis cluster not ok on {', '.join(failing)}"
    return None
