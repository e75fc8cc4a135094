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
    "bad_json": (400, "the body (or the action in it) is not valid JSON"),
    "bad_query": (400, "a query parameter is malformed"),
    "missing_token": (401, "no `Authorization: Bearer <seat token>` header"),
    "bad_token": (401, "the seat token is malformed or its signature does not match"),
    "wrong_table": (403, "the seat token belongs to another table"),
    "wrong_seat": (403, "the seat token belongs to another seat than the one asked for"),
    "unknown_table": (404, "no table has that id"),
    "stale_seq": (409, "expected_seq is not the table's current seq; `current_seq` says what it is"),
    "table_needs_attention": (409, "the table's stored log no longer folds under this server's rules (the entry and the rule error are named); nothing is lost"),
    "body_too_large": (413, "the body is larger than the server accepts"),
    "bad_request": (422, "the body is JSON but does not match the endpoint's schema"),
    "bad_action": (422, "the action is not one of the title's actions (unknown type, wrong field)"),
    "unknown_title": (422, "no title has that id"),
    "bad_seats": (422, "seat count outside the title's range, or a level given for a human seat"),
    "bad_options": (422, "an option the title does not have, or a value it refuses"),
    "unknown_bot": (422, "a seat handed to a bot level that does not exist"),
    "rule error": (422, "any other code: the title's rules refuse the action (the engine's code and message)"),
    "unavailable": (503, "the event store (Redis) cannot be reached; retry with the same idempotency key"),
    "internal": (500, "a bug; the message is generic and the details are in the server log"),
}

_encoder = msgspec.json.Encoder()


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, current_seq: int | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.current_seq = current_seq


def coded(code: str, message: str, current_seq: int | None = None) -> ApiError:
    """An ApiError with the status the code table gives it."""
    return ApiError(ERROR_CODES[code][0], code, message, current_seq)


def error_response(status: int, code: str, message: str, current_seq: int | None = None) -> web.Response:
    body = _encoder.encode(ErrorReply(error=ErrorDetail(code=code, message=message, current_seq=current_seq)))
    return web.Response(status=status, body=body, content_type="application/json")
