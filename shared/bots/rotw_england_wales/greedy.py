"""The heuristic's move: deliver over its own links when that scores, otherwise build the best
link it can complete (issuing shares only to pay for a good one), upgrade the engine when a
longer delivery would score more, take a free locomotive, and never bid or issue needlessly."""

from __future__ import annotations

import random
from typing import Any

from shared.games.rotw_england_wales import rules
from shared.games.rotw_england_wales.actions import Allow, Bid, ChooseBaron, EndBuild, Inspect, Pass, TakeCard, UpgradeEngine
from shared.games.rotw_england_wales.state import ACTION, AUCTION, BARON, BUILD, INSPECT, State, card_kind

from .plans import Plan, deliveries, delivery_score, plans

MAX_SHARES = 8  # each share costs a VP and $1,000 a turn: beyond this, build from income only
SHARE_PLAN_VALUE = 2.0  # a plan worth issuing a share for


def engine_card(s: State, seat: int) -> str | None:
    if s.players[seat].engine >= rules.MAX_ENGINE:
        return None
    return next((c for c in s.display if card_kind(c) == "engine"), None)


def best_plan(s: State, seat: int) -> tuple[Plan | None, int]:
    """The best plan, and how many shares must be issued to pay for it."""
    found = best_plans(s, seat, 1)
    return (found[0][0], found[0][1]) if found else (None, 0)


def best_plans(s: State, seat: int, count: int) -> list[tuple[Plan, int]]:
    """The best `count` plans joining different pairs of places, best first, each with the
    shares it needs."""
    p = s.players[seat]
    room = max(0, MAX_SHARES - p.shares)
    cands = plans(s, seat, p.cash + room * rules.SHARE_CASH, limit=40)
    scored: list[tuple[float, int, Plan, int]] = []
    for i, plan in enumerate(cands):
        need = max(0, -(-(plan.cost - p.cash) // rules.SHARE_CASH))
        if need and plan.value < SHARE_PLAN_VALUE:
            continue
        scored.append((plan.value - 0.8 * need, -i, plan, need))
    # the first of equal scores is the best (the ranking's order)
    scored.sort(key=lambda e: (-e[0], -e[1]))
    out: list[tuple[Plan, int]] = []
    pairs: set[frozenset[str]] = set()
    for _, _, plan, need in scored:
        pair = frozenset((plan.a, plan.b))
        if pair in pairs:
            continue
        pairs.add(pair)
        out.append((plan, need))
        if len(out) == count:
            break
    return out


def choices(s: State, seat: int, builds: int = 1) -> list[tuple[float, tuple[Any, ...]]]:
    """Whole decisions with their scores (higher is better), for the action phases; `builds`:
    how many link plans (to different places) are among them."""
    out: list[tuple[float, tuple[Any, ...]]] = []
    p = s.players[seat]
    found = best_plans(s, seat, builds)
    if s.phase == BUILD:
        for plan, _ in found:
            out.append((plan.value, tuple(plan.lays)))  # the tiles' payments issue the `need` shares
        out.append((0.0, (EndBuild(),)))
        return out
    dels = deliveries(s, seat)
    for d in dels[:4]:
        out.append((delivery_score(d) * 1.1, (d.action,)))
    now = max((delivery_score(d) for d in dels), default=0.0)
    better = max((delivery_score(d) for d in deliveries(s, seat, p.engine + 1)), default=0.0) \
        if p.engine < rules.MAX_ENGINE else 0.0
    gain = better - now
    card = engine_card(s, seat)
    if card is not None:
        out.append((max(gain, 0.0) + (0.9 if p.engine < 4 else 0.3), (TakeCard(card=card),)))
    if gain > 0 and p.cash >= rules.engine_cost(p.engine + 1):
        out.append((gain * 0.9, (UpgradeEngine(),)))
    for plan, _ in found:
        lays: tuple[Any, ...] = tuple(plan.lays)  # the tiles' payments issue the `need` shares (seed 'Vydávání akcií')
        if len(plan.lays) < rules.MAX_TILES_PER_BUILD:
            lays = (*lays, EndBuild())
        out.append((plan.value * 0.6, lays))
    out.append((0.0, (Pass(),)))
    out.sort(key=lambda sc: -sc[0])
    return out


def greedy(s: State, seat: int, rng: random.Random) -> Any:
    if s.phase == BARON:
        return ChooseBaron(baron=rng.choice(s.players[seat].baron_draw))
    if s.phase == AUCTION:
        return Pass()
    if s.phase == INSPECT:
        pend = s.pending
        assert pend is not None
        gain: dict[int, int] = {}
        for lid in pend.path:
            owner = s.links[lid].owner
            gain[owner] = gain.get(owner, 0) + 1
        mine = gain.pop(seat, 0)
        return Inspect() if max(gain.values(), default=0) >= mine + 2 else Allow()
    if s.phase in (ACTION, BUILD):
        return choices(s, seat)[0][1][0]
    raise ValueError(f"no move in phase {s.phase}")


def options(s: State, seat: int, builds: int = 1, cap: int = 6) -> list[tuple[Any, ...]]:
    if s.phase == BARON:
        return [(ChooseBaron(baron=b),) for b in s.players[seat].baron_draw]
    if s.phase == AUCTION:
        out: list[tuple[Any, ...]] = [(Pass(),)]
        a = s.auction
        assert a is not None
        lo = max(rules.BID_STEP, a.high_bid + rules.BID_STEP)
        if s.players[seat].cash >= lo and lo <= 3 * rules.BID_STEP:
            out.append((Bid(amount=lo),))
        return out
    if s.phase == INSPECT:
        return [(Allow(),), (Inspect(),)]
    seen: set[str] = set()
    out = []
    for _, opt in choices(s, seat, builds):
        key = repr(opt)
        if key not in seen:
            seen.add(key)
            out.append(opt)
    return out[:cap]
