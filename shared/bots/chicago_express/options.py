"""The moves worth considering in a Chicago Express position, and what each is worth.

An option is a whole decision of one seat: a turn (`choose` plus its offer, with a bid or
a pass, its build of up to three locomotives and `done`, its development, or `forgo`), or
one step of an auction (pass, the lowest bid, or a jump to what the share is worth to the
bidder). A build that reaches Chicago for the first time stops there (the first Wabash
auction interrupts it); the rest of it is a decision of its own once the auction closes.
Builds are planned by a small beam search per company; every candidate is then scored by
playing it on the engine and valuing the result (`value.py`), so costs, income and the
dividend or Chicago phases it triggers all come from the rules themselves.

Auctions are valued with a bidding model: a seat's ceiling for a share is the highest
price at which owning it beats letting its strongest rival have it at that price (what an
English auction with $1 steps comes down to). `resolve_auction` plays an auction out with
every bidder at its ceiling.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from shared.engine import RuleError
from shared.games.chicago_express import ENGINE
from shared.games.chicago_express.actions import Bid, Build, Develop, Done, Forgo, Offer, Pass
from shared.games.chicago_express.auction import lowest_bid
from shared.games.chicago_express.board import BOARD
from shared.games.chicago_express.build import build_cost, income_gain
from shared.games.chicago_express.state import (
    AUCTION,
    BUILD,
    CHOOSE,
    OFFER,
    OPENING,
    State,
    holding,
)

from .value import CHICAGO_DISTANCE, DEFAULT, Weights, network_distance, seat_values, utility

Option = tuple[Any, ...]

PASS = Pass()
DONE = Done()
FORGO = Forgo()
# Beam widths of the build planner: first, second and third locomotive.
BUILD_BEAM = (3, 2, 1)
# Plans kept per company, developments kept, for a search (the greedy scores them all).
PLANS_PER_COMPANY = 2
DEVELOPS_KEPT = 3
# A jump bid is offered when the bidder's ceiling is at least this far above the lowest bid.
JUMP_MARGIN = 3
# Dollars of utility per turn the dividend phase comes sooner (leader) or later (behind).
PACE_WEIGHT = 0.05


def play(s: State, seat: int, option: Option) -> State:
    for action in option:
        s = ENGINE.apply(s, seat, action)
    return s


# --- auctions ----------------------------------------------------------------------------------


def _rival(s: State, seat: int, lowest: int) -> tuple[int, int | None]:
    """Who gets the share if `seat` drops out, and at what price (None: the price in question).

    -1 means nobody (a Wabash share stays unsold)."""
    a = s.auction
    assert a is not None
    if a.high_bidder >= 0 and a.high_bidder != seat:
        return a.high_bidder, a.high_bid
    values = seat_values(s)
    best, best_value = -1, 0.0
    for x in range(len(s.players)):
        if x != seat and not a.passed >> x & 1 and s.cash[x] >= lowest and (best < 0 or values[x] > best_value):
            best, best_value = x, values[x]
    if best >= 0:
        return best, None
    if a.kind == OPENING:
        return a.opener, 0  # nobody bids: the opener takes it free
    return -1, None


def ceiling(s: State, seat: int, w: Weights = DEFAULT) -> int:
    """The most `seat` should pay for the share on auction (below the lowest bid: stay out)."""
    a = s.auction
    assert a is not None
    lowest = lowest_bid(a)
    top = s.cash[seat]
    if top < lowest:
        return lowest - 1
    c = a.company
    rival, fixed = _rival(s, seat, lowest)

    def worth(price: int) -> bool:
        mine = utility(seat_values(s, w, (seat, c, price)), seat, w)
        if rival < 0:
            other = seat_values(s, w)
        else:
            other = seat_values(s, w, (rival, c, price if fixed is None else fixed))
        return mine >= utility(other, seat, w)

    if not worth(lowest):
        return lowest - 1
    lo, hi = lowest, top
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if worth(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def bid_options(s: State, seat: int, w: Weights = DEFAULT) -> list[Option]:
    a = s.auction
    assert a is not None
    lowest = lowest_bid(a)
    if s.cash[seat] < lowest:
        return [(PASS,)]
    top = ceiling(s, seat, w)
    if top < lowest:
        return [(PASS,), (Bid(lowest),)]
    out: list[Option] = [(Bid(lowest),)]
    if top - lowest >= JUMP_MARGIN:
        out.append((Bid(top),))
    out.append((PASS,))
    return out


def greedy_bid(s: State, seat: int, w: Weights = DEFAULT, rng: random.Random | None = None) -> Any:
    a = s.auction
    assert a is not None
    lowest = lowest_bid(a)
    if s.cash[seat] < lowest:
        return PASS
    top = ceiling(s, seat, w)
    if rng is not None and w.noise > 0:
        top += round(rng.gauss(0.0, w.noise))
    return Bid(lowest) if top >= lowest else PASS


def resolve_auction(s: State, w: Weights = DEFAULT) -> State:
    """Play the running auction out: every bidder goes up to its ceiling, the highest wins at
    one more than the next highest (English auction), then the state as it closes."""
    a = s.auction
    assert a is not None
    n = len(s.players)
    lowest = lowest_bid(a)
    ceilings: dict[int, int] = {}
    for x in range(n):
        if not a.passed >> x & 1 and x != a.high_bidder:
            ceilings[x] = ceiling(s, x, w)
    if a.high_bidder >= 0:
        ceilings[a.high_bidder] = max(a.high_bid, ceiling(s, a.high_bidder, w))
    ranked = sorted(ceilings.items(), key=lambda item: (-item[1], item[0] != a.high_bidder))
    winner, top = ranked[0]
    runner_up = ranked[1][1] if len(ranked) > 1 else 0
    if winner != a.high_bidder and top < lowest:
        winner = a.high_bidder  # nobody outbids: the auction closes as it stands
    price = max(lowest, min(top, runner_up + 1))
    guard = 4 * n
    while s.phase == AUCTION and s.auction is not None and guard:
        guard -= 1
        cur = s.auction
        x = cur.to_act
        if x == winner and cur.high_bidder != winner and s.cash[x] >= max(price, lowest_bid(cur)):
            s = ENGINE.apply(s, x, Bid(max(price, lowest_bid(cur))))
        else:
            s = ENGINE.apply(s, x, PASS)
    return s


# --- offers ---------------------------------------------------------------------------------------


def offer_options(s: State, seat: int) -> list[Option]:
    """The engine's legal offers: each share for sale with a bid at its minimum (the auction
    sets the price) or with a pass (the others may buy it, and their money goes to the
    company; nobody bidding leaves it unsold), or forgo."""
    return [(legal.action,) for legal in ENGINE.legal_actions(s, seat)]


# --- builds ---------------------------------------------------------------------------------------


def _nearby_income(h: int) -> float:
    return sum(BOARD.income[n] + (2 if BOARD.industry_of[n] >= 0 else 0) for n in BOARD.neighbours[h])


# Printed income around each hex: building next to it opens the way to that income.
_NEARBY = tuple(0.3 * _nearby_income(h) for h in range(len(BOARD.hex_ids)))


def _hex_score(s: State, h: int, distance: int) -> float:
    """Quick promise of one locomotive, only to prune the planner's beam."""
    progress = distance - CHICAGO_DISTANCE[h]
    return 3.0 * income_gain(s, h) - build_cost(s, h) + (1.5 * progress if progress > 0 else 0.0) + _NEARBY[h]


