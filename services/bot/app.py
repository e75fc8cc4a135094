"""The bot worker inside `roundhouse dev`: `install(app, cfg)` starts one worker with the app
and stops it with the app. It submits through the game service of the same app (same
validation, same idempotent command path, no HTTP hop); the search runs in its own
compute processes, never on the app's event loop."""

from __future__ import annotations

from aiohttp import web

from shared.config import Config
from shared.store.connect import AnyRedis, connect, warm

from services.game.app import GAME_KEY

from .settings import BotSettings
from .submit import LocalSubmitter
from .worker import BotWorker


class DevBot:
    def __init__(self, cfg: Config, settings: BotSettings) -> None:
        self.cfg = cfg
        self.settings = settings
        self.redis: AnyRedis | None = None
        self.worker: BotWorker | None = None

    async def start(self, app: web.Application) -> None:
        self.redis = connect(self.cfg.redis_url, socket_timeout=self.settings.block_ms / 1000 + 10,
                             socket_connect_timeout=5)
        await warm(self.redis)
        assert self.redis is not None
        self.worker = BotWorker(self.redis, LocalSubmitter(lambda: app[GAME_KEY].service), self.settings)
        await self.worker.start()

    async def stop_worker(self, _app: web.Application) -> None:
        # on_shutdown: before the game service closes its store in on_cleanup.
        if self.worker is not None:
            await self.worker.stop()

    async def close(self, _app: web.Application) -> None:
        if self.redis is not None:
            await self.redis.aclose()


BOT_KEY = web.AppKey("roundhouse.bot", DevBot)


def install(app: web.Application, cfg: Config) -> DevBot:
    """Needs the game service installed first (its routes serve the worker's submissions)."""
    if GAME_KEY not in app:
        raise ValueError("the bot worker needs the game service in the same app (install it first)")
    bot = DevBot(cfg, BotSettings.from_env())
    app[BOT_KEY] = bot
    app.on_startup.append(bot.start)
    app.on_shutdown.append(bot.stop_worker)
    app.on_cleanup.append(bot.close)
    return bot
