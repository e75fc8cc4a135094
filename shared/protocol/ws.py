"""The projection WebSocket protocol, version 1 (client authors: read docs/protocol.md).

Every message is one JSON text frame, an object whose `type` field names it. The client
opens with `hello`; the server answers `welcome`, then one `update` per log entry with
`seq` rising by exactly one each time, across reconnects (the client resumes with the
last `seq` it holds).

`view` and `action` are title-specific JSON objects; an update's `patch` is an RFC 6902
JSON Patch from the receiver's previous view to its new one (shared/protocol/json_patch.py).
The server splices them in as pre-encoded bytes (`msgspec.Raw`) so each is encoded once per
seat, not once per socket.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Raw

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS = frozenset({PROTOCOL_VERSION})

Seq = Annotated[int, Meta(ge=0, description="position in the table's log; 0 = before the first action")]
TableId = Annotated[str, Meta(min_length=1, max_length=200, description="table id")]
PingId = Annotated[int | str | None, Meta(description="echoed back in the pong")]


class _Message(msgspec.Struct, tag_field="type", kw_only=True):
    pass


# --- client -> server ------------------------------------------------------------------------


class Hello(_Message, tag="hello"):
    """First message on every connection. `token` absent = watch as a spectator."""

    v: Annotated[int, Meta(description="protocol version the client speaks; this server speaks 1")]
    table: TableId
    token: Annotated[str | None, Meta(description="seat token from the game service; absent or null = spectator")] = None
    last_seq: Annotated[
        Seq, Meta(description="highest seq the client has applied (0 = nothing); the server resumes after it")
    ] = 0
    chat: Annotated[
        bool, Meta(description="also receive the table's chat: a chat_log after the welcome, then chat_line and mutes frames")
    ] = False


class Ping(_Message, tag="ping"):
    """Application-level liveness check; the server answers `pong` with the same id."""

    id: PingId = None


class ChatSend(_Message, tag="chat"):
    """Say something at the table's chat (seats and spectators). Shown as text everywhere."""

    text: Annotated[str, Meta(description="the message; 1-500 characters after trimming; never HTML")]
    name: Annotated[
        Annotated[str, Meta(max_length=200)] | None, Meta(description=
            "a spectator's name for its lines, up to 40 characters "
            "(seats speak as their seat's name)")
    ] = None


class MuteSet(_Message, tag="mute"):
    """A seat hides (or shows again) the chat of another seat, or of every spectator, for itself."""

    target: Annotated[int | Literal["spectators"], Meta(description="a seat number, or \"spectators\"")]
    muted: bool = True


class ViewAt(_Message, tag="view_at", kw_only=True):
    """Ask for this socket's view at a past position of the log (history); answered by `past_view`."""

    seq: Seq
    id: PingId = None
    entries_after: Annotated[
        Annotated[int, Meta(ge=0)] | None, Meta(description=
            "also send the log entries after this seq (the index for "
            "stepping); null = none")
    ] = None


ClientMessage = Hello | Ping | ChatSend | MuteSet | ViewAt


# --- server -> client ------------------------------------------------------------------------


class Welcome(_Message, tag="welcome"):
    """Answer to `hello`. The next `update` carries `seq + 1`.

    Fresh start (`resumed` false): `view` is the seat's whole view at `seq`; the client
    replaces whatever it held. Resume (`resumed` true): `seq` equals the client's
    `last_seq`, `view` is null, and the updates after it follow.
    """

    v: int
    table: str
    title: Annotated[str, Meta(description="the table's title id, e.g. chicago-express")]
    seat: Annotated[int | None, Meta(description="the seat this connection watches as; null = spectator")]
    seq: Seq
    resumed: bool
    view: Annotated[Raw | None, Meta(description="title-specific view object at seq (null when resumed)")] = None


