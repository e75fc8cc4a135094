"""The develop action, and the industrial track steps it shares with Detroit.

A city, mountain or forest with at least one locomotive takes one house from the supply,
once. Every company present gains the house value in income (city, mountain) or the
forest bonus in cash from the bank (forest). An industrial city moves one step along its
track instead, and every company present gains the difference; Detroit does that by
itself at the end of each dividend phase and is never developed by players. Plains,
the four east-coast start hexes and Chicago are never developed; Fort Wayne is a city.
"""

from __future__ import annotations

from shared.engine import LegalAction, RuleError

from . import events as ev
from .actions import Develop
from .board import BOARD
from .money import BANK, company, transfer
from .state import TURN_OVER, State, add_house, companies_at, hex_of, set_company

DEVELOP_ACTIONS = {h: LegalAction(Develop(BOARD.hex_ids[h])) for h in BOARD.developable}
_DEVELOPABLE = frozenset(BOARD.developable)


def _check(s: State, h: int) -> None:
    name = BOARD.names[h] or BOARD.hex_ids[h]
    if h not in _DEVELOPABLE:
        ind = BOARD.industry_of[h]
        if ind >= 0 and BOARD.industries[ind].self_developing:
            raise RuleError("not_developable", f"{name} develops by itself at the end of each dividend phase")
        raise RuleError("not_developable", f"{name} can never be developed (plains, east-coast start hexes and Chicago)")
    if not s.locos[h]:
        raise RuleError("no_locomotive", f"{name} has no locomotive; only hexes on a network can be developed")
    ind = BOARD.industry_of[h]
    if ind >= 0:
        if s.industry[ind] == len(BOARD.industries[ind].track) - 1:
            raise RuleError("industry_at_maximum", f"{name} is at the last space of its industrial track")
        return
    if s.houses[h]:
        raise RuleError("already_developed", f"{name} already has a house")
    if s.houses_supply == 0:
        raise RuleError("no_houses", "there are no houses left in the supply")


def develop(s: State, seat: int, action: Develop) -> None:
    h = hex_of(action.hex)
    _check(s, h)
    ind = BOARD.industry_of[h]
    if ind >= 0:
        advance_industry(s, ind, seat)
    else:
        present = companies_at(s, h)
        add_house(s, h)
        gain = bonus = 0
        if BOARD.terrain[h] == "forest":
            bonus = BOARD.forest_bonus
            for c in present:
                transfer(s, BANK, company(c), bonus)
        else:
            gain = BOARD.house[h]
            for c in present:
                set_company(s, c, income=s.companies[c].income + gain)
        _log(s, seat, h, present, gain, bonus, 0)
    s.phase = TURN_OVER


def advance_industry(s: State, ind: int, seat: int) -> None:
    """One step along an industrial track, if not at its end; seat -1 for Detroit's own step."""
    track = BOARD.industries[ind].track
    pos = s.industry[ind]
    if pos == len(track) - 1:
        return
    s.industry[ind] = pos + 1
    gain = track[pos + 1] - track[pos]
    h = BOARD.industries[ind].hex
    present = companies_at(s, h)
    for c in present:
        set_company(s, c, income=s.companies[c].income + gain)
    _log(s, seat, h, present, gain, 0, track[pos + 1])


def _log(s: State, seat: int, h: int, present: list[int], gain: int, bonus: int, industry_value: int) -> None:
    s.log.append(
        ev.Developed(
            seat=seat,
            hex=BOARD.hex_ids[h],
            companies=[BOARD.companies[c].id for c in present],
            income_gain=gain,
            cash_bonus=bonus,
            industry_value=industry_value,
        )
    )


def legal_develops(s: State) -> list[LegalAction]:
    out: list[LegalAction] = []
    locos, houses, supply = s.locos, s.houses, s.houses_supply
    for h, action in DEVELOP_ACTIONS.items():
        if not locos[h]:
            continue
        ind = BOARD.industry_of[h]
        if ind >= 0:
            if s.industry[ind] < len(BOARD.industries[ind].track) - 1:
                out.append(action)
        elif supply and not houses[h]:
            out.append(action)
    return out