def _company_builds(s: State, seat: int, c: int) -> list[Build]:
    out = []
    for legal in ENGINE.legal_actions(s, seat):
        action = legal.action
        if type(action) is Build and BOARD.company_index[action.company] == c:
            out.append(action)
    return out


def build_plans(s: State, seat: int) -> list[tuple[Option, State]]:
    """Candidate builds from a BUILD-phase state, with the state each leaves: per company,
    locomotive sequences found by a beam search, each ending the build (`done` unless the
    third locomotive ended it)."""
    progress = s.build
    assert progress is not None
    room = BOARD.build_limit - len(progress.placed)
    if progress.company >= 0:
        companies = [progress.company]
    else:
        companies = [
            c for c, co in enumerate(s.companies)
            if co.open and co.locos_left and co.cash and holding(s, seat, c)
        ]
    plans: list[tuple[Option, State]] = []
    for c in companies:
        beam: list[tuple[Option, State]] = [((), s)]
        for depth in range(room):
            grown: list[tuple[Option, State]] = []
            for seq, t in beam:
                if t.phase != BUILD:
                    continue
                distance = network_distance(t.companies[c].network)
                cands = [(-_hex_score(t, BOARD.hex_index[b.hex], distance), i, b)
                         for i, b in enumerate(_company_builds(t, seat, c))]
                cands.sort()
                for _, _, b in cands[: BUILD_BEAM[depth]]:
                    grown.append((seq + (b,), ENGINE.apply(t, seat, b)))
            for seq, t in grown:
                if t.phase == BUILD:
                    plans.append((seq + (DONE,), ENGINE.apply(t, seat, DONE)))
                else:
                    plans.append((seq, t))
            beam = grown
    return plans


# --- developments ----------------------------------------------------------------------------------


def develop_options(s: State) -> list[Option]:
    return [(legal.action,) for legal in ENGINE.legal_actions(s, s.current) if type(legal.action) is Develop]


# --- whole decisions ----------------------------------------------------------------------------


def _completions(s: State, seat: int) -> list[tuple[Option, State | None]]:
    """Every way to finish the turn from an OFFER, BUILD or DEVELOP state (with the state
    it leaves, when already played)."""
    if s.phase == OFFER:
        return [(option, None) for option in offer_options(s, seat)]
    if s.phase == BUILD:
        plans: list[tuple[Option, State | None]] = list(build_plans(s, seat))
        placed = s.build is not None and s.build.placed
        plans.append(((DONE,) if placed else (FORGO,), None))
        return plans
    return [(option, None) for option in [*develop_options(s), (FORGO,)]]