# The JSON Schema of a patch (RFC 6902, restricted to the ops this server sends).
_PATCH_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["op", "path"],
        "properties": {
            "op": {"enum": ["add", "remove", "replace"]},
            "path": {"type": "string", "description": "JSON Pointer (RFC 6901); '' is the whole view, '/-' appends"},
            "value": {"description": "the value to add or to replace with (not with remove)"},
        },
    },
}


class Update(_Message, tag="update"):
    """One log entry: `seat` did `action` (undo/redo included); `patch` turns the receiver's view at
    seq - 1 into its view at seq."""

    seq: Seq
    seat: Annotated[int, Meta(description="the seat that acted")]
    action: Annotated[Raw, Meta(description="the action as logged: {type: ..., ...}; a sealed action "
                                            "(Engine.sealed) reaches other seats as {type} alone")]
    t: Annotated[int, Meta(description="server time the action was appended, ms since the epoch")]
    patch: Annotated[
        Raw,
        Meta(
            description=(
                "RFC 6902 JSON Patch (ops add, remove, replace) from the receiving seat's view at seq - 1 "
                "to its view at seq; apply it in order to the view held. Empty when the view did not change."
            ),
            extra_json_schema=_PATCH_SCHEMA,
        ),
    ]


class Ended(_Message, tag="ended"):
    """The table ended outside the rules at `seq` (a seat's clock ran out and the table was
    created with on_timeout=abandon): `result` holds the standings then. `patch` turns the
    view at seq into the ended one (replaces `/result` and `/active_seats`, so a copy applied
    twice changes nothing). Sent to every socket of the table when it happens, and after a
    resumed welcome (and its replay); a fresh welcome's view already holds the result. No
    update follows."""

    seq: Seq
    result: Annotated[Raw, Meta(description="the standings: {scores, ranks, winners, reason}, "
                                            "reason `abandoned: <name> ran out of time`")]
    patch: Annotated[Raw, Meta(description="RFC 6902 JSON Patch from the view at seq to the ended view",
                               extra_json_schema=_PATCH_SCHEMA)]


class Error(_Message, tag="error"):
    """Something the client sent was refused. `fatal` errors are followed by a close."""

    code: str
    message: str
    fatal: bool = False


class Pong(_Message, tag="pong"):
    id: PingId = None


class ChatLine(_Message, tag="chat_line"):
    """One chat line, pushed to every socket of the table except those whose seat muted its author."""

    id: Annotated[str, Meta(description="the line's id in the chat stream (ordered)")]
    seat: Annotated[int | None, Meta(description="the author's seat; null = a spectator")]
    name: str
    text: Annotated[str, Meta(description="plain text: show it as text, never as HTML")]
    t: Annotated[int, Meta(description="server time the line was stored, ms since the epoch")]


class ChatLog(_Message, tag="chat_log"):
    """Sent after every welcome: the table's recent chat (oldest first, muted authors left out)
    and what this seat mutes."""

    lines: list[ChatLine]
    muted: Annotated[list[int | str], Meta(description="seats (and \"spectators\") this seat mutes")]


class Mutes(_Message, tag="mutes"):
    """What this seat mutes now (after a `mute` from any of its sockets)."""

    muted: list[int | str]


class HistoryEntry(msgspec.Struct, kw_only=True):
    seq: Seq
    seat: int
    action: Annotated[Raw, Meta(description="the action as logged for the asking seat's own entries; others' as "
                                            "they are told of it (only {type} for a sealed one)")]
    t: Annotated[int, Meta(description="server time the entry was appended, ms since the epoch")]
    round: Annotated[str | None, Meta(description=
        "where the game was after this entry (a round label), if the "
        "title has rounds")] = None


class ViewAtReply(_Message, tag="past_view", kw_only=True):
    """This socket's view at a past seq, exactly the engine's view of that position for the
    socket's seat (a spectator's for a spectator): a seat's secrets of then are shown to it only."""

    id: PingId = None
    seq: Seq
    last_seq: Annotated[Seq, Meta(description="the table's seq when this was answered")]
    view: Annotated[Raw, Meta(description="title-specific view object at seq")]
    entries: Annotated[
        list[HistoryEntry], Meta(description=
            "the log entries after the request's entries_after, up to "
            "last_seq (empty if not asked)")
    ]
    round: Annotated[str | None, Meta(description="the round label at seq 0 (the set-up); entries carry their own")] = None


