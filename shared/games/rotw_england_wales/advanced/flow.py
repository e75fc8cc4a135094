"""The round of the advanced game (seed III.1): company turns (three, in share-price order),
dividends, mergers, the share auction phase; the end after the round in which the set
number of cities was emptied."""

from __future__ import annotations

from .. import rules
from ..state import OVER, State
from . import auction, data
from .shares import adv, controlled, price_order
from .state import COMPANY, SHARES


def current_company(s: State) -> int:
    a = adv(s)
    return a.order[a.pos]


def start_round(s: State) -> None:
    a = adv(s)
    a.order = price_order(s, controlled(s))
    a.pos = 0
    a.turn = 1
    a.build = None
    s.phase = COMPANY
    names = ", ".join(a.companies[i].name for i in a.order) or "none"
    s.log.append(f"round {s.turn}: company turns ({names})")
    if not a.order:
        _company_turns_over(s)


IDLE_ROUNDS = 3  # reading: a game in which nothing is built or delivered this long is over


def company_done(s: State, acted: bool = True) -> None:
    a = adv(s)
    a.acted = a.acted or acted
    a.build = None
    s.phase = COMPANY
    a.pos += 1
    if a.pos < len(a.order):
        return
    a.pos = 0
    a.turn += 1
    if a.turn > data.COMPANY_TURNS:
        _company_turns_over(s)


def _company_turns_over(s: State) -> None:
    from . import dividends
    a = adv(s)
    a.idle = 0 if a.acted else a.idle + 1
    a.acted = False
    if a.idle >= IDLE_ROUNDS and not s.ending:
        s.ending = True
        s.end_reason = f"{IDLE_ROUNDS} rounds without building or delivering"
        s.log.append(f"no company has built or delivered for {IDLE_ROUNDS} rounds: the game ends after this round")
    for c in a.companies:
        if c.income:
            got = rules.income_for(c.income)
            c.cash += got
            s.log.append(f"the {c.name} earns ${got:,} (income marker {c.income})")
        c.income = 0
    dividends.begin(s)


def dividends_over(s: State) -> None:
    from . import merger
    for p in s.players:
        p.cash += data.ROUND_BONUS
    s.log.append(f"every player takes ${data.ROUND_BONUS:,} from the bank")
    merger.begin(s)


def mergers_over(s: State) -> None:
    s.phase = SHARES
    auction.begin(s, s.first)
    s.log.append("share auction phase")
    if adv(s).chooser < 0:
        auctions_over(s)


def auctions_over(s: State) -> None:
    auction.marker_after(s)
    if s.phase == SHARES and s.ending:
        s.phase = OVER
        s.log.append(f"game over: {s.end_reason}")
        return
    if s.phase == SHARES:
        s.turn += 1
    start_round(s)
