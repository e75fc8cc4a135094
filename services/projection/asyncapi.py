"""The AsyncAPI 3.0 document of the WebSocket protocol, built from the msgspec structs in
`shared.protocol.ws` so the document cannot drift from the code (docs/asyncapi.json is
this output, checked by a test)."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.protocol import ws

_REF = "#/components/schemas/{name}"
_CLIENT = (ws.Hello, ws.Ping, ws.ChatSend, ws.MuteSet, ws.ViewAt)
_SERVER = (ws.Welcome, ws.Update, ws.Ended, ws.Error, ws.Pong, ws.ChatLine, ws.ChatLog, ws.Mutes, ws.ViewAtReply)


def _message_name(cls: type) -> str:
    return cls.__struct_config__.tag  # type: ignore[attr-defined]


def document() -> dict[str, Any]:
    _, schemas = msgspec.json.schema_components((*_CLIENT, *_SERVER), ref_template=_REF)
    messages = {
        _message_name(cls): {
            "name": _message_name(cls),
            "title": cls.__name__,
            "summary": (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else cls.__name__,
            "contentType": "application/json",
            "payload": {"$ref": _REF.format(name=cls.__name__)},
        }
        for cls in (*_CLIENT, *_SERVER)
    }

    def refs(classes: tuple[type, ...]) -> list[dict[str, str]]:
        return [{"$ref": f"#/channels/table/messages/{_message_name(c)}"} for c in classes]

    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Roundhouse projection (table views over WebSocket)",
            "version": str(ws.PROTOCOL_VERSION),
            "description": (
                "Connect, send hello (seat token or none for a spectator, and the last seq you hold); "
                "receive welcome, then one update per log entry with seq rising by exactly 1. "
                "See docs/protocol.md for the reconnection rules and error codes."
            ),
        },
        "defaultContentType": "application/json",
        "servers": {
            "dev": {"host": "127.0.0.1:8000", "protocol": "ws", "description": "roundhouse dev (one port for every service)"},
            "projection": {"host": "127.0.0.1:8002", "protocol": "ws", "description": "roundhouse projection alone"},
        },
        "channels": {
            "table": {
                "address": "/ws",
                "title": "One table, watched as one seat or as a spectator",
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in messages},
            }
        },
        "operations": {
            "receiveClientMessages": {
                "action": "receive",
                "channel": {"$ref": "#/channels/table"},
                "summary": "hello first, then ping at will",
                "messages": refs(_CLIENT),
            },
            "sendServerMessages": {
                "action": "send",
                "channel": {"$ref": "#/channels/table"},
                "summary": "welcome, then updates in seq order; error and pong",
                "messages": refs(_SERVER),
            },
        },
        "components": {
            "messages": messages,
            "schemas": schemas,
            "x-error-codes": dict(ws.ERROR_CODES),
            "x-close-codes": {
                str(ws.CLOSE_GOING_AWAY): "server shutting down: reconnect and resume",
                str(ws.CLOSE_POLICY): "fatal error (see the error frame sent just before)",
                str(ws.CLOSE_TOO_BIG): "a frame exceeded the size limit",
                "1013": "store unavailable: reconnect later",
            },
        },
    }


def document_json() -> bytes:
    return msgspec.json.format(msgspec.json.encode(document()), indent=2) + b"\n"


if __name__ == "__main__":
    import sys

    sys.stdout.buffer.write(document_json())
