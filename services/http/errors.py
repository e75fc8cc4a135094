"""API errors: every refusal is `{"error": {"code", "message"}}` with a 4xx status, and
`answer_for` is the one place an exception becomes that answer (the game's endpoints and the
guard middleware of both services call it; a WebSocket's bug is logged by `log_bug` too).

The codes are stable (clients branch on them); the table below is what docs/api.md and the
OpenAPI document list. Rule errors from a title's engine come through as 422 with the
engine's own code (e.g. `not_your_turn`, `bad_amount`).
"""

from __future__ import annotations

import logging

import msgspec
from aiohttp import web
from redis.exceptions import OutOfMemoryError, ResponseError

from shared.engine import RuleError
from shared.protocol.http import ErrorDetail, ErrorReply
from shared.store import UnknownTable
from shared.store.connect import REDIS_OR_CONNECTION_ERRORS, torn_connection
from shared.tables import LogBroken, LogGap

log = logging.getLogger("roundhouse.http")

ERROR_CODES: dict[str, tuple[int, str]] = {
    "bad_json": (400, "the body (or the action in it) is not valid JSON, or nested deeper than the server accepts"),
    "bad_query": (400, "a query parameter is malformed (integers: ASCII digits only, in range)"),
    "bad_http": (400, "the HTTP request itself is malformed (request line, a header too long, a bad upgrade)"),
    "missing_token": (401, "no `Authorization: Bearer <seat token>` header"),
    "bad_token": (401, "the seat token is malformed or its signature does not match"),
    "wrong_table": (403, "the seat token belongs to another table"),
    "wrong_seat": (403, "the seat token belongs to another seat than the one asked for"),
    "cross_origin": (403, "a write from a browser origin this deployment does not allow (ROUNDHOUSE_CORS_ORIGINS)"),
    "forbidden": (403, "metrics asked from outside loopback without ROUNDHOUSE_METRICS_TOKEN"),
    "unauthorized": (401, "metrics asked without the right ROUNDHOUSE_METRICS_TOKEN"),
    "not_found": (404, "nothing is served at this path"),
    "method_not_allowed": (405, "the path exists but not with this method (`Allow` lists the methods)"),
    "request_timeout": (408, "the body did not arrive within ROUNDHOUSE_BODY_TIMEOUT"),
    "unknown_table": (404, "no table has that id"),
    "stale_seq": (409, "expected_seq is not the table's current seq; `current_seq` says what it is"),
    "log_full": (409, "the table's log reached ROUNDHOUSE_MAX_LOG entries; it takes no more"),
    "table_needs_attention": (409, "the table's stored log no longer folds under this server's rules "
                                   "(the entry and the rule error are named); nothing is lost"),
    "out_of_time": (409, "the seat's clock has run out (docs/clocks.md); the table's timeout outcome follows"),
    "table_ended": (409, "the table ended early (a seat ran out of time, on_timeout=abandon); it takes no more"),
    "body_too_large": (413, "the body is larger than the server accepts"),
    "unsupported_media_type": (415, "a write whose Content-Type is not application/json"),
    "bad_request": (422, "the body is JSON but does not match the endpoint's schema"),
    "bad_action": (422, "the action is not one of the title's actions (unknown type, wrong field)"),
    "unknown_title": (422, "no title has that id"),
    "bad_seats": (422, "seat count outside the title's range, or a level given for a human seat"),
    "bad_options": (422, "an option the title does not have, or a value it refuses"),
    "bad_clock": (422, "a clock whose fields do not fit its kind (docs/clocks.md)"),
    "no_preview": (422, "a preview of an action the title does not preview (POST /api/tables/{t}/preview)"),
    "unknown_bot": (422, "a seat handed to a bot level that does not exist"),
    "rule error": (422, "any other code: the title's rules refuse the action (the engine's code and message)"),
    "rate_limited": (429, "this client sent more than its limit (tables created, actions); `Retry-After` says when to retry"),
    "too_many_undos": (429, "this table undid and redid more than ROUNDHOUSE_LIMIT_UNDO allows; `Retry-After` says when"),
    "too_many_connections": (429, "this address holds more open connections than ROUNDHOUSE_MAX_CONNECTIONS_PER_CLIENT"),
    "too_many_open_tables": (429, "this address holds ROUNDHOUSE_MAX_OPEN_TABLES_PER_CLIENT tables where nothing was played yet"),
    "too_many_tables": (429, "this address holds ROUNDHOUSE_MAX_TABLES_PER_CLIENT unfinished tables (started or not); "
                             "finish or leave some (docs/running.md#the-stores-budget)"),
    "too_many_bot_tables": (429, "this address's tables where only bots sit number ROUNDHOUSE_MAX_BOT_TABLES_PER_CLIENT "
                                 "(created so, or every seat handed to a bot)"),
    "bot_tables_busy": (503, "the store holds ROUNDHOUSE_MAX_BOT_TABLES tables where only bots sit, or all clients "
                             "together make them faster than ROUNDHOUSE_LIMIT_BOT_TABLES_ALL; `Retry-After` says when"),
    "store_full": (507, "the event store is full (Redis's maxmemory, its reserve for moves, ROUNDHOUSE_MAX_OPEN_TABLES "
                        "or ROUNDHOUSE_MAX_TABLES); nothing was written; do not retry at once"),
    "tables_busy": (503, "all clients together are creating tables faster than ROUNDHOUSE_LIMIT_CREATE_ALL; "
                         "`Retry-After` says when"),
    "unavailable": (503, "the event store (Redis) cannot be reached; retry with the same idempotency key"),
    "internal_error": (500, "a bug; the message names a request id, and the server log has one line with it"),
}

