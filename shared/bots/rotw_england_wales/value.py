"""What a Railways of England and Wales position is worth to each seat: its final score,
projected.

The score now (track, completed links, cards and major lines, minus shares) is certain; what
the rest of the game adds is a linear function, fitted on self-play, of what the seat holds:

- the turns left, read from the end condition (exact once the empty-city limit is reached,
  else the markers still to go over a rate per turn);
- cash, and cash times turns left (money early buys links that deliver for longer); income
  times turns left; shares times turns left (interest, and the shares it forces later);
- deliveries open to it now over the links that exist (the VP each moves to its own track,
  one per cube, as many as it has rounds to make);
- its baron: 10 VP times a soft chance that its count is not beaten at the end (a tie
  scores), instead of all-or-nothing on today's count;
- engine level and completed links, alone and times turns left.

Win chances are a softmax of the projected scores whose temperature grows with the turns
left, as the fit's error does. `Weights` holds every constant; `benchmarks/rotw_value_fit.py`
refits them.
"""

from __future__ import annotations

import math

import msgspec

from shared.games.rotw_england_wales import end, rules
from shared.games.rotw_england_wales.board import get_board
from shared.games.rotw_england_wales.state import OVER, State

from .plans import deliveries


class Weights(msgspec.Struct, frozen=True, kw_only=True):
    """Coefficients of the projection, per feature (FEATURES). TWO_PLAYERS and MORE_PLAYERS
    are least-squares fits of (final score - certain score now) over the action-phase
    positions of 300 two-player and 100 four-player self-play games of the heuristic, one
    decision in five a random kit option so that shares, builds and upgrades vary
    (`python3 -m benchmarks.rotw_value_fit`; R^2 0.58 and 0.55). TWO_PLAYERS was refitted on
    300 games after issue 19's rule fixes (shares only for payments, one cube fewer per city
    with 2-3 players): R^2 0.452, and its temperature follows that fit's residuals
    (docs/benchmarks.md)."""

    const: float
    per_turn: float  # VP a seat adds per turn left, whatever it holds
    cash: float  # per $1,000 in hand
    cash_turn: float  # per $1,000 in hand per turn left
    share_turn: float  # per share per turn left (interest, and the shares it forces later)
    income_turn: float  # per $1,000 of income per turn left
    delivery: float  # per VP of deliveries open now (delivery_prospect)
    baron: float  # per VP of baron times its chance
    engine: float
    engine_turn: float  # per engine level per turn left
    links: float  # per completed link owned (beyond its VP, counted as certain)
    links_turn: float  # per completed link per turn left
    # Empty-city markers placed per turn before the limit (two-player games place about two).
    empties_per_turn: float = 2.0
    # Share of a seat's remaining rounds it spends delivering (the others build, upgrade...).
    deliver_share: float = 0.5
    # Softness (in counted units) of the baron's chance of not being beaten.
    baron_softness: float = 1.0
    # Softmax temperature (VP) turning projected scores into win chances: base + per turn
    # left, about 0.7 x the fit's residual (before issue 19's rule fixes: about 4 VP with a turn
    # left to 12 with eight; after them, two players: 3.5 VP to 6.3 VP).
    temperature: float = 2.5
    temperature_per_turn: float = 0.8


TWO_PLAYERS = Weights(const=-4.923, per_turn=2.217, cash=0.33, cash_turn=-0.04, share_turn=-0.147, income_turn=0.122,
                      delivery=0.467, baron=1.114, engine=0.047, engine_turn=0.018, links=0.373, links_turn=-0.063,
                      temperature=2.2, temperature_per_turn=0.3)
MORE_PLAYERS = Weights(const=-2.93, per_turn=1.75, cash=0.041, cash_turn=0.044, share_turn=-0.225, income_turn=0.068,
                       delivery=0.538, baron=0.919, engine=0.222, engine_turn=0.257, links=0.263, links_turn=0.056)
DEFAULT = TWO_PLAYERS


def weights_for(players: int) -> Weights:
    return TWO_PLAYERS if players <= 2 else MORE_PLAYERS


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


FEATURES = ("const", "per_turn", "cash", "cash_turn", "share_turn", "income_turn", "delivery", "baron", "engine",
            "engine_turn", "links", "links_turn")


def features(s: State, seat: int, w: Weights, rows: list[dict] | None = None) -> tuple[float, list[float]]:
    """The seat's certain score now, and its features in the order of FEATURES (the fit in
    benchmarks/rotw_value_fit.py uses these very numbers)."""
    r = (rows or end.breakdown(s))[seat]
    p = s.players[seat]
    left = turns_left(s, w)
    certain = r["track"] + r["links"] + r["cards"] - p.shares
    links = r["links"] // rules.LINK_VP
    baron = 0.0
    if p.baron:
        vp = next(b["vp"] for b in rules.card_data()["barons"] if b["id"] == p.baron)
        baron = vp * _baron_chance(s, seat, w)
    cash = p.cash / 1000
    rounds = left * rules.ROUNDS_PER_TURN * w.deliver_share
    return certain, [1.0, left, cash, cash * left, p.shares * left, rules.income_for(p.vp) / 1000 * left,
                     delivery_prospect(s, seat, rounds), baron, float(p.engine), p.engine * left, float(links),
                     links * left]


def projected_scores(s: State, w: Weights | None = None) -> list[float]:
    rows = end.breakdown(s)
    if s.phase == OVER:
        return [float(r["total"]) for r in rows]
    w = w or weights_for(len(s.players))
    coefficients = [getattr(w, name) for name in FEATURES]
    out = []
    for seat in range(len(s.players)):
        certain, feats = features(s, seat, w, rows)
        out.append(certain + sum(c * f for c, f in zip(coefficients, feats)))
    return out


def win_chances(s: State, w: Weights | None = None) -> list[float]:
    w = w or weights_for(len(s.players))
    values = projected_scores(s, w)
    scale = w.temperature + w.temperature_per_turn * turns_left(s, w)
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [x / total for x in weights]
