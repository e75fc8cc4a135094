"""One table's live state in this process, shared by every socket watching it.

A feed folds the table's log with the engine's `Timeline` and fans each new entry out:
per distinct seat watching (plus one for all spectators) one `engine.view`, one JSON Patch
from that seat's previous view (shared/protocol/json_patch.py) and one encoded frame,
pushed to each socket's own queue. Nothing here awaits a socket, so one slow client never
delays the others.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Iterable, Iterator
from typing import Any, Protocol

import msgspec
from msgspec import Raw

from shared.clock import ClockEvent
from shared.engine import Engine, Result, RuleError, ended_patch, ended_view, served_view, shown_to_others
from shared.protocol.json_patch import diff
from shared.protocol.ws import PROTOCOL_VERSION, Ended, ProtocolError, Update, Welcome, encode, error_frame
from shared.store import UnknownTable as StoreUnknownTable
from shared.tables import FOLD_CHUNK, EventStore, LogBroken, LogGap, TableRepository, fold_entry
from shared.timeline import Timeline

from .metrics import Metrics
from .settings import ProjectionSettings

log = logging.getLogger(__name__)

SeatKey = int | None  # None = spectator
_COLD_FOLD_CHUNK = FOLD_CHUNK  # entries folded between yields to the event loop on a cold replay


class UnknownTable(Exception):
    pass


class Subscriber(Protocol):
    seat: SeatKey

    def push(self, frame: bytes) -> None: ...

    def push_lazy(self, frames: Iterator[bytes]) -> None:
        """Queue frames produced on demand, in order, before anything pushed later."""


class Entry(msgspec.Struct, array_like=True):
    """A folded log entry and the state right after it (kept for replays)."""

    seq: int
    seat: int
    action: bytes  # canonical JSON of the action, for its own seat
    public: bytes  # the action as other seats and spectators are told of it (Engine.sealed)
    t: int
    state: Any


Replay = tuple[Any, list[Entry]]  # (state at the client's last seq, the entries after it)


class TableFeed:
    def __init__(
        self,
        table: str,
        tables: TableRepository[Any],
        settings: ProjectionSettings,
        metrics: Metrics,
    ) -> None:
        self.table = table
        self.tables = tables  # opens the table; the feed keeps it folded while it is watched
        self.store: EventStore = tables.store
        self.settings = settings
        self.metrics = metrics
        self.seq = 0
        self.title = ""
        self.seat_names: list[str] = []
        self.engine: Engine[Any] | None = None
        self.public_view = False  # the title shows every seat the same view (see _view_key)
        self.timeline: Timeline[Any] | None = None
        self.watchers: dict[SeatKey, set[Subscriber]] = {}
        self.history: deque[Entry] = deque(maxlen=max(1, settings.history))
        self._history_base: tuple[int, Any] = (0, None)  # (seq, state) just before history[0]
        # Views at self.seq, per seat key: the objects are the base of the next update's
        # patches (kept for every watched key), the bytes serve fresh welcomes.
        self._views: dict[SeatKey, Any] = {}
        self._view_bytes: dict[SeatKey, bytes] = {}
        self._advanced = asyncio.Event()  # set whenever seq moves; waiters re-check
        self.pending = 0  # joiners between hub.join and attach (keep the feed alive meanwhile)
        self.closed = False
        self.broken: LogBroken | None = None  # the log stopped folding at this entry
        # The table ended outside the rules (a clock ran out, on_timeout=abandon): the standings
        # then. Learnt from the meta at load and from the clock stream, read after `clock_cursor`.
        self.ended: Result | None = None
        self.clock_cursor = "0-0"

    # --- loading -------------------------------------------------------------------------

    async def load(self) -> None:
        """Build state with the table repository: meta, usable snapshot, the log after it."""
        try:
            loaded = await self.tables.open(self.table, fold_log=False)
        except StoreUnknownTable:
            raise UnknownTable(self.table) from None
        except RuleError as exc:
            raise ProtocolError("unsupported_title", f"this server cannot show tables of this title: {exc.message}") from None
        except LogBroken as exc:
            log.error("%s", exc)
            raise ProtocolError(exc.code, exc.message) from None
        meta = loaded.meta
        self.title = meta.title
        self.engine = loaded.engine
        self.public_view = self.engine.meta.public_view
        self.seat_names = [s.name for s in meta.seats]
        self._meta = meta
        self.ended = meta.ended
        self.timeline = loaded.timeline
        self.seq = self.timeline.length
        self._history_base = (self.seq, self.timeline.state)
        self.ingest(await self.store.read(self.table, self.seq))  # kept in the history for resumes

    def _new_timeline(self) -> Timeline[Any]:
        assert self.engine is not None
        meta = self._meta
        return Timeline(self.engine, self.seat_names, dict(meta.options), meta.seed)

    # --- folding and fan-out -------------------------------------------------------------

    def _fold(self, timeline: Timeline[Any], entry: Any) -> tuple[Any, bytes, bytes]:
        """Fold one logged entry; returns (state, canonical action JSON, what others are told
        of it). LogBroken/LogGap. The stored bytes are canonical already (the game service
        wrote `encode_action` of the decoded action): they are passed on, not re-encoded."""
        state, action = fold_entry(timeline, entry, self.table)
        canonical = entry.action
        assert self.engine is not None
        return state, canonical, shown_to_others(self.engine, action, canonical)

    def ingest(self, entries: Iterable[Any]) -> None:
        """Fold new log entries in order and push one update per entry to every watcher."""
        timeline = self.timeline
        assert timeline is not None
        for e in entries:
            if e.seq <= self.seq:
                continue  # already folded (a re-armed read can overlap)
            if e.seq != self.seq + 1:
                # The store's seqs have no gaps; a hole means a lost read. Stop here and let
                # the next read (from self.seq) fetch what is missing.
                log.error("table %s: expected seq %d, got %d; re-reading", self.table, self.seq + 1, e.seq)
                break
            before, views_before = timeline.state, self._views
            try:
                state, action, public = self._fold(timeline, e)
            except LogBroken as exc:
                self._broken(exc)
                break
            entry = Entry(e.seq, e.seat, action, public, e.t_ms, state)
            self.seq = e.seq
            if len(self.history) == self.history.maxlen:
                dropped = self.history[0]
                self._history_base = (dropped.seq, dropped.state)
            self.history.append(entry)
            self._views, self._view_bytes = {}, {}
            self.metrics.inc("updates_folded_total")
            if self.watchers:
                self._fan_out(entry, before, views_before)
        self._advanced.set()
        self._advanced.clear()

    def _broken(self, exc: LogBroken) -> None:
        """The rules refuse a logged entry: mark the table, tell every watcher, fold no more."""
        log.error("%s", exc)
        self.metrics.inc("fold_errors_total")
        self.broken = exc
        assert self.engine is not None
        task = asyncio.ensure_future(self.tables.mark(exc, self.engine))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        frame = error_frame(exc.code, exc.message, fatal=True)
        for subs in self.watchers.values():
            for sub in list(subs):
                sub.push(frame)

    def _fan_out(self, entry: Entry, before: Any, views_before: dict[SeatKey, Any]) -> None:
        """One patch and one frame per watched seat key, from its view before `entry`."""
        for key, subs in list(self.watchers.items()):
            view = self._view(entry.state, key)
            old = views_before.get(key)
            if old is None:  # a key nobody watched at the previous seq (a resumed socket)
                old = self._view(before, key)
            self._views[key] = view
            frame = _update_frame(entry, _patch(old, view), key)
            for sub in list(subs):
                sub.push(frame)

    def _view(self, state: Any, seat: SeatKey) -> Any:
        assert self.engine is not None
        self.metrics.inc("views_computed_total")
        return served_view(self.engine, state, seat)

    def current_view(self, seat: SeatKey) -> bytes:
        """The encoded view at self.seq (for a fresh welcome); its object stays as the next patch's base."""
        data = self._view_bytes.get(seat)
        if data is None:
            view = self._views.get(seat)
            if view is None:
                assert self.timeline is not None
                view = self._views[seat] = self._view(self.timeline.state, seat)
            # `_views` stays the engine's view (the base of patches); only what is sent shows the end.
            data = self._view_bytes[seat] = msgspec.json.encode(view if self.ended is None else ended_view(view, self.ended))
        return data

    # --- the end outside the rules -----------------------------------------------------------

    async def clock_news(self, events: list[ClockEvent]) -> None:
        """Clock events read from the table's clock stream. A timeout that abandoned the table
        ends the feed with the standings, which the same script wrote to the meta. The cursor
        moves only once that is done: a failed meta read leaves the event to be read again."""
        if not events:
            return
        if any(e.kind == "timeout" and e.outcome == "abandon" for e in events):
            meta = await self.store.get_meta(self.table)
            if meta is not None and meta.ended is not None:
                self.end(meta.ended)
        self.clock_cursor = events[-1].id

    def end(self, result: Result) -> None:
        """The table ended outside the rules: every watcher gets the result, fresh welcomes
        show it, and nothing more will be appended (the store refuses it)."""
        if self.ended is not None:
            return
        self.ended = result
        self._view_bytes = {}
        frame = self._ended_frame(result)
        for subs in self.watchers.values():
            for sub in list(subs):
                sub.push(frame)
        self.metrics.inc("tables_ended_total")

    def _ended_frame(self, result: Result) -> bytes:
        return encode(Ended(seq=self.seq, result=Raw(msgspec.json.encode(result)),
                            patch=Raw(msgspec.json.encode(ended_patch(result)))))

    # --- joining -------------------------------------------------------------------------

    def check_seat(self, seat: SeatKey) -> None:
        if seat is not None and not 0 <= seat < len(self.seat_names):
            raise ProtocolError("bad_token", f"seat {seat} does not exist at table {self.table}")

    async def attach(self, sub: Subscriber, last_seq: int) -> bool:
        """Queue the welcome (and any replay) for `sub`, then register it for live updates.

        Returns True when the client resumed from `last_seq` (replay), False for a fresh
        welcome. The frames and the registration happen in one step of the event loop, so
        no update can fall between the replay and the live stream.
        """
        self.check_seat(sub.seat)
        if self.broken is not None:
            raise ProtocolError(self.broken.code, self.broken.message)
        if last_seq > self.seq:
            await self._catch_up_to(last_seq)
        if 0 < last_seq <= self.seq and self.seq - last_seq <= self.settings.replay_limit:
            replay = self._replay_from_memory(last_seq)
            if replay is None:
                replay = await self._replay_cold(last_seq)
            if replay is not None:
                base, entries = replay
                self._welcome(sub, last_seq, None)
                if entries:
                    sub.push_lazy(self._replay_frames(base, entries, self._view_key(sub.seat)))
                if self.ended is not None:
                    sub.push(self._ended_frame(self.ended))  # its view at seq has no result yet
                self._register(sub)
                self.metrics.inc("resumes_total")
                return True
        self._welcome(sub, self.seq, self.current_view(self._view_key(sub.seat)))
        self._register(sub)
        self.metrics.inc("welcomes_total")
        return False

    def _replay_frames(self, base: Any, entries: list[Entry], key: SeatKey) -> Iterator[bytes]:
        """Replay frames made as the socket takes them, each the patch from the view before
        it (`base` is the state at the client's last seq): its views cost CPU only as fast
        as the client reads, and only two are held at a time."""
        old = self._view(base, key)
        for entry in entries:
            view = self._view(entry.state, key)
            yield _update_frame(entry, _patch(old, view), key)
            old = view

    def _welcome(self, sub: Subscriber, seq: int, view: bytes | None) -> None:
        sub.push(
            encode(
                Welcome(
                    v=PROTOCOL_VERSION,
                    table=self.table,
                    title=self.title,
                    seat=sub.seat,
                    seq=seq,
                    resumed=view is None,
                    view=None if view is None else Raw(view),
                )
            )
        )

    def _view_key(self, seat: SeatKey) -> SeatKey:
        """Whose view a socket of `seat` gets. A title without hidden information (engine
        attribute `public_view`) shows everyone the spectator's view, so one view and one
        frame per update serve every socket of the table instead of one per seat."""
        return None if self.public_view else seat

    def _register(self, sub: Subscriber) -> None:
        self.watchers.setdefault(self._view_key(sub.seat), set()).add(sub)

    def detach(self, sub: Subscriber) -> None:
        key = self._view_key(sub.seat)
        subs = self.watchers.get(key)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.watchers[key]

    @property
    def watcher_count(self) -> int:
        return sum(len(s) for s in self.watchers.values())

    async def _catch_up_to(self, seq: int, timeout: float = 2.0) -> None:
        """The client saw `seq` (perhaps from another replica); wait briefly for our reader.

        A `seq` beyond the store's end is bogus and is answered with a fresh welcome.
        """
        if seq > await self.store.last_seq(self.table):
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.seq < seq and not self.closed:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            try:
                await asyncio.wait_for(self._advanced.wait(), remaining)
            except TimeoutError:
                return

    def _replay_from_memory(self, last_seq: int) -> Replay | None:
        """The state at `last_seq` and the entries after it, from the memory history."""
        if last_seq == self.seq:
            return None, []
        base_seq, base = self._history_base
        if last_seq != base_seq:
            if not self.history or self.history[0].seq > last_seq:
                return None  # the state at last_seq (the patches' base) is not kept any more
            base = next(e.state for e in self.history if e.seq == last_seq)
        return base, [e for e in self.history if e.seq > last_seq]

    async def _replay_cold(self, last_seq: int) -> Replay | None:
        """Re-fold the log from setup to recover states older than the memory history."""
        self.metrics.inc("cold_replays_total")
        timeline = self._new_timeline()
        entries = await self.store.read(self.table, 0)
        base: Any = None
        out: list[Entry] = []
        for i, e in enumerate(entries):
            if e.seq > self.seq:
                break  # the feed has not folded this yet; it will arrive live
            try:
                state, action, public = self._fold(timeline, e)
            except (LogBroken, LogGap):
                return None
            if e.seq == last_seq:
                base = state
            elif e.seq > last_seq:
                out.append(Entry(e.seq, e.seat, action, public, e.t_ms, state))
            if i % _COLD_FOLD_CHUNK == _COLD_FOLD_CHUNK - 1:
                await asyncio.sleep(0)
        # Entries the feed folded while we worked come from memory history.
        top = out[-1].seq if out else last_seq
        out.extend(e for e in self.history if e.seq > top)
        if base is None or [e.seq for e in out] != list(range(last_seq + 1, self.seq + 1)):
            return None
        return base, out


def _patch(old: Any, new: Any) -> bytes:
    return msgspec.json.encode(diff(old, new))


def _update_frame(entry: Entry, patch: bytes, key: SeatKey) -> bytes:
    action = entry.action if key == entry.seat else entry.public
    return encode(Update(seq=entry.seq, seat=entry.seat, action=Raw(action), t=entry.t, patch=Raw(patch)))
