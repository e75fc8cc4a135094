"""What a Chicago Express position is worth to each seat, in dollars at the end of the game.

Only cash counts at the end, and cash comes from dividends, so a seat's value is

    cash + sum over companies of shares held x (what one share will still pay)

where one share pays `ceil(income / shares out)` at the next dividend phase, then its part
of the income at the phases after, shared with the shares still to be sold (dilution);
plus its part of the income the company's cash will buy (track built with it raises
income for the phases after) and of the Chicago bonus (+income and an extra dividend) the
company can still reach. A dollar in hand is worth a little more than a dollar while
shares can still be bought with it. The number of dividend phases left is estimated from the four end
conditions: Detroit's clock is exact, the others are read as distances (houses, shares,
locomotives still to go) over a rate per round. `Weights` holds every tuning constant.
"""

from __future__ import annotations

import math
from collections import deque

import msgspec

from shared.games.chicago_express.board import BOARD
from shared.games.chicago_express.state import N_COMPANIES, OVER, State

_DETROIT = next(ind for ind in BOARD.industries if ind.self_developing)
_DETROIT_PHASES = len(_DETROIT.track)  # phases left with Detroit at position 0
_END_COUNT = 3  # the end conditions count three companies
_HOUSES_END = 3
_CHICAGO_INCOME = BOARD.income[BOARD.chicago]


class Weights(msgspec.Struct, frozen=True, kw_only=True):
    # Income a dollar of company cash buys when it is spent on track.
    gamma: float = 0.25
    # Dollars a company can put to work per round (about one build action of three locomotives).
    spend_per_round: float = 4.0
    # Phases that pass, on average, before money in a company is income.
    spend_lag: float = 1.0
    # End-condition progress per round, used to estimate the phases left.
    houses_per_round: float = 3.5
    shares_per_round: float = 2.2
    locos_per_round: float = 9.0
    # Locomotives a company places per round while racing to Chicago.
    chicago_pace: float = 2.5
    # Weight of the Chicago prospect in a company's value (it is uncertain: races, blocks).
    chicago_weight: float = 0.6
    # Softmax temperature (dollars) turning values into win chances: base + per phase left.
    temperature: float = 6.0
    temperature_per_phase: float = 3.0
    # In the greedy utility, how much the best rival counts against the mean of the others.
    rival_weight: float = 0.7
    # Premium on a dollar in hand per dividend phase left (it can still buy shares).
    cash_premium: float = 0.03
    # Phases over which the unsold shares of a company are expected to be sold.
    dilution_phases: float = 3.0
    # Standard deviation (dollars) of the noise on the greedy player's scores and bid ceilings.
    noise: float = 0.5


DEFAULT = Weights()


def _chicago_distances() -> tuple[int, ...]:
    dist = [-1] * len(BOARD.hex_ids)
    dist[BOARD.chicago] = 0
    queue = deque([BOARD.chicago])
    while queue:
        h = queue.popleft()
        for n in BOARD.neighbours[h]:
            if dist[n] < 0:
                dist[n] = dist[h] + 1
                queue.append(n)
    return tuple(d if d >= 0 else 99 for d in dist)


CHICAGO_DISTANCE = _chicago_distances()
_distance_cache: dict[tuple[int, ...], int] = {}


def network_distance(network: tuple[int, ...]) -> int:
    """Fewest hexes from a network to Chicago (networks only grow, so results are cached)."""
    dist = _distance_cache.get(network)
    if dist is None:
        if len(_distance_cache) > 50_000:
            _distance_cache.clear()
        dist = min((CHICAGO_DISTANCE[h] for h in network), default=99)
        _distance_cache[network] = dist
    return dist


