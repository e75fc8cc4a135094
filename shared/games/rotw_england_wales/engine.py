"""`ENGINE`: Railways of England and Wales (standard game) behind the engine contract.

`apply` works on a deep draft copy, so a RuleError half-way leaves the caller's state as it
was; anything other than a RuleError escaping a handler becomes RuleError('internal_error').
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from shared.engine import RuleError

from . import auction, build, cards, deliver, end, turn, view
from .actions import (
    ACTION_TYPES,
    Action,
    Allow,
    Bid,
    ChooseBaron,
    Deliver,
    EndBuild,
    Inspect,
    IssueShare,
    LayTrack,
    Pass,
    TakeCard,
    UpgradeEngine,
    Urbanize,
    UseTunnelEngineer,
    Vote,
)
from .advanced import end as adv_end
from .advanced import engine as adv_engine
from .advanced import view as adv_view
from .compat import Choice, LegalAction, Result
from .meta import META
from .setup import new_game
from .state import ACTION, AUCTION, BARON, BUILD, INSPECT, OVER, State, draft


def _choose_baron(s: State, seat: int, a: ChooseBaron) -> None:
    p = s.players[seat]
    if p.baron:
        raise RuleError("already_chosen", "you have already chosen your baron")
    if a.baron not in p.baron_draw:
        raise RuleError("bad_baron", "choose one of the two baron cards you drew")
    p.baron = a.baron
    s.baron_pool = sorted([*s.baron_pool, *(b for b in p.baron_draw if b != a.baron)])
    if all(q.baron for q in s.players):
        s.log.append("every player has chosen a baron")
        turn.start_turn(s)


def _issue_share(s: State, seat: int, a: IssueShare) -> None:
    # Seed "Vydávání akcií": shares are issued only for a payment, as many as it needs; every
    # payment issues them itself (payment.py), so a share on its own is never due.
    raise RuleError("no_payment_due", "shares are issued only to pay for something, and then for you: "
                    "build, urbanize or upgrade and the shares the payment needs are issued")


def _forgo(s: State, seat: int, a: Pass) -> None:
    s.log.append(f"{s.players[seat].name} passes this round")
    turn.action_done(s)


LOG_KEEP = 60  # public event lines kept in the state (the table's log is the action stream)
Handler = Callable[[State, int, Any], None]
_HANDLERS: dict[tuple[str, type], Handler] = {
    (BARON, ChooseBaron): _choose_baron,
    (AUCTION, Bid): auction.bid,
    (AUCTION, Pass): auction.pass_,
    (AUCTION, IssueShare): _issue_share,
    (ACTION, LayTrack): build.lay_track,
    (ACTION, Urbanize): build.urbanize,
    (ACTION, UpgradeEngine): build.upgrade_engine,
    (ACTION, Deliver): deliver.deliver,
    (ACTION, TakeCard): cards.take_card,
    (ACTION, Pass): _forgo,
    (ACTION, IssueShare): _issue_share,
    (BUILD, LayTrack): build.lay_track,
    (BUILD, EndBuild): build.end_build,
    (ACTION, UseTunnelEngineer): build.use_tunnel_engineer,
    (BUILD, UseTunnelEngineer): build.use_tunnel_engineer,
    (BUILD, IssueShare): _issue_share,
    (INSPECT, Inspect): deliver.inspect,
    (INSPECT, Allow): deliver.allow,
}
_EXPECTED = {
    BARON: "choose your baron", AUCTION: "bid or pass",
    ACTION: "build, urbanize, upgrade, deliver, take a card or pass",
    BUILD: "lay track or end the build", INSPECT: "play the Railway Inspector or allow",
}


class RotwEnglandWalesEngine:
    meta: ClassVar[Any] = META
    title: ClassVar[str] = META.id
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    action_type: ClassVar[Any] = Action
    state_type: ClassVar[type] = State
    public_view: ClassVar[bool] = False

    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in META.options}

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        return new_game(seats, options, seed)

    def active_seats(self, s: State) -> frozenset[int]:
        if s.adv is not None:
            return adv_engine.active_seats(s)
        if s.phase == OVER:
            return frozenset()
        if s.phase == BARON:
            return frozenset(i for i, p in enumerate(s.players) if not p.baron)
        if s.phase == AUCTION:
            assert s.auction is not None
            return frozenset((s.auction.to_act,))
        if s.phase == INSPECT:
            assert s.pending is not None
            return frozenset((s.pending.holder,))
        return frozenset((turn.current(s),))

    def legal_actions(self, s: State, seat: int) -> list[LegalAction]:
        if seat not in self.active_seats(s):
            return []
        if s.adv is not None:
            return adv_engine.legal_actions(s, seat)
        phase = s.phase
        if phase == BARON:
            draw = s.players[seat].baron_draw
            return [LegalAction(ChooseBaron(baron=draw[0]), choices=Choice("baron", list(draw)))]
        if phase == AUCTION:
            return auction.legal(s, seat)
        if phase == INSPECT:
            return [LegalAction(Inspect()), LegalAction(Allow())]
        out: list[LegalAction] = []
        lay = build.legal_lays(s, seat)
        if lay is not None:
            out.append(lay)
        tunnel = build.legal_tunnel(s, seat)
        if tunnel is not None:
            out.append(tunnel)
        if phase == BUILD:
            b = s.build
            done = [LegalAction(EndBuild())] if b is not None and (b.tiles or b.tunnel) else []
            return [*out, *done]
        for fam in (deliver.legal(s, seat), build.legal_upgrade(s, seat), build.legal_urbanize(s, seat),
                    cards.legal(s, seat)):
            if fam is not None:
                out.append(fam)
        return [*out, LegalAction(Pass())]

    def apply(self, s: State, seat: int, action: Any) -> State:
        if type(seat) is not int or not 0 <= seat < len(s.players):
            raise RuleError("bad_seat", f"seat {seat!r} does not exist at this table")
        if s.phase == OVER:
            raise RuleError("game_over", "the game has ended")
        if seat not in self.active_seats(s):
            raise RuleError("not_your_turn", "it is not your turn to act")
        kind = type(action)
        handler: Handler | None
        if s.adv is not None and kind in ACTION_TYPES:
            handler = adv_engine.handler(s, action)
        else:
            handler = _HANDLERS.get((s.phase, kind))
        if handler is None:
            if kind not in ACTION_TYPES:
                raise RuleError("bad_action", "not a Railways of England and Wales action")
            raise RuleError("wrong_phase", f"{kind.__name__} is not possible now: {_EXPECTED[s.phase]}")
        new = draft(s)
        try:
            handler(new, seat, action)
        except RuleError:
            raise
        except Exception as exc:  # the contract lets only RuleError out of apply
            raise RuleError("internal_error", f"{type(exc).__name__}: {exc}") from exc
        if len(new.log) > LOG_KEEP:  # the state keeps recent lines only: copies stay cheap
            del new.log[:-LOG_KEEP]
        return new

    def view(self, s: State, seat: int | None) -> dict[str, Any]:
        if s.adv is not None:
            return adv_view.build_view(s, seat, self.active_seats(s))
        return view.build_view(s, seat, self.active_seats(s))

    def redact(self, s: State, seat: int, seed: int) -> State:
        if s.adv is not None:
            return adv_view.redact(s, seat, seed)
        return view.redact(s, seat, seed)

    def result(self, s: State) -> Result | None:
        if s.adv is not None:
            return adv_end.result(s)
        return end.result(s)

    def standings(self, s: State) -> Result | None:
        """The end-of-game count as if the game ended now (the contract's optional
        `standings`, for a table that ends early): the same scoring, barons included."""
        over = msgspec.structs.replace(s, phase=OVER, end_reason="standings")
        return adv_end.result(over) if s.adv is not None else end.result(over)

    def sealed(self, action: Any) -> bool:
        # Merger votes are secret until every vote is in; the view reveals them together.
        return isinstance(action, Vote)

    def reveals(self, before: State, after: State) -> bool:
        if before.adv is not None and after.adv is not None and before.adv.reveal_seq != after.adv.reveal_seq:
            return True  # a merger vote was revealed
        # New random draws (goods, deck, first player) or the end-of-game baron reveal.
        return before.rng != after.rng or (after.phase == OVER and before.phase != OVER)


ENGINE = RotwEnglandWalesEngine()