ServerMessage = Welcome | Update | Ended | Error | Pong | ChatLine | ChatLog | Mutes | ViewAtReply


# Close codes the server uses after a fatal error (the error frame's `code` says more).
CLOSE_GOING_AWAY = 1001  # server shutting down: reconnect with last_seq
CLOSE_POLICY = 1008  # bad hello, bad token, unknown table, protocol violation
CLOSE_TOO_BIG = 1009  # a frame over the size limit
CLOSE_INTERNAL = 1011

# Error codes (the stable part of an error; `message` is for people).
ERROR_CODES: dict[str, str] = {
    "bad_hello": "the first message was not a valid hello (malformed JSON, wrong type, bad field)",
    "unsupported_version": "hello.v is a protocol version this server does not speak",
    "bad_token": "the seat token is malformed or its signature does not match",
    "wrong_table": "the seat token belongs to another table",
    "unknown_table": "no table has that id",
    "unsupported_title": "the table's title is not installed on this server",
    "hello_timeout": "no hello arrived in time after the socket opened",
    "bad_message": "a message after hello was not valid JSON or not a known client message (not fatal)",
    "duplicate_hello": "a second hello on the same connection",
    "binary_not_supported": "the protocol uses text frames only",
    "frame_too_large": "a frame exceeded the server's size limit",
    "too_many_watchers": "this address holds ROUNDHOUSE_MAX_WATCHERS_PER_CLIENT spectator sockets already; closes with 1013",
    "unavailable": "the server cannot reach its store right now; reconnect later",
    "internal_error": "a bug in the server (logged there); the socket closes with 1011",
    "chat_empty": "a chat message with no text (not fatal)",
    "chat_too_long": "a chat message over the length limit (not fatal)",
    "chat_rate_limited": "too many chat messages in a short time; wait and send again (not fatal)",
    "bad_mute": "a mute naming your own seat or a seat that does not exist, or sent by a spectator (not fatal)",
    "bad_seq": "a view_at seq beyond the table's log (not fatal)",
    "history_gone": "the table was compacted (a finished or abandoned table, after the retention time): only its "
                    "result and final position are kept (not fatal)",
}

_encoder = msgspec.json.Encoder()
_client_decoder = msgspec.json.Decoder(ClientMessage)


class _VersionProbe(msgspec.Struct):
    v: Any = None


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def encode(message: _Message) -> bytes:
    return _encoder.encode(message)


def decode_client(raw: bytes | str) -> ClientMessage:
    """Decode one client frame or raise ProtocolError (bad_message or unsupported_version)."""
    try:
        msg = _client_decoder.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        # A future client's hello may not fit v1's schema at all; name the version problem, not the schema.
        version = _probe_version(raw)
        # Only a number is a version (a list or object there is just a bad hello).
        if isinstance(version, int) and not isinstance(version, bool) and version not in SUPPORTED_VERSIONS:
            raise ProtocolError("unsupported_version", _version_message(version)) from None
        raise ProtocolError("bad_message", str(exc)) from None
    except RecursionError:
        raise ProtocolError("bad_message", "JSON nested too deeply") from None
    if isinstance(msg, Hello) and msg.v not in SUPPORTED_VERSIONS:
        raise ProtocolError("unsupported_version", _version_message(msg.v))
    return msg


def _probe_version(raw: bytes | str) -> Any:
    try:
        return msgspec.json.decode(raw, type=_VersionProbe).v
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return None


def _version_message(version: Any) -> str:
    return f"protocol version {version!r} is not supported; this server speaks {sorted(SUPPORTED_VERSIONS)}"


def error_frame(code: str, message: str, *, fatal: bool = False) -> bytes:
    return encode(Error(code=code, message=message, fatal=fatal))
