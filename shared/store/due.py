"""A global "look at this table next at" index: one sorted set per shard of keys.Layout,
table -> ms. The clock watch's deadlines and the notifier's next looks are two of them; each
is a hint only (what is due is computed from the table's log before anything is done)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.store.keys import Layout


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else value


class DueIndex:
    def __init__(self, redis: Any, layout: Layout, key_of: Callable[[int], str]) -> None:
        self.redis = redis
        self.layout = layout
        self.key_of = key_of  # shard -> the sorted set's key

    def _key(self, table: str) -> str:
        return self.key_of(self.layout.shard_of(table))

    async def set(self, table: str, at_ms: int | None, only_earlier: bool = False) -> None:
        """Look at `table` at `at_ms` (None: forget it). With `only_earlier`, an earlier time stays."""
        key = self._key(table)
        if at_ms is None:
            await self.redis.zrem(key, table)
        elif only_earlier:
            await self.redis.zadd(key, {table: at_ms}, lt=True)
        else:
            await self.redis.zadd(key, {table: at_ms})

    async def get(self, table: str) -> int | None:
        score = await self.redis.zscore(self._key(table), table)
        return None if score is None else int(score)

    async def due(self, now_ms: int, count: int = 100) -> list[str]:
        """Tables due at or before `now_ms`, over every shard, earliest first."""
        found: list[tuple[float, str]] = []
        for shard in range(self.layout.shards):
            rows: Any = await self.redis.zrangebyscore(self.key_of(shard), "-inf", now_ms, start=0, num=count,
                                                       withscores=True)
            found += [(score, _text(t)) for t, score in rows]
        found.sort()
        return [t for _s, t in found[:count]]