_encoder = msgspec.json.Encoder()


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, current_seq: int | None = None,
                 retry_after: str | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.current_seq = current_seq
        self.retry_after = retry_after


def coded(code: str, message: str, current_seq: int | None = None, retry_after: str | None = None) -> ApiError:
    """An ApiError with the status the code table gives it."""
    return ApiError(ERROR_CODES[code][0], code, message, current_seq, retry_after)


def error_response(status: int, code: str, message: str, current_seq: int | None = None,
                   request_id: str | None = None, retry_after: str | None = None) -> web.Response:
    detail = ErrorDetail(code=code, message=message, current_seq=current_seq, request_id=request_id)
    body = _encoder.encode(ErrorReply(error=detail))
    headers = {"Retry-After": retry_after} if retry_after else None
    return web.Response(status=status, body=body, content_type="application/json", headers=headers)


def is_store_full(exc: BaseException) -> bool:
    """Redis refusing a write at its maxmemory. redis-py maps the `OOM` reply to
    OutOfMemoryError (whose text no longer says OOM); inside a pipeline or script it may
    come back as a plain ResponseError with the server's text."""
    return isinstance(exc, OutOfMemoryError) or (
        isinstance(exc, ResponseError) and "command not allowed when used memory" in str(exc))


def unavailable() -> web.Response:
    return error_response(503, "unavailable", "the event store is unavailable; retry with the same idempotency key")


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


def log_bug(what: str, exc: BaseException) -> None:
    """An exception nobody expected: one line in the log, the traceback at debug level."""
    log.error("%s failed: %s: %s", what, type(exc).__name__, one_line(exc))
    log.debug("%s traceback", what, exc_info=True)


def answer_for(exc: Exception, method: str, where: str, rid: str) -> web.Response:
    """The JSON answer to an exception a handler raised at `where` (a route or a path):
    refusals with their own status and code, the store's troubles as 507/503, anything else
    a 500 `internal_error` naming the request id `rid`, logged as one line."""
    if isinstance(exc, ApiError):
        return error_response(exc.status, exc.code, exc.message, exc.current_seq, retry_after=exc.retry_after)
    if isinstance(exc, RuleError):
        return error_response(422, exc.code, exc.message)
    if isinstance(exc, UnknownTable):
        return error_response(404, "unknown_table", f"no table {exc.table!r}")
    if isinstance(exc, REDIS_OR_CONNECTION_ERRORS):
        if is_store_full(exc):
            log.warning("redis is full (maxmemory) on %s", where)
            return error_response(507, "store_full", "the event store is full; nothing was written")
        log.warning("redis unavailable on %s: %s", where, exc)
        return unavailable()
    if isinstance(exc, LogBroken):
        log.error("%s", exc)
        return error_response(409, exc.code, exc.message)
    if isinstance(exc, LogGap):
        log.warning("%s on %s", exc, where)
        return error_response(503, "unavailable", "the table's log was read mid-write; retry")
    if torn_connection(exc):
        log.warning("redis connection torn mid-failover on %s", where)
        return unavailable()
    log_bug(f"request {rid} {method} {where}", exc)
    return error_response(500, "internal_error", f"internal error (request id {rid}); see the server log", request_id=rid)
