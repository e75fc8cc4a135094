"""The engine contract every title implements (see DESIGN.md and docs/engine-contract.md).

An engine is pure and deterministic: no I/O, no clock, no global random state. Services
talk to titles only through `Engine` and the title's `TitleMeta`; they never look inside a
title's state. Undo and redo are not rules of any title: they are log events that
`shared.timeline.Timeline` folds, so every title gets them the same way.
"""

from __future__ import annotations

import typing
from typing import Any, ClassVar, Literal, Protocol, TypeVar

import msgspec

from shared.families import AmountRange, Choice, LegalAction

__all__ = [
    "AmountRange", "Choice", "Engine", "LegalAction", "OptionSpec", "Redo", "Result", "RuleError",
    "TitleMeta", "Undo", "UNDO_POLICIES", "action_to_builtins", "decode_action", "default_options", "option_default",
    "encode_action", "ended_patch", "ended_view", "preview_of", "served_view",
]


class RuleError(Exception):
    """An action the rules forbid. `code` is stable and machine-readable, `message` is for people.

    Neither may carry hidden information: they reach the acting seat and the logs.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Result(msgspec.Struct, frozen=True):
    """Final outcome. Lists are indexed by seat; rank 1 wins and ties share a rank."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    reason: str


# --- what a title says about itself ---------------------------------------------------------

OptionType = Literal["int", "bool", "choice", "str", "object"]
UNDO_POLICIES = ("none", "own", "any")


class OptionSpec(msgspec.Struct, frozen=True, omit_defaults=True):
    """One table option: how the lobby renders it and how a create request is checked.

    `object` options hold named sub-options (`fields`), e.g. Chicago Express's dial lengths.
    """

    name: str
    type: OptionType
    default: Any
    label: str = ""
    help: str = ""
    choices: list[Any] | None = None
    min: int | None = None
    max: int | None = None
    fields: list[OptionSpec] | None = None


class TitleMeta(msgspec.Struct, frozen=True, omit_defaults=True):
    """Everything the registries need about a title: the one place a title is described."""

    id: str
    name: str
    min_players: int
    max_players: int
    # Stamped on snapshots: a snapshot of another rules version is never used.
    rules_version: str
    options: list[OptionSpec] = []
    summary: str = ""
    bot_kit: str | None = None  # module exposing KIT (shared.bots.kits.TitleKit)
    web_module: str | None = None  # path under services/web/app/ of the table-page module
    undo: str = "own"  # the default of the table option `undo` (UNDO_POLICIES)
    public_view: bool = False  # view() is the same for every seat: one view serves all
    checkpoint_every: int = 32  # decisions between states a Timeline keeps for undo
    # option sets the contract suite plays besides the defaults and each choice option's values
    # (bool options that turn the title into another game: a smaller map, an older edition)
    option_sets: list[dict[str, Any]] = []
    # 18xx.games' name of this game (an export's `title`): `roundhouse import-18xx` picks the
    # title by it without loading every engine; the engine's `from_18xx` hook reads such exports
    imports_18xx: str | None = None


State = TypeVar("State")


class Engine(Protocol[State]):
    """What a title provides. Implementations are stateless objects (all state is in `State`).

    `view` and `redact` are the only places hidden information is removed. Optional:
    `reveals(before, after) -> bool`, True when that step revealed hidden information or
    drew randomness: undo never goes back across such a step; `sealed(action) -> bool`, True
    for an action whose content other seats may not see when it is taken (a sealed bid, a
    secret vote): they are told only its type, and learn the rest from their views when the
    title reveals it; `preview(state, seat, action) -> dict`, what `action` would do if `seat`
    sent it now, without doing it (see `preview_of`).
    """

    meta: ClassVar[TitleMeta]
    title: ClassVar[str]  # meta.id, kept as an attribute for log lines and keys
    action_type: ClassVar[Any]  # the msgspec tagged union of this title's actions
    state_type: ClassVar[type]  # msgspec-serialisable, so snapshots can store it

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> State: ...

    def active_seats(self, state: State) -> frozenset[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]: ...

    def apply(self, state: State, seat: int, action: Any) -> State: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def redact(self, state: State, seat: int, seed: int) -> State: ...

    def result(self, state: State) -> Result | None: ...


def served_view(engine: Engine[Any], state: Any, seat: int | None) -> dict[str, Any]:
    """The view a seat is sent: the title's `view`, with who must act and the result added from
    the same calls the API's `/legal` and `GET /api/tables/{t}` answer from, so every page reads
    the turn from one source whatever its title's view holds (both are public to every seat)."""
    result = engine.result(state)
    return {**engine.view(state, seat), "active_seats": sorted(engine.active_seats(state)),
            "result": None if result is None else msgspec.to_builtins(result)}


def ended_fields(result: Result) -> dict[str, Any]:
    """What a served view says of a table that ended outside the rules (a clock ran out with
    on_timeout=abandon; the standings then are `result`): that result, and nobody to act."""
    return {"result": msgspec.to_builtins(result), "active_seats": []}


