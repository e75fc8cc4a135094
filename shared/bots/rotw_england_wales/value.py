"""What a Railways of England and Wales position is worth to each seat: its final score,
projected.

The score now (track, completed links, cards and major lines, minus shares) is certain; what
the rest of the game adds is estimated from what the seat holds:

- deliveries open to it now over the links that exist (the VP each moves to its own track),
  as many as it has rounds left to make them, discounted because a rival may take the cube;
- cash, which buys links and engines, and income, which brings more cash, for the turns left
  (a dollar is worth less as the end nears and nothing at the end); share interest is the
  same money going out;
- its baron: 10 VP times a soft chance that its count is not beaten at the end (a tie
  scores), instead of all-or-nothing on today's count.

The turns left are read from the end condition: exact once the empty-city limit is reached,
else the markers still to go over a rate per turn. `Weights` holds every tuning constant.
"""

from __future__ import annotations

import math

import msgspec

from shared.games.rotw_england_wales import end, rules
from shared.games.rotw_england_wales.board import get_board
from shared.games.rotw_england_wales.state import OVER, State

from .plans import deliveries


class Weights(msgspec.Struct, frozen=True, kw_only=True):
    # Empty-city markers placed per turn before the limit (2-player games place about two).
    empties_per_turn: float = 2.0
    # Share of a seat's remaining rounds it spends delivering (the others build, upgrade...).
    deliver_share: float = 0.5
    # A delivery open now is not a delivery made: rivals take cubes, the seat builds instead.
    delivery_weight: float = 0.6
    # Dollars per VP for money that will still be spent on track (a link costs a few
    # thousand and brings its VP plus deliveries).
    dollars_per_vp: float = 4000.0
    # Turns over which cash keeps its full value; it fades to nothing at the end.
    cash_horizon: float = 3.0
    # Softness (in counted units) of the baron's chance of not being beaten.
    baron_softness: float = 1.0
    # Softmax temperature (VP) turning projected scores into win chances: base + per turn left.
    temperature: float = 3.0
    temperature_per_turn: float = 0.5


DEFAULT = Weights()


def turns_left(s: State, w: Weights = DEFAULT) -> float:
    """Turns still to be played, counting the rest of this one as a fraction."""
    if s.phase == OVER:
        return 0.0
    this = max(0, rules.ROUNDS_PER_TURN - s.round + 1) / rules.ROUNDS_PER_TURN
    if s.ending:
        return this + max(0, s.final_turn - s.turn)
    need = get_board(s.board).empty_city_end[len(s.players)]
    to_go = max(0, need - len(s.empty))
    # The turn that reaches the limit is completed, then one more is played.
    return this + to_go / w.empties_per_turn + 1.0


def _baron_chance(s: State, seat: int, w: Weights) -> float:
    """Soft chance that the seat's baron condition holds at the end."""
    p = s.players[seat]
    if not p.baron:
        return 0.0
    baron = next(b for b in rules.card_data()["barons"] if b["id"] == p.baron)
    mine = end.baron_metric(s, seat, baron)
    rival = max((end.baron_metric(s, q, baron) for q in range(len(s.players)) if q != seat), default=0)
    margin = mine - rival + 0.5  # a tie scores
    return 1.0 / (1.0 + math.exp(-margin / w.baron_softness))


def delivery_prospect(s: State, seat: int, rounds: float) -> float:
    """VP the seat's best deliveries open now would move to its own track, one per cube, at
    most `rounds` of them."""
    best: dict[tuple[str, str], int] = {}
    for d in deliveries(s, seat):
        key = (d.action.city, d.action.color)
        if d.mine > best.get(key, -1):
            best[key] = d.mine
    gains: list[int] = []
    for (city, colour), mine in best.items():
        gains.extend([mine] * s.cubes.get(city, []).count(colour))
    gains.sort(reverse=True)
    whole = int(rounds)
    total = float(sum(gains[:whole]))
    if whole < len(gains):
        total += (rounds - whole) * gains[whole]
    return total


def projected_scores(s: State, w: Weights = DEFAULT) -> list[float]:
    rows = end.breakdown(s)
    if s.phase == OVER:
        return [float(r["total"]) for r in rows]
    left = turns_left(s, w)
    rounds = left * rules.ROUNDS_PER_TURN * w.deliver_share
    fade = min(1.0, max(0.0, left - 1.0) / w.cash_horizon)  # money at the last turn buys little
    out = []
    for seat, p in enumerate(s.players):
        r = rows[seat]
        certain = r["track"] + r["links"] + r["cards"] - p.shares
        money = p.cash + max(0.0, left - 1.0) * (rules.income_for(p.vp) - p.shares * rules.SHARE_INTEREST)
        baron = 0.0
        if p.baron:
            vp = next(b["vp"] for b in rules.card_data()["barons"] if b["id"] == p.baron)
            baron = vp * _baron_chance(s, seat, w)
        out.append(certain + baron + w.delivery_weight * delivery_prospect(s, seat, rounds)
                   + fade * money / w.dollars_per_vp)
    return out


def win_chances(s: State, w: Weights = DEFAULT) -> list[float]:
    values = projected_scores(s, w)
    scale = w.temperature + w.temperature_per_turn * turns_left(s, w)
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [x / total for x in weights]
