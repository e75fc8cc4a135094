"""Run an aiohttp app until SIGTERM/SIGINT/SIGHUP, then shut it down gracefully.

Shared by `roundhouse dev` and the single-service commands (`roundhouse game`,
`roundhouse projection`). The listening socket is bound *before* anything else starts, so
a taken port fails fast with one line instead of after Redis and the services came up.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable

from aiohttp import web

from shared.store.connect import STORE_ERRORS

# Seconds aiohttp waits for in-flight requests and WebSocket handlers after the listener
# closes; long enough for a normal request, short enough that Ctrl-C feels immediate.
SHUTDOWN_TIMEOUT = 5.0
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class BindError(Exception):
    """The address cannot be listened on (port taken, unknown host, no permission)."""


class Fatal(Exception):
    """Something the app depends on failed while serving; the message is for the operator."""


# Failures an operator can act on from one line (Redis unreachable, a dependency died);
# anything else is a bug and keeps its traceback.
OPERATIONAL_ERRORS: tuple[type[Exception], ...] = (Fatal, *STORE_ERRORS)


def configure_logging() -> None:
    """Logs to stderr at ROUNDHOUSE_LOG_LEVEL (WARNING by default; INFO adds the access log)."""
    logging.basicConfig(
        level=os.environ.get("ROUNDHOUSE_LOG_LEVEL", "WARNING").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


def bind_socket(host: str, port: int) -> socket.socket:
    """A bound (not yet listening) TCP socket for host:port; port 0 picks a free one."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise BindError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    # Lets a restart rebind while old connections sit in TIME_WAIT; on Linux it still
    # refuses a port another process is listening on, which is the error we want.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        reason = "address already in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
        raise BindError(f"cannot listen on {host}:{port}: {reason}") from None
    return sock


def public_url(sock: socket.socket) -> str:
    """The URL people should open; a wildcard address is shown as the loopback one."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "[::1]"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


async def serve(
    app: web.Application,
    sock: socket.socket,
    *,
    on_ready: Callable[[str], None] | None = None,
    watch: Callable[[], Awaitable[str]] | None = None,
) -> None:
    """Serve `app` on `sock` until a stop signal, then clean up (on_shutdown, on_cleanup).

    `on_ready(url)` runs once the app's startup hooks are done and the socket listens.
    `watch()` starts a dependency monitor once serving: if it completes, its result is a
    reason to stop and `Fatal(reason)` is raised after cleanup.
    """
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    # Guarded (services/http/guard.py): header timeout, connections per client, JSON errors.
    from services.http.guard import make_runner

    runner = make_runner(app, handle_signals=False, shutdown_timeout=SHUTDOWN_TIMEOUT)
    waiters: list[asyncio.Future[object]] = []
    try:
        await runner.setup()
        await web.SockSite(runner, sock).start()
        # What exists now (modules, title data, the app) lives as long as the process: move it
        # out of the cyclic GC's reach, whose full collections rescanned it every few seconds
        # under load (40-77 ms pauses of the game service in `bench live`; 2-8 ms frozen).
        gc.collect()
        gc.freeze()
        if on_ready is not None:
            on_ready(public_url(sock))
        stopped: asyncio.Future[object] = asyncio.ensure_future(stop.wait())
        waiters.append(stopped)
        if watch is not None:
            waiters.append(asyncio.ensure_future(watch()))
        done, _ = await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        failure = None if stopped in done else str(next(iter(done)).result())
    finally:
        for waiter in waiters:
            waiter.cancel()
        await runner.cleanup()
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
    if failure is not None:
        raise Fatal(failure)


def run_app(app: web.Application | Callable[[], Awaitable[web.Application]], host: str, port: int, *, name: str) -> int:
    """Blocking entry point for one service: returns the process exit code.

    `app` may be an async factory so the app is built inside the running loop. Prints
    `roundhouse <name> listening on <url>` when ready; errors are one line on stderr.
    """
    try:
        sock = bind_socket(host, port)
    except BindError as exc:
        print(f"roundhouse {name}: {exc}", file=sys.stderr)
        return 1

    async def main() -> None:
        built = app if isinstance(app, web.Application) else await app()
        await serve(built, sock, on_ready=lambda url: print(f"roundhouse {name} listening on {url}", flush=True))

    try:
        asyncio.run(main())
    except OPERATIONAL_ERRORS as exc:
        print(f"roundhouse {name}: {one_line(exc)}", file=sys.stderr)
        return 1
    finally:
        sock.close()
    return 0


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
