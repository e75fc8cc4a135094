"""API errors: every refusal is `{"error": {"code", "message"}}` with a 4xx status.

The codes are stable (clients branch on them); the table below is what docs/api.md and the
OpenAPI document list. Rule errors from a title's engine come through as 422 with the
engine's own code (e.g. `not_your_turn`, `bad_amount`).
"""

from __future__ import annotations

import msgspec
from aiohttp import web

from shared.protocol.http import ErrorDetail, ErrorReply

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
    "bot_tables_busy": (503, "the store holds ROUNDHOUSE_MAX_BOT_TABLES tables where only bots sit; `Retry-After` says when"),
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
