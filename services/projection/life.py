"""What a socket may ask besides its live view: chat, mutes and past positions (history).

The session hands every message after hello that is not a ping to `TableLife.handle`. Chat
rules: a line is 1 to `CHAT_MAX_CHARS` characters of text after trimming (control
characters other than line breaks removed), an author says at most `CHAT_BURST` lines per
`CHAT_WINDOW_MS` (a seat wherever it is connected; a spectator per address), and a seat may
mute any other seat or all spectators for itself. Refusals are error frames that do not
close the socket.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from msgspec import Raw

from shared.protocol.ws import ChatSend, MuteSet, ViewAt, ViewAtReply, encode
from shared.store.chat import SPECTATORS, ChatStore, RateLimited, Target
from shared.store.connect import STORE_ERRORS
from shared.tables import EventStore

from .chat_hub import ChatHub
from .history import HistoryBook
from .table_feed import TableFeed

CHAT_MAX_CHARS = 500
CHAT_BURST = 5
CHAT_WINDOW_MS = 10_000
NAME_MAX_CHARS = 40
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


class LifeSession(Protocol):
    seat: int | None
    feed: TableFeed | None
    remote: str

    def push(self, frame: bytes) -> None: ...

    def error(self, code: str, message: str) -> None: ...


def clean_text(text: str) -> str:
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n")).strip()


class TableLife:
    def __init__(self, chat: ChatHub, chat_store: ChatStore, store: EventStore) -> None:
        self.chat = chat
        self.chat_store = chat_store
        self.store = store
        self.books: dict[str, tuple[TableFeed, HistoryBook]] = {}

    async def joined(self, session: LifeSession) -> None:
        assert session.feed is not None
        await self.chat.join(session.feed.table, session)

    def left(self, session: LifeSession) -> None:
        if session.feed is not None:
            self.chat.leave(session.feed.table, session)
        self._prune()

    def _prune(self) -> None:
        """Drop the history of tables whose feed this process closed (nobody watches them)."""
        for table, (feed, _book) in list(self.books.items()):
            if feed.closed:
                del self.books[table]

    async def handle(self, session: LifeSession, message: Any) -> None:
        feed = session.feed
        assert feed is not None
        try:
            if isinstance(message, ChatSend):
                await self._chat(session, feed, message)
            elif isinstance(message, MuteSet):
                await self._mute(session, feed, message)
            elif isinstance(message, ViewAt):
                await self._view_at(session, feed, message)
        except STORE_ERRORS:
            # The store is away for a moment: this request fails, the connection stays.
            session.error("unavailable", "the table store cannot be reached; try again in a moment")

    # --- chat --------------------------------------------------------------------------------

    async def _chat(self, session: LifeSession, feed: TableFeed, message: ChatSend) -> None:
        text = clean_text(message.text)
        if not text:
            return session.error("chat_empty", "a chat message needs some text")
        if len(text) > CHAT_MAX_CHARS:
            return session.error("chat_too_long", f"a chat message has at most {CHAT_MAX_CHARS} characters, not {len(text)}")
        seat = session.seat
        if seat is None:
            name = clean_text(message.name or "")[:NAME_MAX_CHARS] or "Spectator"
            author = f"s:{session.remote}"
        else:
            name = feed.seat_names[seat] if seat < len(feed.seat_names) else f"seat {seat}"
            author = str(seat)
        try:
            await self.chat_store.post(feed.table, seat, author, name, text, CHAT_WINDOW_MS, CHAT_BURST)
        except RateLimited as exc:
            session.error("chat_rate_limited",
                          f"at most {CHAT_BURST} messages in {CHAT_WINDOW_MS // 1000} seconds; "
                          f"send again in {max(1, -(-exc.retry_ms // 1000))} s")

    async def _mute(self, session: LifeSession, feed: TableFeed, message: MuteSet) -> None:
        seat = session.seat
        target: Target = message.target
        if seat is None:
            return session.error("bad_mute", "spectators cannot mute; take a seat to mute")
        if target != SPECTATORS and (not isinstance(target, int) or not 0 <= target < len(feed.seat_names)):
            return session.error("bad_mute", f"there is no seat {target!r} at this table")
        if target == seat:
            return session.error("bad_mute", "a seat cannot mute itself")
        muted = set(self.chat.muted_by(feed.table, seat))
        if message.muted:
            muted.add(target)
        else:
            muted.discard(target)
        await self.chat_store.set_mutes(feed.table, seat, sorted(muted, key=lambda t: (isinstance(t, str), t)))

    # --- history -----------------------------------------------------------------------------

    def _book(self, feed: TableFeed) -> HistoryBook:
        kept = self.books.get(feed.table)
        if kept is not None and kept[0] is feed:
            return kept[1]
        self._prune()
        assert feed.engine is not None and feed.timeline is not None
        book = HistoryBook(feed.engine, feed.seat_names, feed.timeline.options, feed.timeline.seed)
        self.books[feed.table] = (feed, book)
        return book

    async def _view_at(self, session: LifeSession, feed: TableFeed, message: ViewAt) -> None:
        last = feed.seq
        if message.seq > last:
            return session.error("bad_seq", f"seq {message.seq} is beyond this table's log (it is at {last})")
        book = self._book(feed)
        await book.catch_up(feed.table, self.store, last)
        if book.seq < last:  # the log is gone: compacted (services/game/retention.py)
            return session.error("history_gone", "this table was compacted: only its result and final position "
                                                 "are kept (docs/running.md#retention)")
        view = await book.view_at(message.seq, feed._view_key(session.seat))
        entries = [] if message.entries_after is None else book.index(message.entries_after, last, session.seat)
        session.push(encode(ViewAtReply(id=message.id, seq=message.seq, last_seq=last, view=Raw(view),
                                        entries=entries, round=book.setup_round)))
