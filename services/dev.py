"""`roundhouse dev`: everything on one machine, in one process, behind one URL.

Order matters: bind the port (fail fast if taken), lock the data dir, start the embedded
redis-server (unless REDIS_URL), then serve one aiohttp app with every service installed.
Stopping runs the other way: the app drains first, Redis stops last, so nothing that was
acknowledged is lost (and with AOF `appendfsync always` it was already on disk).
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import html
import os
import re
import secrets
import signal
import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit, urlunsplit

from aiohttp import web

from shared.config import Config
from shared.redis_cluster import LocalCluster
from shared.redis_server import RedisServer

from services.runner import (
    OPERATIONAL_ERRORS,
    STOP_SIGNALS,
    BindError,
    bind_socket,
    configure_logging,
    one_line,
    public_url,
    serve,
)

Installer = Callable[[web.Application, Config], None]

# Every service the dev app runs, in install order; each module provides `install(app, cfg)`.
REQUIRED_SERVICES = ("services.game.app", "services.projection.app")
# Installed when the module exists, so the bot worker joins `roundhouse dev` by landing
# `services/bot/app.py` with `install(app, cfg)`; no change here needed.
OPTIONAL_SERVICES = ("services.bot.app",)
# The browser client: served at `/` once it has an index.html, else a landing page.
WEB_DIR = Path(__file__).resolve().parent / "web"

SECRET_FILE = "secret"
SDK_FILE = re.compile(r"[A-Za-z0-9_-]+\.js", re.ASCII)
REDIS_PASSWORD_FILE = "redis-password"
# The embedded Redis's memory cap (`ROUNDHOUSE_REDIS_MAXMEMORY`, Redis units: 512mb, 2gb).
DEFAULT_MAXMEMORY = "1gb"
LOCK_FILE = "roundhouse.lock"


class DevError(Exception):
    """A start-up problem the user can fix; printed as one line."""


STARTUP_ERRORS: tuple[type[Exception], ...] = (DevError, *OPERATIONAL_ERRORS)

def main(args: argparse.Namespace) -> int:
    configure_logging()
    # Until serve() takes the stop signals over, make them unwind like Ctrl-C, so a SIGTERM
    # while Redis is starting still runs the `finally` that stops it.
    for sig in STOP_SIGNALS:
        signal.signal(sig, _interrupt)
    try:
        sock = bind_socket(args.host, args.port)
    except BindError as exc:
        return _fail(str(exc))
    data_dir = Path(args.data_dir).resolve()
    redis: RedisServer | None = None
    cluster: LocalCluster | None = None
    # The data dir holds the AOF (every table's seed), the secret and the Redis password:
    # nothing in it is for other users. The embedded redis-server inherits the mask.
    os.umask(0o077)
    try:
        with _locked(data_dir):
            _private(data_dir)
            secret = load_secret(data_dir)
            redis_url = os.environ.get("REDIS_URL")
            if int(getattr(args, "redis_cluster", None) or 0) < 0:
                raise DevError(f"--redis-cluster wants a number of masters >= 1 (0: one redis-server), not {args.redis_cluster}")
            maxmemory = os.environ.get("ROUNDHOUSE_REDIS_MAXMEMORY", DEFAULT_MAXMEMORY)
            memory = {"maxmemory": maxmemory, "maxmemory-policy": "noeviction"}
            if not redis_url and int(getattr(args, "redis_cluster", None) or 0):
                # Every node as the single embedded Redis: its password (in each node's 0600
                # redis.conf) and its memory cap (per node).
                cluster = LocalCluster(data_dir / "redis-cluster", masters=args.redis_cluster, replicas=1,
                                       password=load_redis_password(data_dir), settings=memory)
                _start_redis(cluster, maxmemory)
                redis_url = cluster.url
            elif not redis_url:
                # Assigned before it starts, so an interrupted start is still stopped below.
                # The password is in place before Redis accepts its first connection.
                password = load_redis_password(data_dir)
                redis = RedisServer(data_dir / "redis", password=password, settings=memory)
                _start_redis(redis, maxmemory)
                redis_url = redis.url.replace("redis://", f"redis://:{password}@", 1)
            try:
                cfg = Config.from_env(redis_url=redis_url, secret=secret,
                                      public_url=(os.environ.get("ROUNDHOUSE_PUBLIC_URL") or public_url(sock)).rstrip("/"))
            except ValueError as exc:
                raise DevError(str(exc)) from None
            try:
                app = build_app(cfg, installers())
            except ValueError as exc:  # a service refused a setting from the environment
                raise DevError(str(exc)) from None
            banner = _banner(data_dir, redis or cluster, redis_url)
            watch = (lambda: _watch_redis(redis)) if redis else None
            asyncio.run(serve(app, sock, on_ready=banner, watch=watch))
    except STARTUP_ERRORS as exc:
        return _fail(one_line(exc))
    except KeyboardInterrupt:
        _fail("interrupted before it was ready")
        return 130
    finally:
        sock.close()
        if redis is not None:
            redis.stop()
        if cluster is not None:
            cluster.stop()
    return 0


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _fail(message: str) -> int:
    print(f"roundhouse dev: {message}", file=sys.stderr)
    return 1


class _locked:
    """Exclusive lock on the data dir: two dev processes must never share one AOF."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.handle: IO[str] | None = None

    def __enter__(self) -> None:
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self.handle = open(self.data_dir / LOCK_FILE, "w")
        except OSError as exc:
            raise DevError(f"cannot use data dir {self.data_dir}: {exc.strerror}") from None
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.handle.close()
            raise DevError(f"data dir {self.data_dir} is in use by another `roundhouse dev`") from None

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()


