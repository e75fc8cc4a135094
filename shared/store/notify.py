"""Turn notices in the store: each seat's settings, the durable outbox of deliveries beside
the table's log, and the global index of when to look at a table next (docs/notifications.md).

Per table (one slot): `rh:{t}:notify` (seat -> NotifySettings JSON) and `rh:{t}:outbox`
(`<seat>:<turn seq>` -> delivery record, shared/store/outbox.lua). The index is sharded
like the turn streams (keys.Layout.notify_due)."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.protocol.http import NotifySettings
from shared.store import keys
from shared.store.due import DueIndex
from shared.store.events import RedisEventStore, _lua, _text
from shared.store.models import UnknownTable

_json = msgspec.json.Encoder()
_settings = msgspec.json.Decoder(NotifySettings)


class Delivery(msgspec.Struct, kw_only=True):
    """One turn notice's record in the outbox."""

    state: str  # pending | sent | gave_up
    attempts: int
    next: int = 0  # ms: not before (a retry's backoff)
    lease: int = 0  # ms: held by a sender until then
    done: str = ""  # channels delivered, comma-separated
    error: str = ""
    claimed: int = 0

    @property
    def channels_done(self) -> set[str]:
        return {c for c in self.done.split(",") if c}


_delivery = msgspec.json.Decoder(Delivery)


class NotifyStore:
    def __init__(self, store: RedisEventStore) -> None:
        self.store = store
        self.redis = store.redis
        self.layout = store.layout
        self._set = self.redis.register_script(_lua("notify_set.lua"))
        self._outbox = self.redis.register_script(_lua("outbox.lua"))
        self.index = DueIndex(self.redis, self.layout, self.layout.notify_due)

    async def put(self, table: str, seat: int, settings: NotifySettings | None) -> None:
        table = keys.check_table_id(table)
        done = await self._set(keys=[keys.notify_key(table), keys.meta_key(table)],
                               args=[seat, b"" if settings is None else _json.encode(settings)])
        if not done:
            raise UnknownTable(table)

    async def get(self, table: str, seat: int) -> NotifySettings | None:
        raw = await self.redis.hget(keys.notify_key(table), str(seat))
        return None if raw is None else _settings.decode(raw)

    async def all(self, table: str) -> dict[int, NotifySettings]:
        raw: Any = await self.redis.hgetall(keys.notify_key(table))
        return {int(seat): _settings.decode(value) for seat, value in raw.items()}

    # --- the outbox ------------------------------------------------------------------------

    async def claim(self, table: str, field: str, now_ms: int, lease_ms: int) -> Delivery | None:
        raw = await self._outbox(keys=[keys.outbox_key(table)], args=["claim", field, now_ms, lease_ms])
        return _delivery.decode(raw) if raw else None

    async def settle(self, table: str, field: str, now_ms: int, attempt: int, done: set[str], state: str,
                     next_ms: int = 0, error: str = "") -> bool:
        return bool(await self._outbox(keys=[keys.outbox_key(table)],
                                       args=["settle", field, now_ms, attempt, ",".join(sorted(done)), state, next_ms,
                                             error[:300]]))

    async def delivery(self, table: str, field: str) -> Delivery | None:
        raw = await self.redis.hget(keys.outbox_key(table), field)
        return None if raw is None else _delivery.decode(raw)

    async def outbox(self, table: str) -> dict[str, Delivery]:
        raw: Any = await self.redis.hgetall(keys.outbox_key(table))
        return {_text(f): _delivery.decode(v) for f, v in raw.items()}

    # --- the index ---------------------------------------------------------------------------

    async def look_at(self, table: str, at_ms: int | None, only_earlier: bool = False) -> None:
        """Look at `table` again at `at_ms` (None: nothing is pending, forget it)."""
        await self.index.set(table, at_ms, only_earlier)

    async def due(self, now_ms: int, count: int = 100) -> list[str]:
        return await self.index.due(now_ms, count)