def phases_left(s: State, w: Weights = DEFAULT, sold: int = -1) -> float:
    """Expected dividend phases still to come, the next one included (0 once the game is over).

    `sold`: a company that has just sold one more share (a what-if the auctions ask).
    """
    if s.phase == OVER:
        return 0.0
    left = float(_DETROIT_PHASES - s.industry[_DETROIT.index])
    supply = s.houses_supply
    left = min(left, 1.0 + max(0, supply - _HOUSES_END) / w.houses_per_round)
    shares: list[int] = []
    locos: list[int] = []
    for c, co in enumerate(s.companies):
        if co.open:
            shares.append(co.shares_left - (c == sold))
            locos.append(co.locos_left)
    if len(shares) >= _END_COUNT:
        shares.sort()
        locos.sort()
        left = min(left, 1.0 + sum(shares[:_END_COUNT]) / w.shares_per_round)
        left = min(left, 1.0 + sum(locos[:_END_COUNT]) / w.locos_per_round)
    return left


def company_prospect(s: State, c: int, phases: float, w: Weights = DEFAULT, extra_cash: int = 0) -> float:
    """Dollars the company will still pay out beyond its current income: what its cash and
    its road to Chicago are worth (all shareholders together)."""
    co = s.companies[c]
    if co.locos_left == 0 or phases <= 1.0:
        return 0.0
    later = phases - w.spend_lag
    if later <= 0:
        return 0.0
    cash = co.cash + extra_cash
    spendable = min(cash, w.spend_per_round * (phases - 1.0))
    value = w.gamma * spendable * later
    if not s.locos[BOARD.chicago] >> c & 1 and co.network:
        dist = network_distance(co.network)
        rounds = dist / w.chicago_pace
        if dist <= co.locos_left and rounds < phases - 1.0:
            reach = min(1.0, (cash + 1) / (2.0 * dist))
            value += w.chicago_weight * reach * (_CHICAGO_INCOME * (phases - 1.0 - rounds) + co.income)
    return value


def cash_worth(phases: float, w: Weights = DEFAULT) -> float:
    """What a dollar in hand is worth: more than a dollar while shares can still be bought
    with it (they pay back many times over), a dollar at the end."""
    return 1.0 + w.cash_premium * max(0.0, phases - 1.0)


def seat_values(
    s: State, w: Weights = DEFAULT, sale: tuple[int, int, int] | None = None
) -> list[float]:
    """Each seat's expected final cash. `sale=(buyer, company, price)`: as if `buyer` had just
    bought one share of `company` for `price` (the company receiving the money)."""
    n = len(s.players)
    cash = s.cash
    shares = s.shares
    sold_c = buyer = -1
    price = 0
    if sale is not None:
        buyer, sold_c, price = sale
    phases = phases_left(s, w, sold_c)
    if phases <= 0:
        values = [float(x) for x in cash]
        if buyer >= 0:
            values[buyer] -= price
        return values
    worth = cash_worth(phases, w)
    values = [x * worth for x in cash]
    if buyer >= 0:
        values[buyer] -= price * worth
    later = phases - 1.0
    # Shares still unsold will mostly be sold before the end, sharing the income further.
    selling = min(1.0, later / w.dilution_phases) if w.dilution_phases > 0 else 0.0
    for c, co in enumerate(s.companies):
        if not co.open:
            continue
        held = shares[c::N_COMPANIES]
        out = sum(held)
        extra = 0
        left = co.shares_left
        if c == sold_c:
            held = list(held)
            held[buyer] += 1
            out += 1
            left -= 1
            extra = price
        if out == 0:
            continue
        income = co.income
        per_share = -(-income // out) + (income * later + company_prospect(s, c, phases, w, extra)) / (out + selling * left)
        for seat in range(n):
            if held[seat]:
                values[seat] += held[seat] * per_share
    return values


def utility(values: list[float], seat: int, w: Weights = DEFAULT) -> float:
    """How good `values` are for `seat`: its lead over a mix of the best rival and the field."""
    others = [v for i, v in enumerate(values) if i != seat]
    if not others:
        return values[seat]
    best = max(others)
    mean = sum(others) / len(others)
    return values[seat] - (w.rival_weight * best + (1 - w.rival_weight) * mean)


def win_chances(values: list[float], phases: float, w: Weights = DEFAULT) -> list[float]:
    """Values turned into win probabilities: a softmax, softer while much of the game is left."""
    temp = w.temperature + w.temperature_per_phase * max(phases, 0.0)
    top = max(values)
    weights = [math.exp((v - top) / temp) for v in values]
    total = sum(weights)
    return [x / total for x in weights]
