"""Bodies of the game service's HTTP API (client authors: read docs/api.md).

Requests are decoded strictly (unknown fields refused) so a typo is an error, not a silent
default. `action` stays raw JSON here: the table's title decodes it (`shared.engine.decode_action`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Raw

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


class TableList(_Reply):
    tables: list[TableSummary]
    next_offset: Annotated[int | None, Meta(description="pass as ?offset= for the next page; null at the end")]


class TableDetail(TableSummary):
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


REQUESTS = (CreateTable, SubmitAction, SubmitUndo, SeatControl, PreviewAction)
REPLIES = (TableCreated, TableList, TableDetail, ActionAccepted, LegalActions, SeatControlled, Health, Ready,
           ErrorReply, TitleList, ActionPreview)
