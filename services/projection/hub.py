"""Every table feed of one process, the stream reader(s) that feed them, and the slow-socket watchdog.

Reader modes (ProjectionSettings.reader):
- "multi": one task blocks on a single XREAD over every live table (`RedisEventStore.tail_tables`:
  each table's log, and its clock stream until the table ends outside the rules).
  When the set of tables changes the blocked read is cancelled and re-issued (redis-py
  drops that connection on cancel; the cursors live here, so nothing is lost).
- "per_table": one task and one blocked connection per table (`RedisEventStore.tail`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from shared.engine import Engine
from shared.games import get_engine
from shared.protocol.ws import ProtocolError
from shared.store import RedisEventStore
from shared.store.connect import REDIS_ERRORS
from shared.tables import FoldedTable, TableRepository

from .metrics import Metrics
from .settings import ProjectionSettings
from .table_feed import Subscriber, TableFeed, UnknownTable

log = logging.getLogger(__name__)

_BACKOFF_MIN, _BACKOFF_MAX = 0.05, 2.0


class StoreUnavailable(Exception):
    pass


class Watched(Subscriber, Protocol):
    def check_stalled(self, now: float) -> None: ...

    async def shutdown(self) -> None: ...


class Hub:
    def __init__(
        self,
        store: RedisEventStore,
        settings: ProjectionSettings,
        metrics: Metrics,
        engine_for: Callable[[str], Engine[Any]] = get_engine,
        send_timeout: float = 5.0,
        tail_store: RedisEventStore | None = None,
    ) -> None:
        self.store = store
        self.tail_store = store if tail_store is None else tail_store
        self.settings = settings
        self.metrics = metrics
        # Opens and folds each feed's table; the feeds, not an LRU, keep them (while watched).
        self.tables: TableRepository[FoldedTable] = TableRepository(store, engine_for=engine_for)
        self.send_timeout = send_timeout
        self.feeds: dict[str, TableFeed] = {}
        self.sessions: set[Watched] = set()
        # Spectator sockets (no seat token) per client address: Config.max_watchers_per_client.
        self.watchers: Counter[str] = Counter()
        self._loading: dict[str, asyncio.Task[None]] = {}
        self._stop_timers: dict[str, asyncio.TimerHandle] = {}
        self._tailers: dict[str, asyncio.Task[None]] = {}  # per_table mode
        self._changed = asyncio.Event()  # multi mode: the table set changed
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        metrics.gauge("sockets", "open WebSocket connections", lambda: len(self.sessions))
        metrics.gauge("feeds", "tables with a live feed in this process", lambda: len(self.feeds))
        metrics.gauge(
            "watchers", "sockets subscribed to a table feed", lambda: sum(f.watcher_count for f in self.feeds.values())
        )

    async def start(self) -> None:
        if self.settings.reader == "multi":
            self._tasks.append(asyncio.create_task(self._multi_reader(), name="projection-reader"))
        self._tasks.append(asyncio.create_task(self._watchdog(), name="projection-watchdog"))

    async def close_sessions(self) -> None:
        await asyncio.gather(*(s.shutdown() for s in list(self.sessions)), return_exceptions=True)

    async def stop(self) -> None:
        self._stopping = True
        for handle in self._stop_timers.values():
            handle.cancel()
        for feed in self.feeds.values():
            feed.closed = True  # read loops end on their next turn even if a cancel got lost
        tasks = [*self._tasks, *self._tailers.values(), *self._loading.values()]
        for task in tasks:
            task.cancel()
        if tasks:
            # Bounded: a client library that turns a cancel into its own error must not hang shutdown.
            await asyncio.wait(tasks, timeout=2.0)
        self._tasks.clear()
        self._tailers.clear()
        self.feeds.clear()

    # --- joining and leaving -------------------------------------------------------------

    async def join(self, table: str, sub: Subscriber, last_seq: int) -> tuple[TableFeed, bool]:
        """Subscribe `sub` to `table` (starting its feed if cold); returns (feed, resumed).

        Raises UnknownTable, StoreUnavailable, or ProtocolError (bad seat).
        """
        feed = self.feeds.get(table)
        if feed is None:
            feed = TableFeed(table, self.tables, self.settings, self.metrics)
            self.feeds[table] = feed
            self._loading[table] = asyncio.create_task(self._load(feed), name=f"projection-load-{table}")
        feed.pending += 1
        self._cancel_stop(table)
        try:
            loading = self._loading.get(table)
            if loading is not None:
                # shield: one joiner giving up must not cancel the load the others wait on
                await asyncio.shield(loading)
            return feed, await feed.attach(sub, last_seq)
        finally:
            feed.pending -= 1
            self._maybe_schedule_stop(feed)

    async def _load(self, feed: TableFeed) -> None:
        try:
            await feed.load()
        except (UnknownTable, ProtocolError):
            self._forget(feed)
            raise
        except Exception as exc:
            self._forget(feed)
            log.exception("table %s: loading failed", feed.table)
            raise StoreUnavailable(str(exc)) from exc
        finally:
            self._loading.pop(feed.table, None)
        if self.settings.reader == "multi":
            self._changed.set()
        else:
            self._tailers[feed.table] = asyncio.create_task(self._tail_one(feed), name=f"projection-tail-{feed.table}")

    def leave(self, feed: TableFeed, sub: Subscriber) -> None:
        feed.detach(sub)
        self._maybe_schedule_stop(feed)

    def _maybe_schedule_stop(self, feed: TableFeed) -> None:
        if feed.closed or feed.watchers or feed.pending or feed.table in self._stop_timers:
            return
        if self.feeds.get(feed.table) is not feed:
            return
        loop = asyncio.get_running_loop()
        self._stop_timers[feed.table] = loop.call_later(self.settings.feed_grace, self._stop_feed, feed)

    def _cancel_stop(self, table: str) -> None:
        handle = self._stop_timers.pop(table, None)
        if handle is not None:
            handle.cancel()

    def _stop_feed(self, feed: TableFeed) -> None:
        self._stop_timers.pop(feed.table, None)
        if feed.watchers or feed.pending:
            return
        self._forget(feed)

    def _forget(self, feed: TableFeed) -> None:
        feed.closed = True
        if self.feeds.get(feed.table) is feed:
            del self.feeds[feed.table]
        tailer = self._tailers.pop(feed.table, None)
        if tailer is not None:
            tailer.cancel()
        # No re-arm in multi mode: the next read is issued without this table anyway.

    # --- readers -------------------------------------------------------------------------

    def _live_cursors(self) -> dict[str, int]:
        return {t: f.seq for t, f in self.feeds.items() if t not in self._loading and not f.closed}

    def _clock_cursors(self, tables: dict[str, int]) -> dict[str, str]:
        """The clock streams to follow beside the logs: those of tables that have not ended
        (the one clock event a feed acts on ends the table)."""
        return {t: self.feeds[t].clock_cursor for t in tables if self.feeds[t].ended is None}

    async def _clock_news(self, feed: TableFeed, events: list[Any]) -> None:
        try:
            await feed.clock_news(events)
        except REDIS_ERRORS as exc:  # read again from the same cursor next time
            _log_read_error(exc, "table %s: reading its end failed", feed.table)

    async def _multi_reader(self) -> None:
        backoff = _BACKOFF_MIN
        changed_wait: asyncio.Task[Any] | None = None
        while not self._stopping:
            self._changed.clear()
            cursors = self._live_cursors()
            if not cursors:
                await self._changed.wait()
                continue
            read = asyncio.create_task(self.tail_store.tail_tables(cursors, self._clock_cursors(cursors),
                                                                   self.settings.block_ms))
            if changed_wait is None or changed_wait.done():
                changed_wait = asyncio.create_task(self._changed.wait())
            try:
                await asyncio.wait((read, changed_wait), return_when=asyncio.FIRST_COMPLETED)
            except asyncio.CancelledError:
                _discard(read)
                _discard(changed_wait)
                raise
            if not read.done():
                # The table set changed: drop this read (its cursors are stale) and re-arm.
                read.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await read
                self.metrics.inc("reader_rearms_total")
                continue
            try:
                batches = read.result()
            except Exception as exc:
                self.metrics.inc("reader_errors_total")
                _log_read_error(exc, "stream read failed; retrying in %.2fs", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, _BACKOFF_MAX)
                continue
            backoff = _BACKOFF_MIN
            for table, entries in batches.entries.items():
                feed = self.feeds.get(table)
                if feed is not None and not feed.closed and entries:
                    feed.ingest(entries)
                    # Let the socket writers send this table's frames before folding the next table.
                    await asyncio.sleep(0)
            for table, events in batches.clock.items():  # after the entries they follow
                feed = self.feeds.get(table)
                if feed is not None and not feed.closed:
                    await self._clock_news(feed, events)

    async def _tail_one(self, feed: TableFeed) -> None:
        backoff = _BACKOFF_MIN
        while not feed.closed:
            try:
                tailed = await self.tail_store.tail_tables({feed.table: feed.seq}, self._clock_cursors({feed.table: 0}),
                                                           self.settings.block_ms)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.metrics.inc("reader_errors_total")
                _log_read_error(exc, "table %s: stream read failed; retrying in %.2fs", feed.table, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, _BACKOFF_MAX)
                continue
            backoff = _BACKOFF_MIN
            entries = tailed.entries.get(feed.table)
            if entries and not feed.closed:
                feed.ingest(entries)
            events = tailed.clock.get(feed.table)
            if events and not feed.closed:
                await self._clock_news(feed, events)

    # --- slow consumers ------------------------------------------------------------------

    async def _watchdog(self) -> None:
        """Drop sockets whose current write has been stuck longer than the send timeout."""
        loop = asyncio.get_running_loop()
        period = max(0.02, min(0.25, self.send_timeout / 4))
        while not self._stopping:
            await asyncio.sleep(period)
            now = loop.time()
            for session in list(self.sessions):
                session.check_stalled(now)


def _log_read_error(exc: Exception, message: str, *args: object) -> None:
    """Redis being down is an operational state (one line per table), anything else a bug."""
    if isinstance(exc, REDIS_ERRORS):
        log.warning(message + ": %s", *args, " ".join(str(exc).split()) or type(exc).__name__)
    else:
        log.error(message, *args, exc_info=exc)


def join_error_code(exc: Exception) -> tuple[str, str]:
    if isinstance(exc, UnknownTable):
        return "unknown_table", f"no table {exc.args[0]!r}"
    return "unavailable", "the table store cannot be reached; reconnect later"


def _discard(task: asyncio.Task[Any]) -> None:
    """Cancel a task nobody will await. At shutdown the read may already have failed (its
    connection closed under it); retrieving the outcome keeps asyncio from logging
    "Task exception was never retrieved" with a traceback."""
    task.cancel()
    task.add_done_callback(lambda t: t.cancelled() or t.exception())
