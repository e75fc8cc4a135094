"""A plain-rules player for the advanced share game (RotW England & Wales, `game=advanced`):
secure and take control cheaply, deliver over as many of the company's own links as it can,
build towards cities when there is nothing to deliver, pay dividends that lift the price,
repay bonds, merge only with the company's own cash. Reads only the redacted state and the
legal families."""

from __future__ import annotations

import random
from collections import deque
from functools import cache
from typing import Any

from shared.families import expand
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Bid, Deliver, EndBuild, LayTrack, Pass
from shared.games.rotw_england_wales.advanced.actions import PayDividend, ProposeMerger, RepayBonds, StartAuction, Vote
from shared.games.rotw_england_wales.advanced.merger import cost as merger_cost
from shared.games.rotw_england_wales.advanced.shares import adv
from shared.games.rotw_england_wales.board import get_board
from shared.games.rotw_england_wales.state import State


def _families(s: State, seat: int) -> dict[type, Any]:
    return {type(f.action): f for f in ENGINE.legal_actions(s, seat)}


def _wants_share(s: State, seat: int, ci: int) -> int:
    """How much a share of company `ci` is worth to `seat` above its price (0: not wanted)."""
    c = adv(s).companies[ci]
    mine = c.held[seat]
    if c.controller < 0:
        return 2000  # control for the price of one share
    others = max((k for i, k in enumerate(c.held) if i != seat), default=0)
    if c.controller == seat and others >= mine - 1:
        return 2000  # keep control
    if c.controller != seat and mine + 1 > c.held[c.controller]:
        return 3000  # take control
    if c.price >= c.start_price and s.players[seat].cash >= 3 * c.price * 1000:
        return 0 if c.controller != seat else 1000
    return -1


def _auction(s: State, seat: int, fams: dict[type, Any]) -> Any:
    a = adv(s)
    if a.auction is not None:
        au = a.auction
        c = a.companies[au.company]
        limit = c.price * 1000 + _wants_share(s, seat, au.company)
        if Bid in fams and au.high_bidder != seat and au.high_bid + 1000 <= limit:
            return Bid(amount=au.high_bid + 1000)
        return Pass()
    best = None
    for act in expand(fams[StartAuction]) if StartAuction in fams else ():
        ci = next(i for i, c in enumerate(a.companies) if c.id == act.company)
        c = a.companies[ci]
        if act.amount != c.price * 1000:
            continue
        gain = _wants_share(s, seat, ci)
        if gain < 0:
            continue
        key = (gain, act.source == "available" and c.controller == seat, -c.price)
        if best is None or key > best[0]:
            best = (key, act)
    return best[1] if best is not None else Pass()


@cache
def _city_distance(board_id: str) -> dict[str, int]:
    """Hexes from each hex to the nearest city or town (ignoring track and barriers)."""
    board = get_board(board_id)
    ends = [*board.cities, *board.towns]
    dist = {h: 0 for h in ends}
    todo = deque(ends)
    while todo:
        h = todo.popleft()
        for e in range(6):
            n = board.neighbour(h, e)
            if n is not None and n in board.terrain and n not in dist:
                dist[n] = dist[h] + 1
                todo.append(n)
    return dist


def _company(s: State, fams: dict[type, Any], rng: random.Random) -> Any:
    ad = adv(s)
    ci = ad.order[ad.pos]
    if Deliver in fams and s.phase == "company_turn":
        def value(a: Deliver) -> tuple[int, int]:
            own = sum(1 for lid in a.path if s.links[lid].owner == ci)
            return own, len(a.path)
        return max(expand(fams[Deliver]), key=lambda a: (*value(a), rng.random()))
    if s.phase == "company_build" and EndBuild in fams and ad.build is not None and ad.build.open_link < 0:
        return EndBuild()  # one link a turn: the second costs $2,000 a hex more
    if LayTrack in fams:
        board = get_board(s.board)
        dist = _city_distance(s.board)
        def score(a: LayTrack) -> tuple[float, float]:
            n = board.neighbour(a.hex, a.exit)
            return (-(dist.get(n, 99) if n is not None else 99) - board.terrain[a.hex].startswith("mountain"),
                    rng.random())
        return max(expand(fams[LayTrack]), key=score)
    return EndBuild() if EndBuild in fams else Pass()


def _dividend(s: State, seat: int, fams: dict[type, Any]) -> Any:
    if RepayBonds in fams:
        return RepayBonds(count=fams[RepayBonds].range.max)
    top = fams[PayDividend].range.max
    a = adv(s)
    c = a.companies[a.order[a.pos]]
    step = c.price * 1000
    return PayDividend(amount=top - top % step if top >= step else top)


def _merger(s: State, seat: int, fams: dict[type, Any]) -> Any:
    if ProposeMerger in fams:
        a = adv(s)
        acq = a.companies[a.order[a.pos]]
        for target in fams[ProposeMerger].choices.values:
            ti = next(i for i, c in enumerate(a.companies) if c.id == target)
            if merger_cost(s, ti) <= acq.cash:
                return ProposeMerger(target=target)
    return Pass()


def _vote(s: State, seat: int) -> Any:
    a = adv(s)
    m = a.merger
    assert m is not None, "a vote is asked only while a merger is proposed"
    acq, tgt = a.companies[m.acquirer], a.companies[m.target]
    paid = tgt.held[seat] * (tgt.price + 1) * 1000
    diluted = merger_cost(s, m.target) > acq.cash
    return Vote(yes=acq.controller == seat or paid > 0 or not diluted)


def greedy(s: State, seat: int, rng: random.Random) -> Any:
    fams = _families(s, seat)
    if s.phase in ("opening_auction", "share_auction"):
        return _auction(s, seat, fams)
    if s.phase in ("company_turn", "company_build"):
        return _company(s, fams, rng)
    if s.phase == "dividend":
        return _dividend(s, seat, fams)
    if s.phase == "merger":
        return _merger(s, seat, fams)
    if s.phase == "merger_vote":
        return _vote(s, seat)
    raise ValueError(f"no move in phase {s.phase}")
