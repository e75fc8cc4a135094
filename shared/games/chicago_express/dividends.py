"""Dividends: the regular dividend phase, the Chicago phase and the end of the game.

A share pays its company's income divided by the shares out (held by players), rounded
up; each share is computed on its own and the money comes from the bank. The game ends
right after the regular payment of a dividend phase when any end condition holds.
Company counts include Wabash once it has opened (before that it has no network and its
shares are not for sale, so it counts towards neither condition).
"""

from __future__ import annotations

from . import events as ev
from .auction import start_auction
from .board import BOARD
from .develop import advance_industry
from .money import BANK, player, transfer
from .state import (
    N_COMPANIES,
    OVER,
    WABASH,
    State,
    ceil_div,
    holding,
    min_bid,
    place_locomotive,
    resume_turn,
    set_company,
    shares_out,
)


def pay_dividend(s: State, c: int, kind: str) -> None:
    out = shares_out(s, c)
    if out == 0:
        return
    income = s.companies[c].income
    per_share = ceil_div(income, out)
    payouts = [holding(s, seat, c) * per_share for seat in range(len(s.players))]
    for seat, amount in enumerate(payouts):
        transfer(s, BANK, player(seat), amount)
    s.log.append(
        ev.DividendPaid(
            kind=kind,
            company=BOARD.companies[c].id,
            income=income,
            shares_out=out,
            per_share=per_share,
            payouts=payouts,
        )
    )


def end_reasons(s: State) -> list[str]:
    reasons = []
    open_companies = [co for co in s.companies if co.open]
    if sum(1 for co in open_companies if co.locos_left == 0) >= 3:
        reasons.append("three_companies_out_of_locomotives")
    if sum(1 for co in open_companies if co.shares_left == 0) >= 3:
        reasons.append("three_companies_out_of_shares")
    if s.houses_supply <= 3:
        reasons.append("houses_supply_low")
    for ind in BOARD.industries:
        if ind.self_developing and s.industry[ind.index] == len(ind.track) - 1:
            reasons.append("detroit_at_maximum")
    return reasons


def dividend_phase(s: State) -> None:
    """Pay dividends; then either end the game, or reset the dials and let Detroit develop."""
    s.log.append(ev.DividendPhase(round=s.round))
    for c in range(N_COMPANIES):
        pay_dividend(s, c, "regular")
    reasons = end_reasons(s)
    if reasons:
        s.end_reasons = reasons
        s.phase = OVER
        s.log.append(ev.GameEnded(reasons=reasons))
        return
    s.dials = [0] * len(s.dials)
    s.log.append(ev.DialsReset())
    for ind in BOARD.industries:
        if ind.self_developing:
            advance_industry(s, ind.index, -1)
    s.round += 1


def chicago_phase(s: State, seat: int, c: int) -> None:
    """A company has just placed a locomotive on Chicago (its income already rose).

    The game is interrupted there ("Pokaždé, když … umístí svoji lokomotivu na pole
    Chicago …, je hra přerušena"): the shareholders get an extra dividend on the income
    at that moment; the first arrival opens Wabash and the arriving player opens the first
    Wabash auction. Then the build goes on where it stopped (`resume_turn`). A regular
    dividend phase the same turn triggers comes after, since it waits for the turn's end.
    """
    first = not s.companies[BOARD.wabash].open
    s.log.append(ev.ChicagoReached(seat=seat, company=BOARD.companies[c].id, first=first))
    pay_dividend(s, c, "chicago")
    if not first:
        resume_turn(s)
        return
    fort_wayne = BOARD.fort_wayne
    income = BOARD.income[fort_wayne] + (BOARD.house[fort_wayne] if s.houses[fort_wayne] else 0)
    # The first Wabash locomotive is free and takes no build action.
    set_company(s, BOARD.wabash, open=True, income=income)
    place_locomotive(s, BOARD.wabash, fort_wayne)
    s.log.append(ev.WabashOpened(hex=BOARD.hex_ids[fort_wayne], income=income))
    start_auction(s, WABASH, BOARD.wabash, seat, min_bid(s, BOARD.wabash))
