"""The engine contract every title implements (see DESIGN.md, "The engine contract").

An engine is pure and deterministic: no I/O, no clock, no global random state. Services
talk to titles only through `Engine`; they never look inside a title's state.

Undo is not a rule of any title: it is an event in the log that `Timeline` folds away, as
18xx.games does, so every title gets it the same way.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Protocol, TypeVar

import msgspec


class RuleError(Exception):
    """An action the rules forbid. `code` is stable and machine-readable, `message` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class AmountRange(msgspec.Struct, frozen=True):
    """A numeric field of a legal action that may take any value min..max in steps of `step`."""

    field: str
    min: int
    max: int
    step: int = 1

    def values(self) -> range:
        return range(self.min, self.max + 1, self.step)


class LegalAction(msgspec.Struct, frozen=True):
    """One legal move, or a family of them when `range` is set.

    `action` is a concrete action of the title's union; with `range`, the ranged field of
    `action` holds `range.min` and any value of the range is legal.
    """

    action: Any
    range: AmountRange | None = None


class Result(msgspec.Struct, frozen=True):
    """Final outcome. Lists are indexed by seat; rank 1 wins and ties share a rank."""

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    reason: str


State = TypeVar("State")


class Engine(Protocol[State]):
    """What a title provides. Implementations are stateless objects (all state is in `State`).

    Optional: `public_view: ClassVar[bool] = True` declares that `view(state, seat)` is the
    same for every seat and for spectators (no hidden information), so a service may compute
    one view per state for everyone. Absent means views may differ per seat.
    """

    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_type: ClassVar[Any]  # the msgspec tagged union of this title's actions
    state_type: ClassVar[type]  # msgspec-serialisable, so snapshots can store it

    def default_options(self) -> dict[str, Any]: ...

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> State: ...

    def active_seats(self, state: State) -> frozenset[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]: ...

    def apply(self, state: State, seat: int, action: Any) -> State: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def result(self, state: State) -> Result | None: ...


# --- actions on the wire -------------------------------------------------------------------

_decoders: dict[int, msgspec.json.Decoder] = {}
_encoder = msgspec.json.Encoder()


class Undo(msgspec.Struct, tag="undo", frozen=True):
    """Take back the seat's own last action (allowed while no other seat has acted since)."""


class Redo(msgspec.Struct, tag="redo", frozen=True):
    """Put back the action most recently undone, if nothing else was played since."""


META_ACTIONS = (Undo, Redo)


def decode_action(engine: Engine[Any], raw: bytes | str | dict[str, Any]) -> Any:
    """Decode one action (title action, undo or redo) or raise RuleError('bad_action', ...)."""
    key = id(engine)
    dec = _decoders.get(key)
    if dec is None:
        dec = msgspec.json.Decoder(engine.action_type | Undo | Redo)  # type: ignore[operator]
        _decoders[key] = dec
    try:
        if isinstance(raw, dict):
            return msgspec.convert(raw, engine.action_type | Undo | Redo)  # type: ignore[operator]
        return dec.decode(raw)
    except msgspec.ValidationError as exc:
        raise RuleError("bad_action", str(exc)) from None
    except msgspec.DecodeError as exc:
        raise RuleError("bad_json", str(exc)) from None


def encode_action(action: Any) -> bytes:
    return _encoder.encode(action)


def action_to_builtins(action: Any) -> dict[str, Any]:
    return msgspec.to_builtins(action)


# --- folding a log, with undo ----------------------------------------------------------------

S = TypeVar("S")


class Timeline(Generic[S]):
    """The state of one table: setup folded with every logged action, undo/redo applied.

    `effective` holds (seat, action) pairs still in force; `undone` is the redo stack.
    Undo re-folds from setup: it is rare, and folding stays the single source of truth.
    """

    def __init__(self, engine: Engine[S], seats: list[str], options: dict[str, Any], seed: int) -> None:
        self.engine = engine
        self.seats = list(seats)
        self.options = dict(options)
        self.seed = seed
        self.initial: S = engine.setup(self.seats, self.options, seed)
        self.state: S = self.initial
        self.effective: list[tuple[int, Any]] = []
        self.undone: list[tuple[int, Any]] = []
        self.length = 0  # log entries folded, including undo/redo

    def check(self, seat: int, action: Any) -> S:
        """Return the state after `action` by `seat`, or raise RuleError; changes nothing."""
        if not 0 <= seat < len(self.seats):
            raise RuleError("bad_seat", f"seat {seat} does not exist at this table")
        if isinstance(action, Undo):
            if not self.effective:
                raise RuleError("nothing_to_undo", "there is no action to undo")
            last_seat, _ = self.effective[-1]
            if last_seat != seat:
                raise RuleError("undo_not_allowed", "only your own last action can be undone, before anyone else acts")
            if self.engine.result(self.state) is not None:
                raise RuleError("game_over", "the game has ended")
            return self._refold(self.effective[:-1])
        if isinstance(action, Redo):
            if not self.undone:
                raise RuleError("nothing_to_redo", "there is no undone action to redo")
            redo_seat, redo_action = self.undone[-1]
            if redo_seat != seat:
                raise RuleError("redo_not_allowed", "only the seat that undid an action can redo it")
            return self.engine.apply(self.state, redo_seat, redo_action)
        return self.engine.apply(self.state, seat, action)

    def push(self, seat: int, action: Any) -> S:
        """Validate and fold one log entry; on RuleError nothing changes."""
        return self.commit(seat, action, self.check(seat, action))

    def commit(self, seat: int, action: Any, new_state: S) -> S:
        """Fold an entry whose outcome `check(seat, action)` just returned, on this same timeline.

        Lets a service validate, append to the log, then fold without applying the action twice.
        """
        if isinstance(action, Undo):
            self.undone.append(self.effective.pop())
        elif isinstance(action, Redo):
            self.effective.append(self.undone.pop())
        else:
            self.effective.append((seat, action))
            self.undone.clear()
        self.state = new_state
        self.length += 1
        return new_state

    def _refold(self, actions: list[tuple[int, Any]]) -> S:
        state = self.initial
        for s, a in actions:
            state = self.engine.apply(state, s, a)
        return state
