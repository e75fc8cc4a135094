"""`ENGINE`: Chicago Express behind the `shared.engine.Engine` contract.

`apply` works on a draft copy of the state (see `state.draft`), so a RuleError raised
half-way leaves the caller's state as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from shared.engine import LegalAction, Result, RuleError, TitleMeta

from . import auction, build, develop, turn
from .actions import ACTION_TYPES, FORGO, Action, Bid, Build, Choose, Develop, Done, Forgo, Offer, Pass
from .meta import META
from .start import new_game
from .state import AUCTION, BUILD, CHOOSE, DEVELOP, OFFER, OVER, TURN_OVER, State, draft
from .view import build_view

Handler = Callable[[State, int, Any], None]

_HANDLERS: dict[tuple[str, type], Handler] = {
    (AUCTION, Bid): auction.bid,
    (AUCTION, Pass): auction.pass_,
    (CHOOSE, Choose): turn.choose,
    (OFFER, Offer): auction.offer,
    (OFFER, Forgo): turn.forgo,
    (BUILD, Build): build.build,
    (BUILD, Done): build.done,
    (BUILD, Forgo): turn.forgo,
    (DEVELOP, Develop): develop.develop,
    (DEVELOP, Forgo): turn.forgo,
}

_EXPECTED = {
    AUCTION: "bid or pass",
    CHOOSE: "choose an action (auction, build or develop)",
    OFFER: "offer a share (bidding at least the minimum, or passing without an amount) or forgo",
    BUILD: "build, done or forgo",
    DEVELOP: "develop a hex or forgo",
}


def _expected(s: State) -> str:
    if s.phase == AUCTION and s.build is not None:
        return build.interrupted_by(s)
    return _EXPECTED[s.phase]


def _to_act(s: State) -> int:
    if s.phase == AUCTION:
        assert s.auction is not None
        return s.auction.to_act
    return s.current


class ChicagoExpressEngine:
    meta: ClassVar[TitleMeta] = META
    title: ClassVar[str] = META.id
    action_type: ClassVar[Any] = Action
    state_type: ClassVar[type] = State

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        # The game has no randomness: `seed` is accepted for the contract and not kept.
        return new_game(seats, options)

    def active_seats(self, state: State) -> frozenset[int]:
        if state.phase == OVER:
            return frozenset()
        return frozenset((_to_act(state),))

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]:
        phase = state.phase
        if phase == OVER or seat != _to_act(state):
            return []
        if phase == AUCTION:
            return auction.legal_bids(state, seat)
        if phase == CHOOSE:
            return turn.legal_choices(state)
        if phase == OFFER:
            return auction.legal_offers(state, seat)
        if phase == BUILD:
            return build.legal_builds(state, seat)
        return [*develop.legal_develops(state), FORGO]

    def apply(self, state: State, seat: int, action: Any) -> State:
        if type(seat) is not int or not 0 <= seat < len(state.players):
            raise RuleError("bad_seat", f"seat {seat!r} does not exist at this table")
        if state.phase == OVER:
            raise RuleError("game_over", "the game has ended")
        if seat != _to_act(state):
            raise RuleError("not_your_turn", f"it is seat {_to_act(state)}'s turn")
        kind = type(action)
        handler = _HANDLERS.get((state.phase, kind))
        if handler is None:
            if kind not in ACTION_TYPES:
                raise RuleError("bad_action", f"not a Chicago Express action: {action!r}")
            raise RuleError("wrong_phase", f"{kind.__name__.lower()} is not possible now: {_expected(state)}")
        s = draft(state)
        try:
            handler(s, seat, action)
            if s.phase == TURN_OVER:
                turn.finish_turn(s)
        except RuleError:
            raise
        except Exception as exc:  # the contract allows only RuleError out of apply
            raise RuleError("internal_error", f"{type(exc).__name__}: {exc}") from exc
        return s

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state, self.active_seats(state), self.result(state))

    def redact(self, state: State, seat: int, seed: int) -> State:
        # Nothing is hidden and nothing is random: the state is what every seat knows. The
        # event log is left out: no rule reads it, and a search would copy it on every move.
        return msgspec.structs.replace(state, log=[])

    def result(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        return self.standings(state)

    def standings(self, state: State) -> Result:
        """Ranked by cash, as the end of the game ranks (the contract's optional `standings`)."""
        scores = list(state.cash)
        ranks = [1 + sum(1 for other in scores if other > score) for score in scores]
        winners = [seat for seat, rank in enumerate(ranks) if rank == 1]
        return Result(scores=scores, ranks=ranks, winners=winners, reason=", ".join(state.end_reasons))


ENGINE = ChicagoExpressEngine()
