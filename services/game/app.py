"""The game service's HTTP layer: routes under /api/, bodies decoded with msgspec, errors as
`{"error": {"code", "message"}}`. `install` adds everything to an existing app so
`roundhouse dev` can serve game and projection from one port."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TypeVar

import msgspec
from aiohttp import web

from shared import auth
from shared.config import Config
from shared.engine import Undo, encode_action
from shared.protocol.http import CreateTable, Health, Ready, SeatControl, SubmitAction, SubmitUndo
from shared.store import STATUSES, RedisEventStore
from shared.store.connect import STORE_ERRORS, AnyRedis, connect, unhealthy, warm

from services.game import notify_api, preview
from services.game.clock import clock_reply
from services.game.clock_watch import ClockWatch
from services.game.metrics import GameMetrics
from services.game.openapi import openapi_document
from services.game.service import GameService, Submitted
from services.game.titles import title_list
from services.http.errors import ApiError, answer_for, coded
from services.http.guard import bearer_token, check_metrics_access, client_key, install_guard, read_budget, request_id
from services.http.limits import TARPIT_S, Limiter, refuse_over, refuse_over_all
from services.http.replies import json_response, parse_uint
from services.notify.dispatch import Notifier
from services.notify.settings import NotifyConfig

log = logging.getLogger("roundhouse.game")

T = TypeVar("T")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_encoder = msgspec.json.Encoder()
_decoders: dict[type, msgspec.json.Decoder] = {}
REDIS_CONNECTIONS = 256
MAX_TOKEN_HEADER = 200
CONTROLLER = "/api/tables/{table}/seats/{seat}/controller"
BUDGET_CODES = frozenset({"too_many_open_tables", "too_many_tables", "too_many_bot_tables", "bot_tables_busy",
                          "store_full"})


class GameHttp:
    """Handlers bound to one GameService. The Redis client is made at app startup, in its loop."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.metrics = GameMetrics()
        self.redis: AnyRedis | None = None
        self._service: GameService | None = None
        self._openapi: bytes | None = None
        self._titles: bytes | None = None
        self._watch: asyncio.Task[None] | None = None
        self._notifier: asyncio.Task[None] | None = None
        self._retention: asyncio.Task[None] | None = None
        self.notify_cfg = NotifyConfig.from_env()
        self.limit_create = Limiter(cfg.limit_create)
        self.limit_create_all = Limiter(cfg.limit_create_all)
        self.limit_bot_tables = Limiter(cfg.limit_bot_tables)
        self.limit_bot_tables_all = Limiter(cfg.limit_bot_tables_all)
        self.limit_actions = Limiter(cfg.limit_actions)
        self.limit_reads = Limiter(cfg.limit_reads)  # the app's own, once installed (read_budget)

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("game service not started")
        return self._service

    async def start(self, _app: web.Application) -> None:
        # A blocking pool: under a burst, requests queue for a connection (redis-py's default
        # pool raises "Too many connections" at 100 instead).
        # Timeouts turn a hung Redis into 503s the client retries with the same key.
        self.redis = connect(self.cfg.redis_url, max_connections=REDIS_CONNECTIONS, blocking_pool=True,
                             pool_timeout=10, socket_connect_timeout=5, socket_timeout=10)
        await warm(self.redis)
        self._service = GameService(self.cfg, RedisEventStore(self.redis), self.metrics)
        try:
            # Once per store: tables made before the status index existed join it.
            await self._service.store.build_status_index()
        except STORE_ERRORS as exc:  # Redis down at start: /api/ready says so; list later
            log.warning("could not build the table status index yet: %s", exc)
        watch = self._service.watch = ClockWatch(self._service, self.cfg.clock_poll)
        self._watch = asyncio.ensure_future(watch.run())
        self._retention = asyncio.ensure_future(self._service.retention.run())
        self.notifier = Notifier(self._service, self.notify_cfg)
        self._notifier = asyncio.ensure_future(self.notifier.run())

    async def stop(self, _app: web.Application) -> None:
        tasks = [t for t in (self._watch, self._notifier, self._retention) if t is not None]
        for task in tasks:
            task.cancel()
        if tasks:  # bounded: a Redis command that ignores the cancel must not hold up shutdown
            await asyncio.wait(tasks, timeout=5)
        if self._service is not None:
            await self._service.drain()
        if self.redis is not None:
            await self.redis.aclose()

    def routes(self) -> list[web.RouteDef]:
        e = self._endpoint
        return [
            web.post("/api/tables", e("/api/tables", self.create_table)),
            web.get("/api/tables", e("/api/tables", self.list_tables), allow_head=False),
            web.get("/api/tables/{table}", e("/api/tables/{table}", self.get_table), allow_head=False),
            web.post("/api/tables/{table}/actions", e("/api/tables/{table}/actions", self.submit_action)),
            web.post("/api/tables/{table}/undo", e("/api/tables/{table}/undo", self.submit_undo)),
            web.get("/api/tables/{table}/legal", e("/api/tables/{table}/legal", self.legal), allow_head=False),
            web.get("/api/tables/{table}/clock", e("/api/tables/{table}/clock", self.clock), allow_head=False),
            web.post(CONTROLLER, e(CONTROLLER, self.set_controller)),
            web.get(notify_api.PATH, e(notify_api.PATH, partial(notify_api.get_notify, self)), allow_head=False),
            web.put(notify_api.PATH, e(notify_api.PATH, partial(notify_api.put_notify, self))),
            web.delete(notify_api.PATH, e(notify_api.PATH, partial(notify_api.delete_notify, self))),
            web.post(preview.PATH, e(preview.PATH, partial(preview.preview, self))),
            web.get("/api/titles", e("/api/titles", self.titles), allow_head=False),
            web.get("/api/health", e("/api/health", self.health), allow_head=False),
            web.get("/api/ready", e("/api/ready", self.ready), allow_head=False),
            web.get("/api/metrics", e("/api/metrics", self.metrics_text), allow_head=False),
            web.get("/api/openapi.json", e("/api/openapi.json", self.openapi), allow_head=False),
        ]

    def _endpoint(self, route: str, handler: Handler) -> Handler:
        """Turns every refusal into the JSON error shape and counts the answer."""

        async def run(request: web.Request) -> web.StreamResponse:
            try:
                resp = await handler(request)
            except Exception as exc:  # noqa: BLE001 - errors.answer_for: JSON for the client, one line for the log
                resp = answer_for(exc, request.method, route, request_id(request))
            self.metrics.requests.inc(route, request.method, str(resp.status))
            return resp

        return run

    # --- request helpers --------------------------------------------------------------------------

    async def _body(self, request: web.Request, kind: type[T]) -> T:
        limit = self.cfg.max_body
        if request.content_length is not None and request.content_length > limit:
            raise coded("body_too_large", f"body of {request.content_length} bytes; the limit is {limit}")
        try:
            raw = await asyncio.wait_for(request.read(), self.cfg.body_timeout)
        except web.HTTPRequestEntityTooLarge:
            raise coded("body_too_large", f"the body exceeds the limit of {limit} bytes") from None
        except TimeoutError:
            raise coded("request_timeout", f"the body did not arrive within {self.cfg.body_timeout:g}s") from None
        if len(raw) > limit:
            raise coded("body_too_large", f"body of {len(raw)} bytes; the limit is {limit}")
        dec = _decoders.get(kind)
        if dec is None:
            dec = _decoders[kind] = msgspec.json.Decoder(kind)
        try:
            return dec.decode(raw)
        except msgspec.ValidationError as exc:
            raise coded("bad_request", str(exc)) from None
        except msgspec.DecodeError as exc:
            raise coded("bad_json", f"body: {exc}") from None
        except RecursionError:
            raise coded("bad_json", "body: JSON nested too deeply") from None

    def _seat(self, request: web.Request, table: str) -> int:
        """The seat the bearer token grants at `table` (401 / 403 otherwise)."""
        header = request.headers.get("Authorization", "")
        if not header:
            raise coded("missing_token", "send `Authorization: Bearer <seat token>`")
        token = bearer_token(header)
        if token is None or len(header) > MAX_TOKEN_HEADER:
            raise coded("bad_token", "the Authorization header must be `Bearer <seat token>`, ASCII only: "
                        "no other space (a non-breaking one) before, inside or after it")
        try:
            claim = auth.verify(self.cfg.secret, token)
        except auth.TokenError as exc:
            raise coded("bad_token", str(exc)) from None
        if claim.table != table:
            raise coded("wrong_table", f"this token is for table {claim.table!r}, not {table!r}")
        return claim.seat

    def _path_seat(self, request: web.Request, table: str) -> int:
        """The token's seat, which must be the seat the path names (`.../seats/{seat}/...`)."""
        seat = self._seat(request, table)
        asked = parse_uint(request.match_info["seat"])
        if asked is None:
            raise coded("bad_query", "the seat in the path must be a seat number in ASCII digits")
        if asked != seat:
            raise coded("wrong_seat", f"this token is for seat {seat}, not {asked}")
        return seat

    @staticmethod
    def _int_query(request: web.Request, name: str, default: int, lo: int, hi: int) -> int:
        text = request.query.get(name)
        if text is None:
            return default
        value = parse_uint(text)
        if value is None or not lo <= value <= hi:
            raise coded("bad_query", f"?{name}= must be an integer {lo}..{hi} in ASCII digits")
        return value

    async def limit(self, limiter: Limiter, request: web.Request, what: str, cost: float = 1.0) -> None:
        """Take `cost` of this client's tokens for `what`, or refuse with 429 and Retry-After."""
        await refuse_over(limiter, client_key(request, self.cfg), what, cost)

    async def admit_bot_table(self, request: web.Request) -> None:
        """The rates of tables where only bots sit, however made so (created so or every seat
        handed to a bot): this client's, then all clients' together. A bot-only table costs
        the service more than one a person plays (its moves come back to back), and twenty
        addresses at the per-client burst alone made 400 of them."""
        await self.limit(self.limit_bot_tables, request, "tables with only bot seats")
        await refuse_over_all(self.limit_bot_tables_all, "bot_tables_busy",
                              "all clients together are making tables where only bots sit faster than the service takes")

    @staticmethod
    def _submitted(result: Submitted) -> web.Response:
        return json_response(result.body, 201, {"Idempotent-Replayed": "true" if result.replayed else "false"})

    # --- handlers ---------------------------------------------------------------------------------

    async def create_table(self, request: web.Request) -> web.Response:
        # Limits before the body is read: a refused flood should cost as little as possible.
        await self.limit(self.limit_create, request, "tables created")
        await refuse_over_all(self.limit_create_all, "tables_busy",
                              "the service is creating as many tables as it takes from all clients together")
        req = await self._body(request, CreateTable)
        if all(seat.kind == "bot" for seat in req.seats):
            await self.admit_bot_table(request)
        try:
            created = await self.service.create_table(req, client_key(request, self.cfg))
        except ApiError as refused:
            if refused.code in BUDGET_CODES:  # a flood of refusals must not cost more than one
                await asyncio.sleep(TARPIT_S)
            raise
        return json_response(created, 201)

    async def list_tables(self, request: web.Request) -> web.Response:
        status = request.query.get("status")
        if status is not None and status not in STATUSES:
            raise coded("bad_query", f"?status= must be one of {', '.join(STATUSES)}")
        limit = self._int_query(request, "limit", 50, 1, 200)
        offset = self._int_query(request, "offset", 0, 0, 10**9)
        await self.limit(self.limit_reads, request, "reads", cost=1 + limit / 2)  # its rows are its cost
        return json_response(await self.service.list_tables(limit, offset, status))

    async def get_table(self, request: web.Request) -> web.Response:
        await self.limit(self.limit_reads, request, "reads")
        return json_response(await self.service.table_detail(request.match_info["table"]))

    async def submit_action(self, request: web.Request) -> web.Response:
        table = request.match_info["table"]
        seat = self._seat(request, table)
        await self.limit(self.limit_actions, request, "actions")
        req = await self._body(request, SubmitAction)
        return self._submitted(
            await self.service.submit(table, seat, req.expected_seq, req.idempotency_key, bytes(req.action))
        )

    async def submit_undo(self, request: web.Request) -> web.Response:
        table = request.match_info["table"]
        seat = self._seat(request, table)
        await self.limit(self.limit_actions, request, "actions")
        req = await self._body(request, SubmitUndo)
        undo = encode_action(Undo(action_id=req.action_id))
        return self._submitted(await self.service.submit(table, seat, req.expected_seq, req.idempotency_key, undo))

    async def legal(self, request: web.Request) -> web.Response:
        table = request.match_info["table"]
        seat = self._seat(request, table)
        asked = self._int_query(request, "seat", seat, 0, 10**6)
        if asked != seat:
            raise coded("wrong_seat", f"this token is for seat {seat}, not {asked}")
        await self.limit(self.limit_reads, request, "reads")
        return json_response(await self.service.legal_actions(table, seat))

    async def clock(self, request: web.Request) -> web.Response:
        await self.limit(self.limit_reads, request, "reads")
        meta, clock, seq = await self.service.table_clock(request.match_info["table"])
        return json_response(clock_reply(meta, clock, seq))

    async def set_controller(self, request: web.Request) -> web.Response:
        """Who plays a seat, a person or a bot (GameService.set_controller), asked with that
        seat's own token."""
        table = request.match_info["table"]
        seat = self._path_seat(request, table)
        req = await self._body(request, SeatControl)
        await self.limit(self.limit_actions, request, "actions")

        return json_response(await self.service.set_controller(
            table, seat, req.kind, req.level, client_key(request, self.cfg), partial(self.admit_bot_table, request)))

    async def titles(self, _request: web.Request) -> web.Response:
        if self._titles is None:
            self._titles = _encoder.encode(title_list())
        return json_response(self._titles)

    async def health(self, _request: web.Request) -> web.Response:
        return json_response(Health())

    async def ready(self, _request: web.Request) -> web.Response:
        ok = self.redis is not None and await unhealthy(self.redis) is None
        return json_response(Ready(status="ok" if ok else "unavailable", redis=ok), 200 if ok else 503)

    async def metrics_text(self, request: web.Request) -> web.Response:
        check_metrics_access(request, self.cfg)
        return web.Response(text=self.metrics.render(), content_type="text/plain", charset="utf-8",
                            headers={"X-Prometheus-Format": "0.0.4"})

    async def openapi(self, _request: web.Request) -> web.Response:
        if self._openapi is None:
            self._openapi = _encoder.encode(openapi_document())
        return json_response(self._openapi)


GAME_KEY = web.AppKey("roundhouse.game", GameHttp)


def install(app: web.Application, cfg: Config) -> GameHttp:
    """Add the game routes (all under /api/) and their startup/cleanup hooks to `app`."""
    http = GameHttp(cfg)
    app[GAME_KEY] = http
    install_guard(app, cfg)
    http.limit_reads = read_budget(app)
    app.router.add_routes(http.routes())
    app.on_startup.append(http.start)
    app.on_cleanup.append(http.stop)
    return http


def create_app(cfg: Config) -> web.Application:
    app = web.Application(client_max_size=cfg.max_body)
    install(app, cfg)
    return app
