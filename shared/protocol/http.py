"""Bodies of the game service's HTTP API (client authors: read docs/api.md).

Requests are decoded strictly (unknown fields refused) so a typo is an error, not a silent
default. `action` stays raw JSON here: the table's title decodes it (`shared.engine.decode_action`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Raw

from shared.clock import ClockKind, ClockSpec
from shared.engine import LegalAction, OptionSpec, Result

Seq = Annotated[int, Meta(ge=0, description="position in the table's log; 0 = before the first action")]
SeatNo = Annotated[int, Meta(ge=0, description="seat number, 0-based, in the order seats were given")]
TitleId = Annotated[str, Meta(min_length=1, max_length=64, description="title id, e.g. chicago-express")]
IdemKey = Annotated[
    str,
    Meta(
        pattern=r"^[!-~]{1,128}$",
        description="client-chosen key, unique per seat and action (a UUID is fine): "
        "a retry with the same key gets the first answer and appends nothing",
    ),
]
Status = Literal["open", "running", "finished"]


class _Request(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class _Reply(msgspec.Struct, kw_only=True):
    pass


# --- requests -----------------------------------------------------------------------------------


class SeatRequest(_Request):
    name: Annotated[str, Meta(min_length=1, max_length=40, description="player name shown at the table")]
    kind: Literal["human", "bot"] = "human"
    level: Annotated[str, Meta(max_length=32, description="bot strength; only for bots")] | None = None


class CreateTable(_Request):
    title: TitleId
    seats: Annotated[list[SeatRequest], Meta(min_length=1, max_length=16)]
    options: Annotated[dict[str, Any], Meta(description="title options; absent ones take the title's defaults")] = {}
    seed: Annotated[
        int, Meta(ge=0, le=2**63 - 1, description="setup randomness; random when absent; kept server side, never shown")
    ] | None = None
    clock: Annotated[ClockSpec, Meta(description="the table's clock (docs/clocks.md); absent: none")] | None = None


class SubmitAction(_Request):
    expected_seq: Annotated[Seq, Meta(description="the seq the client last saw; the action becomes expected_seq + 1")]
    idempotency_key: IdemKey
    action: Annotated[Raw, Meta(description="the title's action object {type: ..., ...}, or {type: undo} / {type: redo}")]


class SubmitUndo(_Request):
    expected_seq: Seq
    idempotency_key: IdemKey
    action_id: Annotated[int, Meta(ge=0, description="go back to just after this log entry (seq); "
                                                    "absent: take back the last decision")] | None = None


class SeatControl(_Request):
    """Hand the token's seat to a bot (`kind: bot`, optional `level`) or take it back (`kind: human`)."""

    kind: Literal["human", "bot"]
    level: Annotated[str, Meta(max_length=32, description="bot level (random, heuristic, mcts); only for bots")] | None = None


class WebhookSpec(_Request):
    url: Annotated[str, Meta(min_length=8, max_length=500, pattern=r"^https?://[^\s]+$",
                             description="where to POST (http or https; private addresses only where the server allows)")]
    format: Annotated[Literal["json", "discord", "slack"], Meta(
        description="json: Roundhouse's own body; discord / slack: their incoming-webhook bodies")] = "json"


class NotifySettings(_Request):
    """How a seat is told it must act, once it has not acted for `delay_s` (docs/notifications.md)."""

    delay_s: Annotated[int, Meta(ge=0, le=7 * 24 * 3600, description="seconds the seat has been to act before a notice")] = 60
    webhook: WebhookSpec | None = None
    email: Annotated[str, Meta(max_length=254, pattern=r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$",
                               description="address for e-mail notices (when the server has SMTP set up)")] | None = None


# --- replies ------------------------------------------------------------------------------------


class SeatInfo(_Reply):
    seat: SeatNo
    name: str
    kind: Literal["human", "bot"]
    level: str | None = None


class SeatGrant(SeatInfo):
    token: Annotated[str | None, Meta(description="bearer token to act as this seat; null for bot seats")] = None
    invite_url: Annotated[str | None, Meta(description="link that opens the web client as this seat; null for bots")] = None


class TableCreated(_Reply):
    table: str
    title: str
    status: Status
    seq: Seq
    active_seats: list[int]
    seats: list[SeatGrant]


class TableSummary(_Reply):
    table: str
    title: str
    status: Status
    options: dict[str, Any]
    seats: list[SeatInfo]
    last_seq: Seq
    created_ms: int
    updated_ms: int
    clock: Annotated[ClockSpec, Meta(description="the table's clock; null: none")] | None = None


class TableList(_Reply):
    tables: list[TableSummary]
    next_offset: Annotated[int | None, Meta(description="pass as ?offset= for the next page; null at the end")]


