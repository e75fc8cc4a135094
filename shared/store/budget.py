"""Counted places in the store, per client address and in all (docs/running.md#the-stores-budget).

A budget is a sorted set of table -> expiry ms for the whole store, one per address, and a
hash table -> address, all under one hash tag so its scripts touch them together. A place
is taken by `reserve` (or refused: the address, or the store, holds its most) and given
back by `release`, or by itself at its expiry (a table that expired without a word).

- `pending`: unstarted tables (nothing logged yet).
- `held`: unfinished tables (unstarted or running), so starting a table with one move does
  not take it out of its address's count.
- `botonly`: tables where every seat is a bot, however they came to be so (created like
  that, seats handed over, a clock that ran out and gave the seat to a bot).
"""

from __future__ import annotations

from importlib.resources import files
from typing import Any, Literal

Refusal = Literal["ok", "client", "all"]

_RESERVE = files("shared.store").joinpath("reserve.lua").read_text()
_RELEASE = files("shared.store").joinpath("release.lua").read_text()


class Budget:
    def __init__(self, redis: Any, name: str) -> None:
        self.redis = redis
        self.name = name
        self.all_key = f"rh:{{{name}}}"
        self.owners_key = f"rh:{{{name}}}:owners"
        self._reserve = redis.register_script(_RESERVE)
        self._release = redis.register_script(_RELEASE)

    def owner_key(self, owner: str) -> str:
        return f"rh:{{{self.name}}}:by:{owner}"

    async def reserve(self, table: str, owner: str, now_ms: int, expires_ms: int, per_owner: int,
                      overall: int) -> Refusal:
        """`ok` (a place is taken until `expires_ms` or `release`), else `client` / `all`
        and nothing is taken. A table that holds a place already keeps it (`ok`)."""
        done = await self._reserve(keys=[self.all_key, self.owner_key(owner), self.owners_key],
                                   args=[table, owner, now_ms, expires_ms, per_owner, overall])
        text = done.decode() if isinstance(done, bytes) else str(done)
        return "client" if text == "client" else "all" if text == "all" else "ok"

    async def release(self, table: str) -> bool:
        """Give the table's place back; whether it held one."""
        return bool(await self._release(keys=[self.all_key, self.owners_key], args=[table, self.owner_key("")]))

    async def count(self, owner: str | None = None) -> int:
        """Places taken (by `owner`, or in all), expired ones included until the next reserve."""
        return int(await self.redis.zcard(self.all_key if owner is None else self.owner_key(owner)))
