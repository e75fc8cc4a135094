"""Fixtures for the hardening tests: the game service and the projection in one app (as
`roundhouse dev` serves them), through aiohttp's test client or through the guarded
runner the commands use (for what only a real listener shows: header timeouts, the
connection cap, the HTTP parser's own refusals)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web

from shared.config import Config

from services.game.app import install as install_game
from services.http.guard import make_runner
from services.projection.app import install as install_projection
from services.projection.settings import ProjectionSettings
from tests.service_config import SECRET, config_factory  # noqa: F401 - SECRET for the tests here


def build(cfg: Config) -> web.Application:
    app = web.Application(client_max_size=cfg.max_body)
    install_game(app, cfg)
    install_projection(app, cfg, settings=ProjectionSettings(hello_timeout=2.0, feed_grace=0.2, block_ms=1000))
    return app


@pytest.fixture
def make_cfg(redis_url: str) -> Callable[..., Config]:
    return config_factory(redis_url)


@pytest.fixture
def new_client(aiohttp_client, make_cfg):
    async def start(**overrides: Any):
        return await aiohttp_client(build(make_cfg(**overrides)))

    return start


@pytest.fixture
async def client(new_client):
    return await new_client()


@pytest.fixture
async def guarded(make_cfg) -> AsyncIterator[Callable[..., Awaitable[tuple[str, int]]]]:
    """Start the app behind the guarded runner on a free loopback port: (host, port)."""
    runners: list[web.AppRunner] = []

    async def start(**overrides: Any) -> tuple[str, int]:
        runner = make_runner(build(make_cfg(**overrides)))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        runners.append(runner)
        sock = site._server.sockets[0]  # type: ignore[union-attr]
        return "127.0.0.1", sock.getsockname()[1]

    yield start
    for runner in runners:
        await runner.cleanup()


async def create(client, seats: list[dict[str, Any]] | int = 2, title: str = "nim", **extra: Any) -> dict[str, Any]:
    seat_list = [{"name": f"p{i}"} for i in range(seats)] if isinstance(seats, int) else seats
    resp = await client.post("/api/tables", json={"title": title, "seats": seat_list, "seed": 0, **extra})
    body = await resp.json()
    assert resp.status == 201, body
    return body


def assert_error(status: int, body: Any, want_status: int | None = None, want_code: str | None = None) -> None:
    """The documented error shape: {"error": {"code": str, "message": str, ...}}."""
    assert isinstance(body, dict) and set(body) == {"error"}, body
    err = body["error"]
    assert isinstance(err.get("code"), str) and err["code"] and isinstance(err.get("message"), str) and err["message"], body
    assert set(err) <= {"code", "message", "current_seq", "request_id"}, body
    if want_status is not None:
        assert status == want_status, (status, body)
    if want_code is not None:
        assert err["code"] == want_code, body


async def read_http(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response from a raw socket (Content-Length bodies only)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, headers, body
