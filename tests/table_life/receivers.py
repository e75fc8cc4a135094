"""Local receivers for turn notices, on loopback only: a webhook endpoint that records every
POST (and can answer 500 to the first ones), and an SMTP server (aiosmtpd) that keeps every
message it is sent."""

from __future__ import annotations

import socket
from email import message_from_bytes
from email.message import Message
from typing import Any

from aiohttp import web
from aiosmtpd.controller import Controller


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Post:
    def __init__(self, headers: dict[str, str], body: bytes, answered: int) -> None:
        self.headers = headers
        self.body = body
        self.answered = answered


class WebhookReceiver:
    def __init__(self, fail_first: int = 0) -> None:
        self.fail_first = fail_first
        self.posts: list[Post] = []
        self.port = free_port()
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def _hook(self, request: web.Request) -> web.Response:
        body = await request.read()
        status = 500 if len(self.posts) < self.fail_first else 200
        self.posts.append(Post(dict(request.headers), body, status))
        return web.Response(status=status, text="no" if status == 500 else "ok")

    async def start(self) -> WebhookReceiver:
        app = web.Application()
        app.router.add_post("/hook", self._hook)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def delivered(self) -> list[Post]:
        return [p for p in self.posts if p.answered == 200]


class _Keep:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.messages.append(message_from_bytes(envelope.original_content or envelope.content))
        return "250 OK"


class SmtpReceiver:
    def __init__(self) -> None:
        self.port = free_port()
        self._keep = _Keep()
        self._controller = Controller(self._keep, hostname="127.0.0.1", port=self.port)

    @property
    def messages(self) -> list[Message]:
        return self._keep.messages

    def start(self) -> SmtpReceiver:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()

    @property
    def env(self) -> dict[str, str]:
        return {"ROUNDHOUSE_SMTP_HOST": "127.0.0.1", "ROUNDHOUSE_SMTP_PORT": str(self.port),
                "ROUNDHOUSE_SMTP_FROM": "tables@roundhouse.test"}

