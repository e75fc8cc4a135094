"""The advanced share game behind the title's engine (`..engine` hands a state with `adv`
set to these functions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.engine import RuleError

from ..actions import Bid, Deliver, EndBuild, LayTrack, Pass
from ..compat import LegalAction
from ..state import OVER, State
from . import auction, build, deliver, dividends, flow, merger
from .actions import PayDividend, ProposeMerger, RepayBonds, StartAuction, Vote
from .shares import adv
from .state import BUILDING, COMPANY, DIVIDEND, MERGER, OPENING, SHARES, VOTE


def active_seats(s: State) -> frozenset[int]:
    a = adv(s)
    if s.phase == OVER:
        return frozenset()
    if s.phase in (OPENING, SHARES):
        seat = auction.active(s)
        return frozenset((seat,)) if seat >= 0 else frozenset()
    if s.phase == VOTE:
        return frozenset(merger.voters_left(s))
    if s.phase in (COMPANY, BUILDING):
        return frozenset((a.companies[flow.current_company(s)].controller,))
    if s.phase == DIVIDEND:
        return frozenset((a.companies[dividends.current(s)].controller,))
    if s.phase == MERGER:
        return frozenset((a.companies[merger.current(s)].controller,))
    return frozenset()


def legal_actions(s: State, seat: int) -> list[LegalAction]:
    if seat not in active_seats(s):
        return []
    if s.phase in (OPENING, SHARES):
        return auction.legal(s, seat)
    if s.phase == VOTE:
        return merger.legal_vote(s, seat)
    if s.phase == DIVIDEND:
        return dividends.legal(s, seat)
    if s.phase == MERGER:
        return merger.legal(s, seat)
    ci = flow.current_company(s)
    lay = build.legal_lays(s, ci)
    out = [lay] if lay is not None else []
    if s.phase == BUILDING:
        end = build.legal_end(s)
        if end is not None:
            out.append(end)
        return out
    fam = deliver.legal(s, ci)
    if fam is not None:
        out.append(fam)
    return [*out, LegalAction(Pass())]


def _auctions(step: Callable[[State, int, Any], Any]) -> Handler:
    """An auction decision; when it leaves nobody to choose (all passed, or nothing left to
    sell) the auction phase is over."""
    def run(s: State, seat: int, a: Any) -> None:
        step(s, seat, a)
        if adv(s).auction is None and adv(s).chooser < 0:
            flow.auctions_over(s)
    return run


def _company_pass(s: State, seat: int, a: Pass) -> None:
    s.log.append(f"the {adv(s).companies[flow.current_company(s)].name} passes")
    flow.company_done(s, acted=False)


Handler = Callable[[State, int, Any], None]
HANDLERS: dict[tuple[str, type], Handler] = {
    **{(phase, kind): _auctions(step) for phase in (OPENING, SHARES)
       for kind, step in ((StartAuction, auction.start), (Bid, auction.bid), (Pass, auction.pass_))},
    (COMPANY, LayTrack): build.lay_track, (COMPANY, Deliver): deliver.deliver, (COMPANY, Pass): _company_pass,
    (BUILDING, LayTrack): build.lay_track, (BUILDING, EndBuild): build.end_build,
    (DIVIDEND, RepayBonds): dividends.repay, (DIVIDEND, PayDividend): dividends.pay_dividend,
    (MERGER, ProposeMerger): merger.propose, (MERGER, Pass): lambda s, seat, a: merger.decline(s, seat),
    (VOTE, Vote): merger.vote,
}
EXPECTED = {
    OPENING: "start an auction, bid or pass", SHARES: "start an auction, bid or pass",
    COMPANY: "build, deliver or pass", BUILDING: "lay track or end the build",
    DIVIDEND: "repay bonds or set the dividend", MERGER: "propose a merger or pass", VOTE: "vote on the merger",
}


def handler(s: State, action: Any) -> Handler:
    h = HANDLERS.get((s.phase, type(action)))
    if h is None:
        raise RuleError("wrong_phase", f"{type(action).__name__} is not possible now: {EXPECTED.get(s.phase, s.phase)}")
    return h
