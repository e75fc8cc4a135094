"""Mergers (seed III.2-III.3).

From the lowest share price up, each company's controller may propose one merger with a
company its links connect to (the two networks share a city). The acquirer's shareholders
vote, then the target's: one vote per share, cast secretly and revealed together; a tie is
decided by the company's controller (their vote wins). If both agree, the acquirer buys
every outstanding share of the target (players' and the issued box's) at the target's price
+ $1,000, issuing shares (then bonds) for it only as needed; the issued box's money goes to
the bank. The acquirer takes over the target's links; the target leaves play and can come
back in a later share auction at its starting price.
**Readings:** only players' shares vote (the bank has nobody to cast its votes); the
target's treasury and bonds pass to the acquirer with its links; a merger the acquirer
could not pay for is not offered.
"""

from __future__ import annotations

from shared.engine import RuleError

from ..compat import Choice, LegalAction
from ..state import State
from . import data, flow
from .actions import ProposeMerger, Vote
from .shares import adv, controlled, find, funds, outstanding, pay, price_order, reset_company
from .state import MERGER, VOTE, Merger


def begin(s: State) -> None:
    a = adv(s)
    a.order = list(reversed(price_order(s, controlled(s))))  # lowest price first
    a.pos = 0
    a.merger = None
    _step(s)


def _network(s: State, ci: int) -> set[str]:
    out: set[str] = set()
    for link in s.links:
        if link.complete and link.owner == ci:
            out.update((link.a, link.b))  # type: ignore[arg-type]
    return out


def cost(s: State, target: int) -> int:
    c = adv(s).companies[target]
    return outstanding(c) * (c.price + data.MERGER_PREMIUM) * 1000


def targets(s: State, ci: int) -> list[int]:
    a = adv(s)
    mine = _network(s, ci)
    if not mine:
        return []
    out = []
    for cj, c in enumerate(a.companies):
        if cj == ci or c.controller < 0:
            continue
        if mine & _network(s, cj) and cost(s, cj) <= funds(s, ci):
            out.append(cj)
    return out


def current(s: State) -> int:
    a = adv(s)
    return a.order[a.pos]


def _step(s: State) -> None:
    a = adv(s)
    while a.pos < len(a.order):
        ci = a.order[a.pos]
        if a.companies[ci].controller >= 0 and targets(s, ci):
            s.phase = MERGER
            return
        a.pos += 1
    flow.mergers_over(s)


def legal(s: State, seat: int) -> list[LegalAction]:
    from ..actions import Pass
    ids = [adv(s).companies[t].id for t in targets(s, current(s))]
    return [LegalAction(ProposeMerger(target=ids[0]), choices=Choice("target", ids)), LegalAction(Pass())]


def propose(s: State, seat: int, act: ProposeMerger) -> None:
    a = adv(s)
    ci = current(s)
    tj = find(s, act.target)
    if tj not in targets(s, ci):
        raise RuleError("bad_target", f"the {a.companies[ci].name} cannot merge with {act.target} "
                        "(it must be another company in play, connected to it, that it can pay for)")
    a.merger = Merger(acquirer=ci, target=tj)
    s.log.append(f"{s.players[seat].name} proposes that the {a.companies[ci].name} take over the "
                 f"{a.companies[tj].name} (${cost(s, tj):,}); its shareholders vote")
    _open_vote(s, ci)


def decline(s: State, seat: int) -> None:
    a = adv(s)
    s.log.append(f"the {a.companies[current(s)].name} proposes no merger")
    a.pos += 1
    _step(s)


def _open_vote(s: State, ci: int) -> None:
    a = adv(s)
    m = a.merger
    assert m is not None
    held = a.companies[ci].held
    m.voters = [i for i, k in enumerate(held) if k > 0]
    m.votes = [-1] * len(s.players)
    s.phase = VOTE


def voters_left(s: State) -> list[int]:
    m = adv(s).merger
    assert m is not None
    return [v for v in m.voters if m.votes[v] < 0]


def legal_vote(s: State, seat: int) -> list[LegalAction]:
    return [LegalAction(Vote(yes=True), choices=Choice("yes", [True, False]))]


def vote(s: State, seat: int, act: Vote) -> None:
    a = adv(s)
    m = a.merger
    assert m is not None
    if type(act.yes) is not bool:
        raise RuleError("bad_vote", "vote yes (true) or no (false)")
    m.votes[seat] = 1 if act.yes else 0
    s.log.append(f"{s.players[seat].name} has voted")
    if voters_left(s):
        return
    ci = m.acquirer if m.stage == "acquirer" else m.target
    c = a.companies[ci]
    yes = sum(c.held[v] for v in m.voters if m.votes[v] == 1)
    no = sum(c.held[v] for v in m.voters if m.votes[v] == 0)
    carried = yes > no or (yes == no and m.votes[c.controller] == 1)
    a.reveal_seq += 1
    cast = ", ".join(f"{s.players[v].name} {'yes' if m.votes[v] else 'no'} ({c.held[v]})" for v in m.voters)
    s.log.append(f"the {c.name} shareholders vote: {cast} - the merger is "
                 f"{'approved' if carried else 'rejected'}{' (tie: the controller decides)' if yes == no else ''}")
    if not carried:
        _done(s)
        return
    if m.stage == "acquirer":
        m.stage = "target"
        _open_vote(s, m.target)
        return
    _execute(s)
    _done(s)


def _done(s: State) -> None:
    a = adv(s)
    a.merger = None
    a.pos += 1
    s.phase = MERGER
    _step(s)


def _execute(s: State) -> None:
    a = adv(s)
    m = a.merger
    assert m is not None
    acq, tgt = a.companies[m.acquirer], a.companies[m.target]
    per = (tgt.price + data.MERGER_PREMIUM) * 1000
    pay(s, m.acquirer, cost(s, m.target), "the merger")
    for seat, k in enumerate(tgt.held):
        if k:
            s.players[seat].cash += k * per
    for link in s.links:
        if link.owner == m.target:
            link.owner = m.acquirer
    acq.cash += tgt.cash
    acq.bonds += tgt.bonds
    s.log.append(f"the {acq.name} takes over the {tgt.name}: ${per:,} per share, its links, "
                 f"${tgt.cash:,} and {tgt.bonds} bond(s); the {tgt.name} can return at its starting price")
    reset_company(s, m.target)
