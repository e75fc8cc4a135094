"""services.runner: bind first, serve until a signal or a failed dependency, clean up."""

from __future__ import annotations

import asyncio
import os
import signal
import socket

import aiohttp
import pytest
from aiohttp import web

from services.runner import BindError, Fatal, bind_socket, public_url, serve


def test_bind_socket_refuses_a_taken_port_with_one_line() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(BindError) as info:
            bind_socket("127.0.0.1", port)
    assert str(info.value) == f"cannot listen on 127.0.0.1:{port}: address already in use"


def test_bind_socket_unknown_host() -> None:
    with pytest.raises(BindError, match="cannot listen on no-such-host.invalid:80"):
        bind_socket("no-such-host.invalid", 80)


def test_public_url_shows_wildcards_as_loopback() -> None:
    for host, shown in (("0.0.0.0", "127.0.0.1"), ("127.0.0.1", "127.0.0.1")):
        sock = bind_socket(host, 0)
        try:
            assert public_url(sock) == f"http://{shown}:{sock.getsockname()[1]}/"
        finally:
            sock.close()


def app_with_hooks(events: list[str]) -> web.Application:
    app = web.Application()

    async def hello(_request: web.Request) -> web.Response:
        return web.Response(text="hi")

    app.router.add_get("/", hello)

    async def hook(name: str) -> None:
        events.append(name)

    app.on_startup.append(lambda _a: hook("startup"))
    app.on_shutdown.append(lambda _a: hook("shutdown"))
    app.on_cleanup.append(lambda _a: hook("cleanup"))
    return app


async def test_serve_answers_then_stops_on_a_signal_and_cleans_up() -> None:
    events: list[str] = []
    sock = bind_socket("127.0.0.1", 0)
    answered: list[str] = []

    async def client(url: str) -> None:
        async with aiohttp.ClientSession() as session, session.get(url) as resp:
            answered.append(await resp.text())
        os.kill(os.getpid(), signal.SIGHUP)  # handled by serve's loop handler, not the default

    def ready(url: str) -> None:
        events.append("ready")
        asyncio.get_running_loop().create_task(client(url))

    await asyncio.wait_for(serve(app_with_hooks(events), sock, on_ready=ready), 10)
    assert answered == ["hi"]
    assert events == ["startup", "ready", "shutdown", "cleanup"]
    # The loop's handler is gone again: the process is back to the default disposition.
    assert signal.getsignal(signal.SIGHUP) == signal.SIG_DFL
    sock.close()


async def test_serve_stops_with_fatal_when_the_watched_dependency_ends() -> None:
    events: list[str] = []
    sock = bind_socket("127.0.0.1", 0)

    async def dependency() -> str:
        await asyncio.sleep(0.05)
        return "the thing died"

    with pytest.raises(Fatal, match="the thing died"):
        await asyncio.wait_for(serve(app_with_hooks(events), sock, watch=dependency), 10)
    assert events == ["startup", "shutdown", "cleanup"]
    sock.close()
