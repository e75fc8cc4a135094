"""The OpenAPI 3.1 document of the game service, built from the msgspec structs the handlers
use, so the schemas cannot drift from the code. Paths and status codes are listed here."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import Redo, Undo
from shared.games import get_engine, titles
from shared.protocol.http import REPLIES, REQUESTS

from services.http.errors import ERROR_CODES

REF = "#/components/schemas/{name}"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(name=name)}


def _json(name: str) -> dict[str, Any]:
    return {"application/json": {"schema": _ref(name)}}


def _errors(*statuses: int) -> dict[str, Any]:
    out = {}
    for status in statuses:
        codes = [c for c, (s, _) in ERROR_CODES.items() if s == status]
        out[str(status)] = {"description": "error codes: " + ", ".join(codes), "content": _json("ErrorReply")}
    return out


def _op(summary: str, ok: tuple[int, str], errors: tuple[int, ...], *, body: str | None = None,
        params: list[dict[str, Any]] | None = None, secured: bool = False) -> dict[str, Any]:
    status, reply = ok
    op: dict[str, Any] = {
        "summary": summary,
        "responses": {str(status): {"description": "success", "content": _json(reply)}, **_errors(*errors)},
    }
    if body:
        op["requestBody"] = {"required": True, "content": _json(body)}
    if params:
        op["parameters"] = params
    if secured:
        op["security"] = [{"seatToken": []}]
    return op


def _param(name: str, where: str, schema: dict[str, Any], description: str, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": where, "required": required or where == "path", "schema": schema, "description": description}


TABLE = _param("table", "path", {"type": "string"}, "table id")
SUBMIT_ERRORS = (400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 500, 503, 507)


def _action_schemas() -> dict[str, Any]:
    """One `<title>.Action` component per title, and the structs it uses named
    `<title>.<Struct>`: two titles may both have a `Pass`."""
    out: dict[str, Any] = {}
    for title in titles():
        engine = get_engine(title)
        template = REF.format(name=f"{title}.{{name}}")
        (schema,), parts = msgspec.json.schema_components([engine.action_type | Undo | Redo], ref_template=template)
        out.update({f"{title}.{name}": part for name, part in parts.items()})
        out[f"{title}.Action"] = schema
    return out


def openapi_document() -> dict[str, Any]:
    (*_, ), components = msgspec.json.schema_components(REQUESTS + REPLIES, ref_template=REF)
    actions = _action_schemas()
    components.update(actions)
    action_refs = [_ref(name) for name in actions if name.endswith(".Action")]
    components["SubmitAction"]["properties"]["action"] = {
        "description": "the table's title action (see the <title>.Action schemas), or {type: undo} / {type: redo}",
        **({"oneOf": action_refs} if action_refs else {"type": "object"}),
    }
    paths = {
        "/api/tables": {
            "post": _op("Create a table; returns a token per human seat", (201, "TableCreated"),
                        (400, 403, 408, 413, 415, 422, 429, 500, 503, 507),
                        body="CreateTable"),
            "get": _op("List tables, newest first", (200, "TableList"), (400, 503), params=[
                _param("status", "query", {"enum": ["open", "running", "finished"]}, "only tables in this status"),
                _param("limit", "query", {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}, "page size"),
                _param("offset", "query", {"type": "integer", "minimum": 0, "default": 0}, "next_offset of the last page"),
            ]),
        },
        "/api/tables/{table}": {
            "get": _op("A table's status, seats, seq, active seats and result", (200, "TableDetail"), (404, 503),
                       params=[TABLE]),
        },
        "/api/tables/{table}/actions": {
            "post": _op("Submit an action (undo/redo included) as the token's seat", (201, "ActionAccepted"),
                        SUBMIT_ERRORS, body="SubmitAction", params=[TABLE], secured=True),
        },
        "/api/tables/{table}/undo": {
            "post": _op("Undo the seat's own last action (same as action {type: undo})", (201, "ActionAccepted"),
                        SUBMIT_ERRORS, body="SubmitUndo", params=[TABLE], secured=True),
        },
        "/api/tables/{table}/legal": {
            "get": _op("The legal actions of the token's seat now", (200, "LegalActions"), (400, 401, 403, 404, 503),
                       params=[TABLE, _param("seat", "query", {"type": "integer", "minimum": 0},
                                             "must be the token's seat; defaults to it")], secured=True),
        },
        "/api/tables/{table}/clock": {
            "get": _op("Each seat's time left now (table clocks, docs/clocks.md), its controller, and an early end",
                       (200, "ClockReply"), (404, 429, 503), params=[TABLE]),
        },
        "/api/tables/{table}/seats/{seat}/controller": {
            "post": _op("Hand the token's seat to a bot, or take it back", (200, "SeatControlled"),
                        (400, 401, 403, 404, 408, 413, 415, 422, 429, 500, 503), body="SeatControl",
                        params=[TABLE, _param("seat", "path", {"type": "integer", "minimum": 0},
                                              "the token's seat")], secured=True),
        },
        "/api/tables/{table}/seats/{seat}/notify": {
            **{method: _op(summary, (200, "NotifyReply"), (400, 401, 403, 404, 408, 413, 415, 422, 429, 503),
                           body="NotifySettings" if method == "put" else None,
                           params=[TABLE, _param("seat", "path", {"type": "integer", "minimum": 0}, "the token's seat")],
                           secured=True)
               for method, summary in (("get", "The seat's turn-notice settings and webhook signing key"),
                                       ("put", "Set the seat's turn notices (webhook, e-mail, delay)"),
                                       ("delete", "Stop the seat's turn notices"))},
        },
        "/api/tables/{table}/preview": {
            "post": _op("What an action would do if the token's seat sent it now (a run's revenue); changes nothing",
                        (200, "ActionPreview"), (400, 401, 403, 404, 408, 409, 413, 415, 422, 429, 500, 503),
                        body="PreviewAction", params=[TABLE], secured=True),
        },
        "/api/titles": {"get": _op("Every title: id, name, players, options with defaults, bot levels, web module",
                                   (200, "TitleList"), ())},
        "/api/health": {"get": _op("Liveness", (200, "Health"), ())},
        "/api/ready": {"get": _op("Readiness: Redis reachable", (200, "Ready"), ())},
        "/api/metrics": {"get": {
            "summary": "Prometheus metrics (text format 0.0.4); loopback only, or with ROUNDHOUSE_METRICS_TOKEN as bearer",
            "responses": {"200": {"description": "metrics", "content": {"text/plain": {"schema": {"type": "string"}}}},
                          **_errors(401, 403)},
        }},
        "/api/openapi.json": {"get": {
            "summary": "This document",
            "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object"}}}}},
        }},
    }
    paths["/api/ready"]["get"]["responses"]["503"] = {"description": "Redis unreachable", "content": _json("Ready")}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Roundhouse game service", "version": "1.0.0",
                 "description": "Command side: tables, actions, legal actions, undo. See docs/api.md."},
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer",
                                              "description": "seat token from POST /api/tables"}},
        },
    }
