"""The projection service as aiohttp routes: `/ws` and `/live/*`.

`install(app, cfg)` adds them to an existing app (`roundhouse dev` runs every service in
one app); `create_app(cfg)` builds a stand-alone one. All state is rebuilt from Redis, so
any number of replicas can run and any can restart: clients resume from their last seq.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from shared.config import Config
from shared.engine import Engine
from shared.games import get_engine
from shared.store import RedisEventStore
from shared.store.chat import ChatStore
from shared.store.connect import AnyRedis, connect, unhealthy, warm

from services.http.guard import check_metrics_access, client_key, install_guard, read_budget
from services.http.limits import SOCKET_COST, refuse_over

from . import asyncapi
from .chat_hub import ChatHub
from .hub import Hub
from .life import TableLife
from .metrics import Metrics
from .session import handle
from .settings import ProjectionSettings

_COMMAND_TIMEOUT = 5.0  # seconds; a Redis that answers nothing this long counts as down


class Projection:
    """What the routes share; the Redis client and hub exist only between startup and cleanup."""

    def __init__(self, cfg: Config, settings: ProjectionSettings, engine_for: Callable[[str], Engine[Any]]) -> None:
        self.cfg = cfg
        self.settings = settings
        self.engine_for = engine_for
        self.metrics = Metrics()
        self.redis: AnyRedis | None = None
        self.tail_redis: AnyRedis | None = None
        self.hub: Hub | None = None
        self.life: TableLife | None = None

    async def start(self, _app: web.Application) -> None:
        url = self.cfg.redis_url
        # Commands wait for a free connection rather than fail when many tables load at once.
        self.redis = connect(url, max_connections=self.settings.redis_connections, blocking_pool=True,
                             pool_timeout=10, socket_timeout=_COMMAND_TIMEOUT)
        # Blocked reads get their own client: a socket timeout above the block time (redis-py's
        # default of 5 s would cut every idle XREAD BLOCK 5000 short), and in per_table mode one
        # connection per table for as long as it waits.
        self.tail_redis = connect(
            url,
            max_connections=1_000_000,
            socket_timeout=self.settings.block_ms / 1000 + _COMMAND_TIMEOUT,
            socket_connect_timeout=_COMMAND_TIMEOUT,
        )
        await warm(self.redis)
        await warm(self.tail_redis)
        self.hub = Hub(
            RedisEventStore(self.redis),
            self.settings,
            self.metrics,
            self.engine_for,
            send_timeout=self.cfg.ws_send_timeout,
            tail_store=RedisEventStore(self.tail_redis),
        )
        await self.hub.start()
        assert self.redis is not None and self.tail_redis is not None
        chat = ChatHub(ChatStore(self.redis), ChatStore(self.tail_redis), self.settings.block_ms)
        await chat.start()
        self.life = TableLife(chat, ChatStore(self.redis), self.hub.store)

    async def close_sockets(self, _app: web.Application) -> None:
        if self.hub is not None:
            await self.hub.close_sessions()

    async def stop(self, _app: web.Application) -> None:
        if self.life is not None:
            await self.life.chat.stop()
        if self.hub is not None:
            await self.hub.stop()
            await self.hub.tail_store.close()
        for client in (self.redis, self.tail_redis):
            if client is not None:
                await client.aclose()

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if self.hub is None:
            raise web.HTTPServiceUnavailable(reason="starting")
        # Before the upgrade, so a refusal is a plain 429 with Retry-After and holds nothing.
        await refuse_over(read_budget(request.app), client_key(request, self.cfg), "WebSockets opened",
                          SOCKET_COST)
        return await handle(request, self.hub, self.cfg, self.settings, self.metrics, self.life)

    async def health(self, _request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def ready(self, _request: web.Request) -> web.Response:
        why = "starting" if self.redis is None else await unhealthy(self.redis)
        if why is not None:
            return web.json_response({"error": {"code": "unavailable", "message": why}}, status=503)
        return web.json_response({"status": "ready"})

    async def metrics_text(self, request: web.Request) -> web.Response:
        check_metrics_access(request, self.cfg)
        return web.Response(text=self.metrics.render(), content_type="text/plain", charset="utf-8")

    async def asyncapi_doc(self, _request: web.Request) -> web.Response:
        return web.Response(body=asyncapi.document_json(), content_type="application/json")


PROJECTION = web.AppKey("projection", Projection)


def install(
    app: web.Application,
    cfg: Config,
    *,
    settings: ProjectionSettings | None = None,
    engine_for: Callable[[str], Engine[Any]] = get_engine,
) -> Projection:
    projection = Projection(cfg, settings or ProjectionSettings.from_env(), engine_for)
    app[PROJECTION] = projection
    install_guard(app, cfg)
    app.router.add_get("/ws", projection.websocket)
    app.router.add_get("/live/health", projection.health)
    app.router.add_get("/live/ready", projection.ready)
    app.router.add_get("/live/metrics", projection.metrics_text)
    app.router.add_get("/live/asyncapi.json", projection.asyncapi_doc)
    app.on_startup.append(projection.start)
    app.on_shutdown.append(projection.close_sockets)
    app.on_cleanup.append(projection.stop)
    return projection


def create_app(
    cfg: Config,
    *,
    settings: ProjectionSettings | None = None,
    engine_for: Callable[[str], Engine[Any]] = get_engine,
) -> web.Application:
    app = web.Application(client_max_size=cfg.max_body)
    install(app, cfg, settings=settings, engine_for=engine_for)
    return app
