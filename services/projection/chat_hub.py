"""Table chat in the projection: one reader for the chat streams of every table this process
has sockets at, and the fan-out of each line to the table's sockets (leaving out sockets
whose seat muted the author).

The chat of a table is loaded when its first socket joins (the recent lines and the mutes,
in one transaction) and then followed from the last id read, so a joiner's `chat_log` and
the live lines after it have no gap and no overlap. A mute travels through the same stream,
so every replica applies it at the same point.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Protocol

from shared.protocol.ws import ChatLine, ChatLog, Mutes, encode
from shared.store.chat import SPECTATORS, ChatEvent, ChatStore, Line, MuteChange, Target

log = logging.getLogger(__name__)

RECENT_LINES = 100  # lines a joiner gets in its chat_log
_BACKOFF_MIN, _BACKOFF_MAX = 0.05, 2.0


class ChatSubscriber(Protocol):
    seat: int | None

    def push(self, frame: bytes) -> None: ...


def _line(line: Line) -> ChatLine:
    return ChatLine(id=line.id, seat=line.seat, name=line.name, text=line.text, t=line.t)


class TableChat:
    def __init__(self, table: str) -> None:
        self.table = table
        self.cursor = "0-0"
        self.lines: deque[Line] = deque(maxlen=RECENT_LINES)
        self.mutes: dict[int, set[Target]] = {}
        self.subs: set[ChatSubscriber] = set()
        self.loaded = asyncio.Event()

    def hides(self, viewer: int | None, line: Line) -> bool:
        if viewer is None:
            return False
        muted = self.mutes.get(viewer)
        if not muted:
            return False
        return (SPECTATORS if line.seat is None else line.seat) in muted

    def muted_by(self, seat: int | None) -> list[Target]:
        if seat is None:
            return []
        return sorted(self.mutes.get(seat, ()), key=lambda t: (isinstance(t, str), t))

    def apply(self, event: ChatEvent) -> None:
        if isinstance(event, Line):
            self.lines.append(event)
            frame = encode(_line(event))
            for sub in list(self.subs):
                if not self.hides(sub.seat, event):
                    sub.push(frame)
        elif isinstance(event, MuteChange):
            self.mutes[event.seat] = set(event.muted)
            frame = encode(Mutes(muted=self.muted_by(event.seat)))
            for sub in list(self.subs):
                if sub.seat == event.seat:
                    sub.push(frame)


class ChatHub:
    def __init__(self, store: ChatStore, tail_store: ChatStore, block_ms: int) -> None:
        self.store = store
        self.tail_store = tail_store
        self.block_ms = block_ms
        self.chats: dict[str, TableChat] = {}
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._reader(), name="projection-chat-reader")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task], timeout=2.0)

    async def join(self, table: str, sub: ChatSubscriber) -> None:
        """Register `sub` and queue its chat_log (the recent lines it may see, its mutes)."""
        chat = self.chats.get(table)
        if chat is None:
            chat = self.chats[table] = TableChat(table)
            try:
                mutes, events, chat.cursor = await self.store.load(table, RECENT_LINES * 2)
            except BaseException:
                del self.chats[table]
                chat.loaded.set()
                raise
            chat.mutes = {seat: set(m) for seat, m in mutes.items()}
            chat.lines.extend(e for e in events if isinstance(e, Line))
            chat.loaded.set()
            self._changed.set()
        else:
            await chat.loaded.wait()
            if self.chats.get(table) is not chat:
                return await self.join(table, sub)
        chat.subs.add(sub)
        lines = [_line(line) for line in chat.lines if not chat.hides(sub.seat, line)]
        sub.push(encode(ChatLog(lines=lines, muted=chat.muted_by(sub.seat))))

    def leave(self, table: str, sub: ChatSubscriber) -> None:
        chat = self.chats.get(table)
        if chat is None:
            return
        chat.subs.discard(sub)
        if not chat.subs:
            del self.chats[table]
            self._changed.set()

    def muted_by(self, table: str, seat: int) -> list[Target]:
        chat = self.chats.get(table)
        return [] if chat is None else chat.muted_by(seat)

    async def _reader(self) -> None:
        backoff = _BACKOFF_MIN
        while True:
            self._changed.clear()
            cursors = {t: c.cursor for t, c in self.chats.items() if c.loaded.is_set()}
            if not cursors:
                await self._changed.wait()
                continue
            read = asyncio.create_task(self.tail_store.tail_many(cursors, self.block_ms))
            changed = asyncio.create_task(self._changed.wait())
            try:
                await asyncio.wait((read, changed), return_when=asyncio.FIRST_COMPLETED)
            finally:
                changed.cancel()
            if not read.done():
                read.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await read
                continue
            try:
                batches = read.result()
            except Exception as exc:  # Redis down: keep the cursors, retry
                log.warning("chat read failed (%s); retrying in %.2fs", type(exc).__name__, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, _BACKOFF_MAX)
                continue
            backoff = _BACKOFF_MIN
            for table, (events, last) in batches.items():
                chat = self.chats.get(table)
                if chat is None or chat.cursor != cursors.get(table):
                    continue  # left (or re-loaded) while the read was out
                chat.cursor = last
                for event in events:
                    chat.apply(event)


