"""What stands between the network and every handler, for the game and projection services alike.

- `guard_middleware`: every answer that is not a success is `{"error": {"code", "message"}}`
  JSON - aiohttp's own refusals (404, 405, 413) included - and an exception no handler
  expected becomes a 500 `internal_error` carrying a request id, logged as one line. It also
  refuses writes that are not `Content-Type: application/json` (a cross-site "simple" POST
  can only send text/plain, form or multipart bodies) and answers CORS only for the
  configured origins.
- `make_runner`: the aiohttp runner with a header timeout (the keep-alive timer of aiohttp,
  armed from the moment a connection opens, closes one that has not sent a whole request),
  a cap on open connections per client address, and JSON bodies for the HTTP parser's own
  400s (a line or header too long, a malformed request line).

`roundhouse dev`, `roundhouse game` and `roundhouse projection` serve through it
(services/runner.py); tests that use aiohttp's test server get the middleware only.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
import re
import secrets
import time
from collections import Counter
from http import HTTPStatus
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from shared.config import Config

from services.http.errors import ApiError, answer_for, error_response, one_line
from services.http.limits import TARPIT_S, Limiter

log = logging.getLogger("roundhouse.http")

# Connections refused over the cap are logged as one counted line per this many seconds.
REFUSALS_LOG_S = 60.0
# Refused connections held unread for TARPIT_S before their 429, at most this many at once
# (a file descriptor each); past it a refusal is answered at once.
MAX_HELD_REFUSALS = 512

CONFIG_KEY = web.AppKey("roundhouse.config", Config)
READ_BUDGET = web.AppKey("roundhouse.read_budget", Limiter)
_INSTALLED = web.AppKey("roundhouse.guard", bool)
REQUEST_ID = web.RequestKey("roundhouse.request_id", str)

_BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] +([!-~]+) *", re.ASCII)

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON_TYPES = frozenset({"application/json"})
CORS_EXPOSED = "Retry-After, Idempotent-Replayed, X-Request-Id"

# Codes for aiohttp's own HTTP exceptions (a route that does not exist, a method it lacks...).
_HTTP_CODES = {
    400: "bad_http", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
    408: "request_timeout", 413: "body_too_large", 414: "bad_http", 415: "unsupported_media_type",
    429: "rate_limited", 431: "bad_http", 503: "unavailable",
}


def install_guard(app: web.Application, cfg: Config) -> None:
    """Add the middleware once per app (game and projection may share one in `roundhouse dev`)."""
    if app.get(_INSTALLED):
        return
    app[_INSTALLED] = True
    app[CONFIG_KEY] = cfg
    app[READ_BUDGET] = Limiter(cfg.limit_reads)
    app.middlewares.append(guard_middleware)


def read_budget(app: web.Application) -> Limiter:
    """The per-address read budget (ROUNDHOUSE_LIMIT_READS) of everything `app` serves: when
    game and projection share one app (`roundhouse dev`), listings, reads and socket opens
    draw on one bucket per address, as they would from one service."""
    return app[READ_BUDGET]


def request_id(request: web.Request) -> str:
    rid = request.get(REQUEST_ID)
    if rid is None:
        rid = request[REQUEST_ID] = secrets.token_hex(8)
    return rid


def client_key(request: web.Request, cfg: Config) -> str:
    """The client address limits count against: the peer, or what a trusted proxy says it is."""
    if cfg.client_ip_header:
        forwarded = request.headers.get(cfg.client_ip_header, "")
        # The proxy appends the address it saw: the last entry is the one it vouches for.
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last[:64]
    return request.remote or "unknown"


def _origin_allowed(origin: str, request: web.Request, cfg: Config) -> bool:
    if origin in cfg.cors_origins or "*" in cfg.cors_origins:
        return True
    if cfg.public_url and origin == _origin_of(cfg.public_url):
        return True
    # Same origin: the page was served by this host (scheme aside, which a proxy may change),
    # and that host is one this deployment answers to.
    host = origin.split("://", 1)[-1]
    return host == request.headers.get("Host") and host_allowed(host, cfg)


def host_allowed(host: str, cfg: Config) -> bool:
    """Whether a Host header names this deployment. With DNS rebinding a page of any domain
    can point that domain at this server (its Origin and the Host then agree), so a name
    counts only when configured: the public URL's host or ROUNDHOUSE_ALLOWED_HOSTS. An IP
    address or localhost cannot be rebound."""
    name = _host_name(host)
    if _is_local_name(name):
        return True
    if cfg.public_url and name == _host_name(_origin_of(cfg.public_url).split("://", 1)[-1]):
        return True
    return any(pattern == "*" or name == pattern or (pattern.startswith(".") and (name.endswith(pattern) or
               name == pattern[1:])) for pattern in cfg.allowed_hosts)


def _host_name(host: str) -> str:
    """`host` without its port (an IPv6 address without its brackets), lower case."""
    if host.startswith("[") and "]" in host:
        return host[1:host.index("]")].lower()
    return host.rsplit(":", 1)[0].lower().rstrip(".")


def _is_local_name(name: str) -> bool:
    """An IP literal or localhost."""
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def bearer_token(header: str) -> str | None:
    """The token of `Authorization: Bearer <token>`, or None. ASCII only: str.split and
    str.strip also take Unicode spaces (a non-breaking space), which no client sends."""
    match = _BEARER.fullmatch(header)
    return match.group(1) if match else None


def _origin_of(url: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


@web.middleware
async def guard_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    cfg = request.app[CONFIG_KEY]
    rid = request_id(request)
    origin = request.headers.get("Origin")
    cors = origin is not None and (origin in cfg.cors_origins or "*" in cfg.cors_origins)
    try:
        if request.method == "OPTIONS" and origin is not None:
            resp = _preflight(request, cfg, origin, cors)
        else:
            _check_write(request, cfg, origin)
            resp = await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise  # redirects stay what they are
        resp = error_response(exc.status, _HTTP_CODES.get(exc.status, "bad_http"), _message_of(exc))
        for name in ("Allow", "Retry-After"):
            if name in exc.headers:
                resp.headers[name] = exc.headers[name]
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 - errors.answer_for: JSON for the client, one line for the log
        resp = answer_for(exc, request.method, request.path, rid)
    if not resp.prepared:
        resp.headers["X-Request-Id"] = rid
        if cors:
            resp.headers["Access-Control-Allow-Origin"] = origin  # type: ignore[assignment]
            resp.headers["Access-Control-Expose-Headers"] = CORS_EXPOSED
            resp.headers["Vary"] = "Origin"
    return resp


def _check_write(request: web.Request, cfg: Config, origin: str | None) -> None:
    if request.method not in WRITE_METHODS or request.match_info.http_exception is not None:
        return  # reads, and requests no route takes (404/405 say more than 415 would)
    check_host(request, cfg)
    if origin is not None and not _origin_allowed(origin, request, cfg):
        raise ApiError(403, "cross_origin", f"requests from {origin[:100]!r} are not allowed (see ROUNDHOUSE_CORS_ORIGINS)")
    if request.content_type not in JSON_TYPES:
        raise ApiError(415, "unsupported_media_type",
                       f"send the body as Content-Type: application/json, not {request.content_type[:60]!r}")


def check_host(request: web.Request, cfg: Config) -> None:
    host = request.headers.get("Host")
    # No Host at all (an HTTP/1.0 tool) is no browser's request: nothing was rebound.
    if host is not None and not host_allowed(host, cfg):
        raise ApiError(403, "host_not_allowed", f"this server does not take writes addressed to {host[:100]!r}; "
                       "add the name to ROUNDHOUSE_ALLOWED_HOSTS (or set ROUNDHOUSE_PUBLIC_URL)")


def _preflight(request: web.Request, cfg: Config, origin: str, allowed: bool) -> web.StreamResponse:
    if not allowed:
        raise ApiError(403, "cross_origin", f"requests from {origin[:100]!r} are not allowed (see ROUNDHOUSE_CORS_ORIGINS)")
    return web.Response(status=204, headers={
        "Access-Control-Allow-Methods": "GET, POST",
        "Access-Control-Allow-Headers": "Authorization, Content-Type",
        "Access-Control-Max-Age": "600",
    })


def _message_of(exc: web.HTTPException) -> str:
    text = exc.text if exc.text and exc.content_type == "text/plain" else ""
    reason = exc.reason or HTTPStatus(exc.status).phrase
    # aiohttp's default text is "<status>: <reason>"; a specific one (a size limit) says more.
    if not text or text.startswith(f"{exc.status}:"):
        if exc.status == 404:
            return "nothing is served at this path"
        if exc.status == 405:
            return f"method not allowed; this path takes {exc.headers.get('Allow', 'other methods')}"
        return reason
    return " ".join(text.split())[:300]


# --- metrics ---------------------------------------------------------------------------------


def check_metrics_access(request: web.Request, cfg: Config) -> None:
    """Metrics name tables' counts and timings: with ROUNDHOUSE_METRICS_TOKEN they need it as a
    bearer token, without it they answer loopback peers only."""
    if cfg.metrics_token:
        token = bearer_token(request.headers.get("Authorization", ""))
        if token is None or not hmac.compare_digest(token.encode(), cfg.metrics_token.encode()):
            raise ApiError(401, "unauthorized", "metrics need `Authorization: Bearer <ROUNDHOUSE_METRICS_TOKEN>`")
        return
    try:
        loopback = ipaddress.ip_address(request.remote or "").is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise ApiError(403, "forbidden", "metrics answer loopback only; set ROUNDHOUSE_METRICS_TOKEN to scrape remotely")
    # A browser on this machine is a loopback peer too: a rebound page must not read them.
    check_host(request, cfg)


# --- the server: header timeout, connection cap, JSON parse errors -------------------------------


_REFUSAL_BODY = (b'{"error":{"code":"too_many_connections","message":"this address has too many open '
                 b'connections; close some and retry"}}')
_REFUSAL = (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 1\r\n"
            b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(_REFUSAL_BODY), _REFUSAL_BODY))


def _refuse(tcp: asyncio.Transport) -> None:
    if not tcp.is_closing():  # a peer that reset while held has gone already
        tcp.write(_REFUSAL)
        tcp.close()


class _GuardedHandler(RequestHandler):
    """aiohttp's request handler, refusing a connection over the cap before it serves and
    answering its parser's refusals in JSON. No new slots: the instance's class is swapped
    after aiohttp creates it."""

    __slots__ = ()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        server: _GuardedServer = self._manager  # type: ignore[assignment]
        if server.admit(self, transport):
            super().connection_made(transport)
            return
        # Refused before aiohttp starts the handler's task: that task asserts the connection
        # is still open when it first runs, and a peer that resets at once (the write below
        # fails, and the loss is queued ahead of the task) made each refusal a 7-line
        # "Task exception was never retrieved". With no task, the loss just ends it.
        tcp: asyncio.Transport = transport  # type: ignore[assignment]
        if len(server.held_refusals) >= MAX_HELD_REFUSALS:
            _refuse(tcp)
            return
        # Held, unread, before the answer: a peer that reconnects at once (ignoring
        # Retry-After) then costs one accept a second per connection it keeps trying, not
        # thousands; holding costs no CPU.
        tcp.pause_reading()
        server.held_refusals[tcp] = asyncio.get_running_loop().call_later(TARPIT_S, server.answer_refusal, tcp)

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if request.writer.output_size > 0:
            raise ConnectionError("Response is sent already, cannot send another response with the error message")
        if status >= 500:
            log.error("request from %s failed: %s", request.remote, one_line(exc) if exc else message)
            code, text = "internal_error", "internal error; see the server log"
        else:
            log.debug("bad HTTP from %s: %s", request.remote, message)
            code, text = "bad_http", " ".join((message or HTTPStatus(status).phrase).split())[:300]
        resp = error_response(status, code, text)
        resp.force_close()
        return resp


class _GuardedServer(web.Server):
    """Counts open connections per client address; over the cap, a connection gets a JSON 429
    and is closed before it is read (and is not counted): after TARPIT_S, while at most
    MAX_HELD_REFUSALS are held, else at once."""

    cap: int
    open_per_ip: Counter[str]
    peer_of: dict[RequestHandler, str]
    refused: int  # refusals not logged yet
    refused_logged_at: float
    refused_last_ip: str
    refused_timer: asyncio.TimerHandle | None
    held_refusals: dict[asyncio.Transport, asyncio.TimerHandle]  # waiting for their 429 (connection_made)

    def __call__(self) -> RequestHandler:
        handler = super().__call__()
        handler.__class__ = _GuardedHandler
        return handler

    def admit(self, handler: RequestHandler, transport: asyncio.BaseTransport) -> bool:
        """Count the connection against its address; False (noted as a refusal) over the cap."""
        peer = transport.get_extra_info("peername")
        ip = str(peer[0]) if peer else "unknown"
        if self.cap and self.open_per_ip[ip] >= self.cap:
            self._note_refusal(ip)
            return False
        self.peer_of[handler] = ip
        self.open_per_ip[ip] += 1
        return True

    def _note_refusal(self, ip: str) -> None:
        """Counted, and logged as one line per REFUSALS_LOG_S at most, however many refusals
        (they need no login): the first at once, the rest when the interval is over."""
        self.refused += 1
        self.refused_last_ip = ip
        if self.refused_timer is not None:
            return
        wait = self.refused_logged_at + REFUSALS_LOG_S - time.monotonic()
        if wait <= 0:
            self.log_refusals()
        else:
            self.refused_timer = asyncio.get_running_loop().call_later(wait, self.log_refusals)

    def log_refusals(self) -> None:
        """The refusals counted since the last line, as one line (also at shutdown)."""
        if self.refused_timer is not None:
            self.refused_timer.cancel()
        self.refused_timer = None
        if self.refused:
            log.warning("refused %d connection(s) over the per-address cap of %d (one such line per %.0f s at "
                        "most; latest from %s)", self.refused, self.cap, REFUSALS_LOG_S, self.refused_last_ip)
        self.refused = 0
        self.refused_logged_at = time.monotonic()

    def answer_refusal(self, tcp: asyncio.Transport) -> None:
        timer = self.held_refusals.pop(tcp, None)
        if timer is not None:
            timer.cancel()
        _refuse(tcp)

    def answer_held_refusals(self) -> None:
        """At shutdown: every held refusal answered now."""
        for tcp in list(self.held_refusals):
            self.answer_refusal(tcp)

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        ip = self.peer_of.pop(handler, None)
        if ip is not None:
            self.open_per_ip[ip] -= 1
            if self.open_per_ip[ip] <= 0:
                del self.open_per_ip[ip]
        super().connection_lost(handler, exc)


class GuardedRunner(web.AppRunner):
    def __init__(self, app: web.Application, cfg: Config, **kwargs: Any) -> None:
        # aiohttp's keep-alive timer runs from the moment a connection opens and closes it if no
        # whole request arrived: with it set to the header timeout, half-sent headers are cut.
        kwargs.setdefault("keepalive_timeout", cfg.header_timeout)
        super().__init__(app, **kwargs)
        self.cfg = cfg

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        server.__class__ = _GuardedServer
        guarded: _GuardedServer = server  # type: ignore[assignment]
        guarded.cap = self.cfg.max_connections_per_client
        guarded.open_per_ip = Counter()
        guarded.peer_of = {}
        guarded.refused = 0
        guarded.refused_logged_at = -REFUSALS_LOG_S
        guarded.refused_last_ip = ""
        guarded.refused_timer = None
        guarded.held_refusals = {}
        return server

    async def cleanup(self) -> None:
        # Refusals still waiting for their interval's line are logged, not lost, at shutdown.
        if isinstance(self.server, _GuardedServer):
            self.server.answer_held_refusals()
            self.server.log_refusals()
        await super().cleanup()


def make_runner(app: web.Application, **kwargs: Any) -> web.AppRunner:
    """The runner for `app`: guarded when a Roundhouse service is installed in it."""
    cfg = app.get(CONFIG_KEY)
    return web.AppRunner(app, **kwargs) if cfg is None else GuardedRunner(app, cfg, **kwargs)