class TableDetail(TableSummary, kw_only=True):
    active_seats: Annotated[list[int], Meta(description="seats that must act now (several for simultaneous decisions)")]
    result: Result | None = None


class ActionAccepted(_Reply):
    """The answer to an accepted action; a retry with the same idempotency key gets this same body."""

    table: str
    seq: Annotated[Seq, Meta(description="the seq the action was logged at")]
    seat: SeatNo
    status: Status
    active_seats: list[int]
    result: Result | None = None


class LegalActions(_Reply):
    table: str
    seat: SeatNo
    seq: Seq
    active: Annotated[bool, Meta(description="whether this seat must act now")]
    actions: list[LegalAction]
    undo: Annotated[bool, Meta(description="whether {type: undo} by this seat would be accepted now")] = False


class SeatControlled(SeatInfo, kw_only=True):
    """A seat's new controller; `seq` and `active_seats` say where the table stands."""

    table: str
    seq: Seq
    active_seats: list[int]


class SeatClockInfo(_Reply, kw_only=True):
    seat: SeatNo
    kind: Literal["human", "bot"]
    level: str | None = None
    remaining_ms: Annotated[int | None, Meta(description="time left now; null: not limited now (no clock, or an async "
                                                         "clock and not this seat's turn)")]
    running: Annotated[bool, Meta(description="whether this seat's time runs now")]
    timed_out: Annotated[bool, Meta(description="ran out of time and has not been taken back by its player")]


class ClockReply(_Reply, kw_only=True):
    """`GET /api/tables/{t}/clock`: each seat's time as of `now_ms` (the server's clock); a page
    counts down from it for the seats whose time is `running`."""

    table: str
    kind: ClockKind
    now_ms: int
    seq: Annotated[Seq, Meta(description="the log position the clock was computed at")]
    seats: list[SeatClockInfo]
    spec: ClockSpec | None = None
    deadline_ms: Annotated[int | None, Meta(description="when the first running seat runs out, if nothing happens first")] = None
    ended: Annotated[Result | None, Meta(description="the standings, when the table ended because a seat ran out")] = None


class NotifyReply(_Reply, kw_only=True):
    table: str
    seat: SeatNo
    settings: NotifySettings | None = None
    signing_key: Annotated[str, Meta(description="the key this seat's webhook bodies are signed with (HMAC-SHA256, "
                                                 "header X-Roundhouse-Signature); keep it with the receiver")]
    email_available: Annotated[bool, Meta(description="whether this server sends e-mail (SMTP set up)")]


class Health(_Reply):
    status: Literal["ok"] = "ok"


class Ready(_Reply):
    status: Literal["ok", "unavailable"]
    redis: bool


class ErrorDetail(_Reply, omit_defaults=True):
    code: Annotated[str, Meta(description="stable, machine-readable (see docs/api.md)")]
    message: Annotated[str, Meta(description="for people")]
    current_seq: Annotated[int | None, Meta(description="with stale_seq: the table's seq now")] = None
    request_id: Annotated[str | None, Meta(description="with internal_error: the id the server log names")] = None


class ErrorReply(_Reply):
    error: ErrorDetail


class TitleInfo(_Reply):
    """A title as the lobby needs it: its META, with the table-level options added."""

    id: TitleId
    name: str
    min_players: int
    max_players: int
    rules_version: str
    summary: str
    options: list[OptionSpec]
    bot_levels: Annotated[list[str], Meta(description="levels a bot seat may play")]
    web_module: Annotated[str | None, Meta(description="the table page module under /app/, or null")]
    public_view: bool


class TitleList(_Reply):
    titles: list[TitleInfo]


class PreviewAction(_Request):
    action: Annotated[Raw, Meta(description="the title's action object {type: ..., ...} to preview")]


class ActionPreview(_Reply):
    """What an action would do now (`Engine.preview`), nothing changed. Whether the rules would
    accept it is an answer (`preview.legal`, `preview.error`), not a refusal of the request."""

    table: str
    seat: SeatNo
    seq: Annotated[Seq, Meta(description="the table's seq the preview was made at")]
    preview: Annotated[dict[str, Any], Meta(description="the title's answer: legal, error {code, message} or null, "
                                                        "and its facts (18xx: routes with revenue, total, part)")]


REQUESTS = (CreateTable, SubmitAction, SubmitUndo, SeatControl, NotifySettings, PreviewAction)
REPLIES = (TableCreated, TableList, TableDetail, ActionAccepted, LegalActions, SeatControlled, ClockReply, NotifyReply,
           Health, Ready, ErrorReply, TitleList, ActionPreview)
