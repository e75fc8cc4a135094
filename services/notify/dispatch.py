"""The notifier: runs in every game service replica, looks at the tables whose next notice
may be due (the index), and delivers each turn notice through the seat's channels.

What is due is computed from the log (the turn fold of services/game/clock.py: when each
seat's current turn began, whether a person plays it) and the seat's settings, never kept
in memory alone. Each notice (`<seat>:<turn seq>`) has one record in the table's outbox; a
sender claims it with a lease, marks each channel as it is delivered, and on failure sets
the next try (doubling from ROUNDHOUSE_NOTIFY_RETRY_BASE) until it gives up. A sender that
dies mid-way leaves a lease that expires: another replica, or the restarted one, carries
on with the channels not yet done.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import aiohttp
from redis.exceptions import RedisError

from shared.clock import ClockFold
from shared.games import get_engine
from shared.protocol.http import NotifySettings
from shared.store import FINISHED, TableSummary
from shared.timesource import now_ms

from services.notify.address import webhook_session
from services.notify.send import DeliveryError, Notice, post_webhook, send_mail, signing_key
from services.notify.settings import NotifyConfig

if TYPE_CHECKING:
    from services.game.service import GameService

log = logging.getLogger("roundhouse.notify")


class Notifier:
    def __init__(self, service: GameService, cfg: NotifyConfig) -> None:
        self.service = service
        self.cfg = cfg
        self.http: aiohttp.ClientSession | None = None
        self.delivered = 0  # channels delivered by this process (tests, metrics)

    async def run(self) -> None:
        self.http = webhook_session(self.cfg.private_hosts)
        try:
            while True:
                try:
                    for table in await self.service.notify_store.due(now_ms()):
                        await self.examine(table)
                except (RedisError, OSError) as exc:
                    log.warning("notifier: %s", exc)
                await asyncio.sleep(max(0.01, self.cfg.poll_s))
        finally:
            await self.http.close()

    async def examine(self, table: str) -> None:
        """Deliver what is due at `table` now; then set when to look again."""
        service = self.service
        store = service.notify_store
        for _attempt in range(4):
            meta = await service.store.get_meta(table)
            settings = await store.all(table) if meta is not None else {}
            if meta is None or meta.clock is None or not settings or meta.status == FINISHED or meta.ended:
                await store.look_at(table, None)
                return
            clock = await service.clocks.current(table, meta.clock, len(meta.seats))
            position = (clock.fold.seq, clock.event_id)
            nxt: int | None = None
            for seat, wanted in sorted(settings.items()):
                at = await self._seat(meta, seat, wanted, clock.fold)
                if at is not None:
                    nxt = at if nxt is None else min(nxt, at)
            await store.look_at(table, nxt)
            clock = await service.clocks.current(table, meta.clock, len(meta.seats))
            if (clock.fold.seq, clock.event_id) == position:
                return

    async def _seat(self, meta: TableSummary, seat: int, wanted: NotifySettings, fold: ClockFold) -> int | None:
        """Deliver the seat's notice if it is due; returns when to look at the seat again."""
        if not 0 <= seat < fold.seats or seat not in fold.active or not fold.human[seat]:
            return None
        turn = fold.turn_seq[seat]
        due = fold.turn_start[seat] + wanted.delay_s * 1000
        now = now_ms()
        if due > now:
            return due
        store = self.service.notify_store
        field = f"{seat}:{turn}"
        lease_ms = int(self.cfg.lease_s * 1000)
        claimed = await store.claim(meta.table, field, now, lease_ms)
        if claimed is None:
            record = await store.delivery(meta.table, field)
            if record is None or record.state != "pending":
                return None  # delivered, or given up
            return max(record.next, record.lease)
        done = set(claimed.channels_done)
        notice = self._notice(meta, seat, turn, now - fold.turn_start[seat])
        error = ""
        for channel in self._channels(wanted):
            if channel in done:
                continue
            try:
                await self._deliver(channel, meta.table, seat, wanted, notice)
            except DeliveryError as exc:
                error = str(exc)
                log.info("notice %s via %s failed (attempt %d): %s", notice.id, channel, claimed.attempts, error)
                continue
            done.add(channel)
            self.delivered += 1
            # Each channel recorded as soon as it went: a crash now resends none of them.
            await store.settle(meta.table, field, now_ms(), claimed.attempts, done, "pending")
        if not error:
            await store.settle(meta.table, field, now_ms(), claimed.attempts, done, "sent")
            return None
        if claimed.attempts >= self.cfg.attempts:
            await store.settle(meta.table, field, now_ms(), claimed.attempts, done, "gave_up", error=error)
            return None
        retry = now_ms() + int(self.cfg.retry_base_s * 1000 * 2 ** (claimed.attempts - 1))
        await store.settle(meta.table, field, now_ms(), claimed.attempts, done, "pending", retry, error)
        return retry

    def _channels(self, wanted: NotifySettings) -> list[str]:
        out = []
        if wanted.webhook is not None:
            out.append("webhook")
        if wanted.email and self.cfg.email:
            out.append("email")
        return out

    def _notice(self, meta: TableSummary, seat: int, turn: int, waited_ms: int) -> Notice:
        cfg = self.service.cfg
        try:
            title = get_engine(meta.title).meta.name
        except Exception:  # noqa: BLE001 - a title this server no longer has: its id will do
            title = meta.title
        return Notice(id=f"{meta.table}:{seat}:{turn}", table=meta.table, title=title, title_id=meta.title, seat=seat,
                      name=meta.seats[seat].name, seq=turn, waiting_s=max(0, waited_ms // 1000),
                      link=f"{cfg.public_url}/#table={meta.table}")

    async def _deliver(self, channel: str, table: str, seat: int, wanted: NotifySettings, notice: Notice) -> None:
        if channel == "webhook":
            assert wanted.webhook is not None and self.http is not None
            key = signing_key(self.service.cfg.secret, table, seat)
            await post_webhook(self.http, self.cfg, wanted.webhook.url, wanted.webhook.format, key, notice)
        elif channel == "email":
            assert wanted.email is not None
            await send_mail(self.cfg, wanted.email, notice)
