"""Income is in; each company in share-price order pays $1,000 per bond, may repay bonds,
and its controller sets the dividend (seed III.1 'Výplaty dividend').

Price moves: nothing paid -2; up to half the price -1; above half but below the price 0;
the price or more + (dividend // price); never more than 3x the price; never below 1.
The dividend is split over the outstanding shares (players' and the issued box's), rounded
down to $1,000 (**reading**: the game's money is in thousands); the bank takes the issued box's part and the remainder. A company nobody holds pays
nothing and its price stays.
"""

from __future__ import annotations

from shared.engine import RuleError

from ..compat import AmountRange, LegalAction
from ..state import State
from . import data, flow
from .actions import PayDividend, RepayBonds
from .shares import adv, bond_room, controlled, move_for_dividend, outstanding, price_order, set_price
from .state import DIVIDEND


def begin(s: State) -> None:
    a = adv(s)
    a.order = price_order(s, controlled(s))
    a.pos = 0
    a.div_stage = ""
    s.phase = DIVIDEND
    _step(s)


def current(s: State) -> int:
    a = adv(s)
    return a.order[a.pos]


def max_dividend(s: State, ci: int) -> int:
    c = adv(s).companies[ci]
    cap = data.DIVIDEND_CAP * c.price * 1000
    return min(cap, c.cash - c.cash % 1000)


def _step(s: State) -> None:
    """Run automatic steps until a controller has a decision (or the phase is over)."""
    a = adv(s)
    while a.pos < len(a.order):
        ci = a.order[a.pos]
        c = a.companies[ci]
        if a.div_stage == "":
            if not _interest(s, ci):
                a.pos += 1
                continue
            a.div_stage = "repay"
        if a.div_stage == "repay":
            if c.bonds and c.cash >= data.BOND_REPAY:
                return
            a.div_stage = "dividend"
        if max_dividend(s, ci) > 0:
            return
        _pay(s, ci, 0)
    a.div_stage = ""
    flow.dividends_over(s)


def _interest(s: State, ci: int) -> bool:
    """Pay the bonds' interest; False when the company cannot (it then pays no dividend)."""
    c = adv(s).companies[ci]
    due = c.bonds * data.BOND_INTEREST
    if not due:
        return True
    if c.cash >= due:
        c.cash -= due
        s.log.append(f"the {c.name} pays ${due:,} bond interest")
        return True
    need = -(-(due - c.cash) // data.BOND_CASH)
    if need <= bond_room(s, ci):  # new bonds pay interest from the next round on
        c.bonds += need
        c.cash += need * data.BOND_CASH - due
        s.log.append(f"the {c.name} takes {need} bond(s) to pay ${due:,} bond interest")
        return True
    s.log.append(f"the {c.name} cannot pay its bond interest: its ${c.cash:,} goes to the bank")
    c.cash = 0
    _move(s, ci, -2)
    return False


def _move(s: State, ci: int, delta: int) -> None:
    c = adv(s).companies[ci]
    old = c.price
    set_price(s, ci, old + delta)
    if c.price != old:
        s.log.append(f"the {c.name} share price moves from {old} to {c.price}")


def legal(s: State, seat: int) -> list[LegalAction]:
    a = adv(s)
    ci = current(s)
    c = a.companies[ci]
    if a.div_stage == "repay":
        k = min(c.bonds, c.cash // data.BOND_REPAY)
        return [LegalAction(RepayBonds(count=0), range=AmountRange("count", 0, k, 1))]
    return [LegalAction(PayDividend(amount=0), range=AmountRange("amount", 0, max_dividend(s, ci), 1000))]


def repay(s: State, seat: int, act: RepayBonds) -> None:
    a = adv(s)
    if a.div_stage != "repay":
        raise RuleError("wrong_step", "set the dividend (pay_dividend)")
    ci = current(s)
    c = a.companies[ci]
    if not 0 <= act.count <= c.bonds:
        raise RuleError("bad_count", f"the {c.name} has {c.bonds} bond(s)")
    if act.count * data.BOND_REPAY > c.cash:
        raise RuleError("not_enough_money", f"repaying {act.count} bond(s) costs ${act.count * data.BOND_REPAY:,}")
    if act.count:
        c.bonds -= act.count
        c.cash -= act.count * data.BOND_REPAY
        s.log.append(f"the {c.name} repays {act.count} bond(s)")
    a.div_stage = "dividend"
    _step(s)


def pay_dividend(s: State, seat: int, act: PayDividend) -> None:
    a = adv(s)
    if a.div_stage != "dividend":
        raise RuleError("wrong_step", "first decide how many bonds to repay (repay_bonds)")
    ci = current(s)
    top = max_dividend(s, ci)
    if not 0 <= act.amount <= top or act.amount % 1000:
        raise RuleError("bad_dividend", f"the dividend is $0 to ${top:,} in steps of $1,000 "
                        "(at most the company's cash and 3x its share price)")
    _pay(s, ci, act.amount)
    _step(s)


def _pay(s: State, ci: int, amount: int) -> None:
    a = adv(s)
    c = a.companies[ci]
    per = amount // outstanding(c) // 1000 * 1000  # money is in $1,000s: the bank keeps the rest
    c.cash -= amount
    for seat, k in enumerate(c.held):
        s.players[seat].cash += per * k
    s.log.append(f"the {c.name} pays ${amount:,} in dividends (${per:,} per share)")
    _move(s, ci, move_for_dividend(c.price, amount))
    a.pos += 1
    a.div_stage = ""