def ended_view(view: dict[str, Any], result: Result) -> dict[str, Any]:
    """A served view (`served_view`) of a table that has ended outside the rules."""
    return {**view, **ended_fields(result)}


def ended_patch(result: Result) -> list[dict[str, Any]]:
    """The JSON Patch from a served view to its `ended_view`: replaces of top-level members
    every served view has, so applying it twice changes nothing."""
    return [{"op": "replace", "path": f"/{name}", "value": value} for name, value in ended_fields(result).items()]


class PreviewAnswer(Protocol):
    def __call__(self, state: Any, seat: int, action: Any) -> dict[str, Any]: ...


def preview_of(engine: Engine[Any]) -> PreviewAnswer | None:
    """The title's optional `preview(state, seat, action) -> dict`: what the action would do if
    the seat sent it now, changing nothing (a hand-edited run of trains: each route's revenue
    before it is sent). The answer is JSON: `legal` (whether `apply` would accept the action
    now), `error` ({code, message} of apply's refusal, else None) and the title's facts about
    it (18xx titles: `routes` with each one's revenue, `total`, `part` = the first route
    refused). It raises RuleError("no_preview", ...) for a kind of action the title does not
    preview. Like `legal_actions` it may read only what the seat may know."""
    return getattr(engine, "preview", None)


def default_options(engine: Engine[Any]) -> dict[str, Any]:
    """The title's options with their defaults (the table-level `undo` is not among them)."""
    return {spec.name: option_default(spec) for spec in engine.meta.options}


def option_default(spec: OptionSpec) -> Any:
    if spec.type == "object":
        return {f.name: option_default(f) for f in spec.fields or ()}
    return spec.default


# --- actions on the wire -------------------------------------------------------------------

_decoders: dict[int, UnionDecoder] = {}
_encoder = msgspec.json.Encoder()


class Undo(msgspec.Struct, tag="undo", frozen=True, omit_defaults=True):
    """Go back to the state right after log entry `action_id` (18xx.games' field name);
    without it, take back the last decision still in force."""

    action_id: int | None = None


class Redo(msgspec.Struct, tag="redo", frozen=True):
    """Put back what the most recent undo took back, if nothing else was played since."""


META_ACTIONS = (Undo, Redo)


PROGRAM_PREFIX = "program_"


def is_program(action: Any) -> bool:
    """A standing instruction (the contract's `program_*` tags: a person's auto-pass or
    auto-buy), not a move in the game: bots and random play leave them alone."""
    tag = getattr(getattr(type(action), "__struct_config__", None), "tag", None)
    return isinstance(tag, str) and tag.startswith(PROGRAM_PREFIX)


def decode_action(engine: Engine[Any], raw: bytes | str | dict[str, Any]) -> Any:
    """Decode one action (title action, undo or redo) or raise RuleError('bad_action', ...)."""
    key = id(engine)
    cached = _decoders.get(key)
    if cached is None:
        cached = _decoders[key] = UnionDecoder(engine.action_type | Undo | Redo)
    try:
        if isinstance(raw, dict):
            return cached.convert(raw)
        return cached.json.decode(raw)
    except msgspec.ValidationError as exc:
        raise RuleError("bad_action", str(exc)) from None
    except msgspec.DecodeError as exc:
        raise RuleError("bad_json", str(exc)) from None


class UnionDecoder:
    """A union of tagged structs, decoded from JSON or converted from a dict. msgspec analyses
    a union on every `convert` (~50 us for a title's actions), so a dict goes straight to the
    struct its tag names; the values and errors are the same."""

    def __init__(self, union: Any) -> None:
        self.union = union
        self.json = msgspec.json.Decoder(union)
        self.by_tag: dict[tuple[str, Any], type] = {}
        for cls in typing.get_args(union):
            config = cls.__struct_config__
            self.by_tag[(config.tag_field, config.tag)] = cls
        self.tag_fields = {field for field, _ in self.by_tag}

    def convert(self, raw: dict[str, Any]) -> Any:
        for field in self.tag_fields:
            cls = self.by_tag.get((field, raw.get(field)))
            if cls is not None:
                return msgspec.convert(raw, cls)
        return msgspec.convert(raw, self.union)  # no known tag: the union's own error


def encode_action(action: Any) -> bytes:
    return _encoder.encode(action)


def shown_to_others(engine: Engine[Any], action: Any, canonical: bytes) -> bytes:
    """The action as seats other than its actor (and spectators) are told of it: whole, or
    only its type when the title says it is sealed (`Engine.sealed`)."""
    sealed = getattr(engine, "sealed", None)
    if sealed is None or not sealed(action):
        return canonical
    config = type(action).__struct_config__
    return _encoder.encode({config.tag_field: config.tag})


def action_to_builtins(action: Any) -> dict[str, Any]:
    return msgspec.to_builtins(action)