def load_secret(data_dir: Path) -> bytes:
    """The seat-token HMAC key: ROUNDHOUSE_SECRET, else one kept in <data-dir>/secret.

    It must survive restarts, or every seat token handed out before would stop working.
    """
    from_env = os.environ.get("ROUNDHOUSE_SECRET")
    if from_env:
        return from_env.encode()
    return _kept_random(data_dir / SECRET_FILE, 32, "a new secret (old seat tokens stop working)").encode()


def _private(data_dir: Path) -> None:
    """0700 for the data dir and 0600 for what is in it (a dir made by an older version)."""
    try:
        data_dir.chmod(0o700)
        for path in data_dir.rglob("*"):
            path.chmod(0o700 if path.is_dir() else 0o600)
    except OSError as exc:
        raise DevError(f"cannot make data dir {data_dir} private: {exc.strerror}") from None


def load_redis_password(data_dir: Path) -> str:
    """The embedded Redis's password, kept in <data-dir>/redis-password (0600) like the secret."""
    return _kept_random(data_dir / REDIS_PASSWORD_FILE, 24, "a new Redis password")


def _kept_random(path: Path, nbytes: int, remedy: str) -> str:
    """A random hex value made once (0600, created exclusively so two starts cannot race)
    and read back on every later start."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        text = path.read_text().strip()
        if not text:
            raise DevError(f"{path} is empty: delete it to make {remedy}") from None
        return text
    value = secrets.token_hex(nbytes)
    with os.fdopen(fd, "w") as f:
        f.write(value + "\n")
    return value


def _start_redis(redis: RedisServer | LocalCluster, maxmemory: str = "") -> None:
    """Start it (a RedisServer with its memory cap and password in its config file)."""
    try:
        redis.start()
    except RuntimeError as exc:
        if "maxmemory" in str(exc):
            raise DevError(f"ROUNDHOUSE_REDIS_MAXMEMORY={maxmemory!r} refused by redis-server: {one_line(exc)}") from None
        raise DevError(f"could not start the embedded redis-server: {one_line(exc)}") from None


async def _watch_redis(redis: RedisServer) -> str:
    """Completes (with the reason) only if the embedded redis-server exits under us."""
    assert redis.process is not None
    while (code := redis.process.poll()) is None:
        await asyncio.sleep(0.2)
    return f"the embedded redis-server exited unexpectedly (code {code}); see {redis.data_dir / 'redis.log'}"


def installers() -> list[Installer]:
    found = [_installer(name) for name in REQUIRED_SERVICES]
    for name in OPTIONAL_SERVICES:
        try:
            found.append(_installer(name))
        except ModuleNotFoundError as exc:
            # Only "this service is not written yet" is skipped; a broken import inside it is not.
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
    return found


def _installer(module_name: str) -> Installer:
    module = import_module(module_name)
    install = getattr(module, "install", None)
    if install is None:
        raise DevError(f"{module_name} has no install(app, cfg)")
    return install


def build_app(cfg: Config, services: list[Installer], web_dir: Path = WEB_DIR) -> web.Application:
    app = web.Application(client_max_size=cfg.max_body)
    for install in services:
        install(app, cfg)
    index = web_dir / "index.html"
    if index.is_file():

        async def client(_request: web.Request) -> web.FileResponse:
            return web.FileResponse(index)

        app.router.add_get("/", client)
        # Only the client's files: the page's modules and the SDK, never the Python beside
        # them or the SDK's tests.
        if (web_dir / "app").is_dir():
            app.router.add_static("/app", web_dir / "app")
        sdk = web_dir / "sdk"

        async def sdk_file(request: web.Request) -> web.FileResponse:
            name = request.match_info["name"]
            path = sdk / name
            if not SDK_FILE.fullmatch(name) or not path.is_file():
                raise web.HTTPNotFound()
            return web.FileResponse(path)

        app.router.add_get("/sdk/{name}", sdk_file)
    else:
        app.router.add_get("/", _landing_page)
    return app


async def _landing_page(request: web.Request) -> web.Response:
    """Until the web client lands: what this server answers, read from its own router."""
    rows = sorted(
        {(route.method, route.resource.canonical) for route in request.app.router.routes()
         if route.resource is not None and route.method != "HEAD"},
        key=lambda row: (row[1], row[0]),
    )
    items = "\n".join(f"<li><code>{html.escape(m)} {html.escape(p)}</code></li>" for m, p in rows)
    body = (
        "<!doctype html><meta charset=utf-8><title>Roundhouse</title>"
        "<h1>Roundhouse</h1><p>Railway board games for people and bots. Endpoints:</p>"
        f"<ul>\n{items}\n</ul>"
    )
    return web.Response(text=body, content_type="text/html")


def _banner(data_dir: Path, redis: RedisServer | LocalCluster | None, redis_url: str) -> Callable[[str], None]:
    def announce(url: str) -> None:
        print(f"Roundhouse running at {url}", flush=True)
        if isinstance(redis, LocalCluster):
            where = f"local Redis Cluster ({redis.masters} masters + replicas), AOFs in {redis.data_dir}"
        elif redis is not None:
            where = f"Redis AOF in {redis.data_dir}"
        else:
            where = f"Redis at {_without_password(redis_url)} (REDIS_URL)"
        secret = "ROUNDHOUSE_SECRET" if os.environ.get("ROUNDHOUSE_SECRET") else str(data_dir / SECRET_FILE)
        print(f"Data: {where}; seat-token secret in {secret}. Ctrl-C stops.", flush=True)

    return announce


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))