def raw_options(s: State, seat: int, w: Weights = DEFAULT) -> list[tuple[Option, State | None]]:
    """All candidate decisions for the seat to act, unordered and unpruned; each with the
    state it leaves when working it out already played it (else None)."""
    if s.phase == AUCTION:
        return [(option, None) for option in bid_options(s, seat, w)]
    if s.phase != CHOOSE:
        return _completions(s, seat)
    out: list[tuple[Option, State | None]] = []
    for legal in ENGINE.legal_actions(s, seat):
        chosen = legal.action
        after = ENGINE.apply(s, seat, chosen)
        out.extend(((chosen, *rest), t) for rest, t in _completions(after, seat))
    return out


def outcome(
    s: State, seat: int, option: Option, w: Weights = DEFAULT, thorough: bool = True, after: State | None = None
) -> State | None:
    """The position once `option` is played (and, if it opens an auction, once that closes:
    played out by the bidding model when `thorough`, else as if `seat` won at its offer).
    `after`: the state the option leaves, if already known."""
    if after is None:
        try:
            after = play(s, seat, option)
        except RuleError:
            return None
    if after.phase == AUCTION and after.auction is not None:
        if thorough:
            return resolve_auction(after, w)
        a = after.auction
        if a.high_bidder == seat:
            return _as_sold(after, seat, a.company, a.high_bid)
    return after


def _as_sold(after: State, seat: int, c: int, price: int) -> State:
    """A cheap stand-in for an auction won at `price` (quick scoring only)."""
    s = msgspec.structs.replace(after)
    s.auction = None
    s.phase = CHOOSE
    s.cash = list(s.cash)
    s.cash[seat] -= price
    s.shares = list(s.shares)
    s.shares[seat * len(s.companies) + c] += 1
    s.companies = list(s.companies)
    co = s.companies[c]
    s.companies[c] = msgspec.structs.replace(co, cash=co.cash + price, shares_left=co.shares_left - 1)
    return s


def pace_bonus(s: State, after: State, seat: int, lead: float) -> float:
    """Tie-break between dials: a leader hurries the dividend phase (and the end), a seat
    behind delays it. Counted in turns until dividends, at a small weight."""
    if s.phase != CHOOSE or after is None:
        return 0.0
    before = _turns_to_dividend(s)  # this turn included
    after_turns = 1 + _turns_to_dividend(after) if after.round == s.round else 1
    direction = 1.0 if lead > 0 else -1.0
    return PACE_WEIGHT * direction * (before - after_turns)


def _turns_to_dividend(s: State) -> int:
    """Fewest turns before two dials are on red (the dividend phase)."""
    gaps = sorted(max(0, length - pos) for pos, length in zip(s.dials, s.dial_lengths))
    return gaps[0] + gaps[1]


def scored_options(s: State, seat: int, w: Weights = DEFAULT, thorough: bool = True) -> list[tuple[float, Option]]:
    """Candidate decisions with their greedy score (the seat's utility once played), best first."""
    scored: list[tuple[float, Option]] = []
    base = utility(seat_values(s, w), seat, w)
    for option, played in raw_options(s, seat, w):
        after = outcome(s, seat, option, w, thorough, played)
        if after is None:
            continue
        score = utility(seat_values(after, w), seat, w)
        score += pace_bonus(s, after, seat, base)
        scored.append((score, option))
    scored.sort(key=lambda item: -item[0])
    return scored


def search_options(s: State, seat: int, w: Weights = DEFAULT) -> list[Option]:
    """What a search branches on: the options best first, thinned to a few per kind."""
    if s.phase == AUCTION:
        return bid_options(s, seat, w)
    kept: list[Option] = []
    per_kind: dict[tuple[Any, ...], int] = {}
    for _, option in scored_options(s, seat, w, thorough=False):
        kind = _kind(option)
        limit = PLANS_PER_COMPANY if kind[0] == "build" else DEVELOPS_KEPT if kind[0] == "develop" else 99
        if per_kind.get(kind, 0) < limit:
            per_kind[kind] = per_kind.get(kind, 0) + 1
            kept.append(option)
    return kept


def _kind(option: Option) -> tuple[Any, ...]:
    for action in option:
        if type(action) is Build:
            return ("build", action.company)
        if type(action) is Develop:
            return ("develop",)
        if type(action) is Offer:
            return ("offer", action.company)
    return ("other", tuple(type(a).__name__ for a in option), getattr(option[0], "action", None))


def greedy_move(s: State, seat: int, w: Weights = DEFAULT, rng: random.Random | None = None) -> Any:
    """The heuristic's move. With `rng`, scores get a little noise (`w.noise` dollars), so
    that equal options are picked at random and games between bots vary."""
    if s.phase == AUCTION:
        return greedy_bid(s, seat, w, rng)
    scored = scored_options(s, seat, w, thorough=True)
    if rng is None or w.noise <= 0:
        return scored[0][1][0]
    noisy = [(score + rng.gauss(0.0, w.noise), i) for i, (score, _) in enumerate(scored)]
    return scored[max(noisy)[1]][1][0]
