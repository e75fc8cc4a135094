"""One WebSocket connection: the hello handshake, its own send queue and writer, and the
slow-consumer rule.

Frames reach a session through `push` (never awaited by the sender). A writer task drains
the queue to the socket; if one write stays blocked longer than `ws_send_timeout`, or the
queue grows past `max_queue_bytes`, the socket is dropped (transport aborted) so the
table's other sockets never wait for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Iterator
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from shared.auth import TokenError, verify
from shared.config import Config
from shared.protocol.ws import (
    CLOSE_GOING_AWAY,
    CLOSE_INTERNAL,
    CLOSE_POLICY,
    Hello,
    Ping,
    Pong,
    ProtocolError,
    decode_client,
    encode,
    error_frame,
)

from services.http.errors import log_bug
from services.http.guard import client_key

from .hub import Hub, StoreUnavailable, join_error_code
from .life import TableLife
from .masking import MaskCheck, MaskedOnly
from .metrics import Metrics
from .settings import ProjectionSettings
from .table_feed import SeatKey, TableFeed, UnknownTable

log = logging.getLogger(__name__)

_CLOSE_TRY_AGAIN_LATER = 1013
CLOSE_PROTOCOL_ERROR = 1002


class _Socket(web.WebSocketResponse):
    """aiohttp closes with 1009 by itself on an oversized frame; say why in an error frame first."""

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"", drain: bool = True) -> bool:
        if code == WSCloseCode.MESSAGE_TOO_BIG and not self.closed:
            with contextlib.suppress(Exception):
                text = "a frame exceeded the server's size limit"
                await self.send_frame(error_frame("frame_too_large", text, fatal=True), WSMsgType.TEXT)
            message = message or b"frame_too_large"
        return await super().close(code=code, message=message, drain=drain)

    def _post_start(self, request: Any, protocol: str | None, writer: Any) -> None:
        # Frames that came with the upgrade request reach the reader inside super(): checked
        # here first; the rest through MaskedOnly (see masking.py).
        check = MaskCheck()
        handler = request.protocol
        if not check.feed(bytes(handler._message_tail)):
            handler._message_tail = b""
            super()._post_start(request, protocol, writer)
            self._refuse_unmasked(request)
            return
        super()._post_start(request, protocol, writer)
        handler._payload_parser = MaskedOnly(handler._payload_parser, check, lambda: self._refuse_unmasked(request))

    def _refuse_unmasked(self, request: Any) -> None:
        """Close 1002 at once: nothing more this client sends is read."""
        log.info("closing a WebSocket from %s: it sent an unmasked frame", request.remote)
        transport = request.transport
        if transport is None or transport.is_closing():
            return
        reason = b"unmasked_frame"
        transport.write(bytes([0x88, 2 + len(reason)]) + CLOSE_PROTOCOL_ERROR.to_bytes(2, "big") + reason)
        transport.close()


class Session:
    def __init__(
        self, request: web.Request, hub: Hub, cfg: Config, settings: ProjectionSettings, metrics: Metrics,
        life: TableLife | None = None,
    ) -> None:
        self.request = request
        self.life = life
        self.remote = request.remote or "unknown"
        self.chatting = False  # subscribed to the table's chat (hello.chat)
        self.hub = hub
        self.cfg = cfg
        self.settings = settings
        self.metrics = metrics
        self.ws = _Socket(
            heartbeat=settings.heartbeat or None,
            max_msg_size=cfg.max_body,
            compress=settings.compress,
        )
        self.seat: SeatKey = None
        self.watcher_of: str | None = None  # the client address a spectator socket counts against
        self.feed: TableFeed | None = None
        self.queue: deque[bytes | Iterator[bytes]] = deque()  # iterators: replays made on demand
        self.queued_bytes = 0
        self.sending_since: float | None = None  # loop time the blocked write began
        self.dropped = False
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    # --- sending -------------------------------------------------------------------------

    def push(self, frame: bytes) -> None:
        if self.dropped:
            return
        self.queue.append(frame)
        self.queued_bytes += len(frame)
        if self.queued_bytes > self.settings.max_queue_bytes:
            self.drop(f"{self.queued_bytes} bytes queued")
            return
        self._idle.clear()
        self._wake.set()

    def push_lazy(self, frames: Iterator[bytes]) -> None:
        if self.dropped:
            return
        self.queue.append(frames)
        self._idle.clear()
        self._wake.set()

    async def _write_loop(self) -> None:
        loop = asyncio.get_running_loop()
        ws, queue, metrics = self.ws, self.queue, self.metrics
        try:
            while True:
                if not queue:
                    self._idle.set()
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                head = queue[0]
                if isinstance(head, bytes):
                    queue.popleft()
                    frame = head
                    self.queued_bytes -= len(frame)
                else:
                    made = next(head, None)
                    if made is None:
                        queue.popleft()
                        continue
                    frame = made
                self.sending_since = loop.time()
                await ws.send_frame(frame, WSMsgType.TEXT)
                self.sending_since = None
                metrics.counts["frames_sent_total"] += 1
                metrics.counts["bytes_sent_total"] += len(frame)
        except (ConnectionError, RuntimeError):
            # The peer went away; the receive loop sees the close and cleans up.
            self.queue.clear()
            self._idle.set()

    async def flush(self, timeout: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)

    def check_stalled(self, now: float) -> None:
        since = self.sending_since
        if since is not None and now - since > self.cfg.ws_send_timeout:
            self.drop(f"one write blocked for {now - since:.1f}s")

    def drop(self, why: str) -> None:
        """Cut a client that does not read: no close handshake (it would block too)."""
        if self.dropped:
            return
        self.dropped = True
        self.metrics.inc("slow_clients_dropped_total")
        log.info("dropping slow WebSocket client (%s): %s", self.request.remote, why)
        self.queue.clear()
        self.queued_bytes = 0
        if self.feed is not None:
            self.hub.leave(self.feed, self)
        if self._writer is not None:
            self._writer.cancel()
        transport = self.request.transport
        if transport is not None:
            transport.abort()

    async def fail(self, code: str, message: str, close_code: int = CLOSE_POLICY) -> None:
        """Send a fatal error frame, then close."""
        self.metrics.error(code)
        self.push(error_frame(code, message, fatal=True))
        await self.flush(self.cfg.ws_send_timeout)
        await self.ws.close(code=close_code, message=code.encode())

    def error(self, code: str, message: str) -> None:
        self.metrics.error(code)
        self.push(error_frame(code, message))

    async def shutdown(self) -> None:
        """Server stopping: ask the client to come back (it resumes from its last seq)."""
        if self.dropped or self.ws.closed:
            return
        try:
            await asyncio.wait_for(self.ws.close(code=CLOSE_GOING_AWAY, message=b"server shutdown"), 1.0)
        except (TimeoutError, ConnectionError):
            self.drop("did not close on shutdown")

    # --- the connection ------------------------------------------------------------------

    async def run(self) -> web.WebSocketResponse:
        await self.ws.prepare(self.request)
        self.hub.sessions.add(self)
        self.metrics.inc("sockets_opened_total")
        self._writer = asyncio.create_task(self._write_loop())
        try:
            hello = await self._receive_hello()
            if hello is not None and await self._join(hello):
                if self.life is not None and hello.chat:
                    self.chatting = True
                    await self.life.joined(self)
                await self._serve()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bug: say so in a frame, log one line
            log_bug(f"websocket from {self.request.remote}", exc)
            if not self.ws.closed and not self.dropped:
                with contextlib.suppress(Exception):
                    await self.fail("internal_error", "internal error; see the server log", CLOSE_INTERNAL)
        finally:
            self.hub.sessions.discard(self)
            if self.life is not None and self.chatting:
                self.life.left(self)
            self._unwatch()
            if self.feed is not None:
                self.hub.leave(self.feed, self)
            self._writer.cancel()
        return self.ws

    async def _receive_hello(self) -> Hello | None:
        try:
            msg = await self.ws.receive(timeout=self.settings.hello_timeout)
        except TimeoutError:
            await self.fail("hello_timeout", f"send hello within {self.settings.hello_timeout:g}s of connecting")
            return None
        if msg.type == WSMsgType.BINARY:
            await self.fail("binary_not_supported", "send JSON text frames")
            return None
        if msg.type != WSMsgType.TEXT:
            return None  # closed, or aiohttp already closed it (oversized frame)
        try:
            hello = decode_client(msg.data)
        except ProtocolError as exc:
            code = "bad_hello" if exc.code == "bad_message" else exc.code
            await self.fail(code, exc.message)
            return None
        if not isinstance(hello, Hello):
            await self.fail("bad_hello", "the first message must be hello")
            return None
        return hello

    async def _join(self, hello: Hello) -> bool:
        if hello.token is not None:
            try:
                claim = verify(self.cfg.secret, hello.token)
            except TokenError as exc:
                await self.fail("bad_token", str(exc))
                return False
            if claim.table != hello.table:
                await self.fail("wrong_table", f"this seat token is for table {claim.table!r}, not {hello.table!r}")
                return False
            self.seat = claim.seat
        elif not self._watch():
            cap = self.cfg.max_watchers_per_client
            await self.fail("too_many_watchers", f"this address watches {cap} tables without a seat token already; "
                                                 "close some first", _CLOSE_TRY_AGAIN_LATER)
            return False
        try:
            feed, _resumed = await self.hub.join(hello.table, self, hello.last_seq)
        except (UnknownTable, StoreUnavailable) as exc:
            code, message = join_error_code(exc)
            await self.fail(code, message, CLOSE_POLICY if code == "unknown_table" else _CLOSE_TRY_AGAIN_LATER)
            return False
        except ProtocolError as exc:
            await self.fail(exc.code, exc.message)
            return False
        self.feed = feed
        if self.dropped:
            self.hub.leave(feed, self)
            return False
        return True

    def _watch(self) -> bool:
        """Count this spectator against its address; False over the cap."""
        cap = self.cfg.max_watchers_per_client
        key = client_key(self.request, self.cfg)
        if cap and self.hub.watchers[key] >= cap:
            return False
        self.hub.watchers[key] += 1
        self.watcher_of = key
        return True

    def _unwatch(self) -> None:
        key, self.watcher_of = self.watcher_of, None
        if key is not None:
            self.hub.watchers[key] -= 1
            if self.hub.watchers[key] <= 0:
                del self.hub.watchers[key]

    async def _serve(self) -> None:
        async for msg in self.ws:
            if msg.type == WSMsgType.TEXT:
                try:
                    message = decode_client(msg.data)
                except ProtocolError as exc:
                    self.error("bad_message", exc.message)
                    continue
                if isinstance(message, Ping):
                    self.push(encode(Pong(id=message.id)))
                elif isinstance(message, Hello) or self.life is None:
                    self.error("duplicate_hello", "this connection already said hello; open a new one to switch")
                else:
                    await self.life.handle(self, message)
            elif msg.type == WSMsgType.BINARY:
                self.error("binary_not_supported", "send JSON text frames")
            elif msg.type == WSMsgType.ERROR:
                break


async def handle(request: web.Request, hub: Hub, cfg: Config, settings: ProjectionSettings, metrics: Metrics,
                 life: TableLife | None = None) -> web.WebSocketResponse:
    return await Session(request, hub, cfg, settings, metrics, life).run()
