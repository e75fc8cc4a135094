"""Shares, control, company money, bonds and the share price (seed III.1).

Money is in dollars, share prices in thousands (the seed: the VP number of a share marker is
its price in thousands). A company raises money only when a payment needs it and only as
much as it needs: first by issuing shares from its card at the current price, then - once
every share is issued - by bonds, at most one per completed link it owns.
"""

from __future__ import annotations

from shared.engine import RuleError

from ..state import State
from . import data
from .state import Adv, Company


def adv(s: State) -> Adv:
    assert s.adv is not None
    return s.adv


def outstanding(c: Company) -> int:
    """Shares in players' hands or on the issued box: they take dividends and are bought in a merger."""
    return sum(c.held) + c.issued


def complete_links(s: State, ci: int) -> int:
    return sum(1 for link in s.links if link.complete and link.owner == ci)


def bond_room(s: State, ci: int) -> int:
    return max(0, complete_links(s, ci) - adv(s).companies[ci].bonds)


def funds(s: State, ci: int) -> int:
    """Everything the company could pay now: cash, shares it may still issue, bonds it may take."""
    c = adv(s).companies[ci]
    return c.cash + c.card * c.price * 1000 + bond_room(s, ci) * data.BOND_CASH


def raise_for(s: State, ci: int, amount: int) -> tuple[int, int]:
    """The shares, then bonds, the company must issue to pay `amount` from its cash now."""
    c = adv(s).companies[ci]
    short = max(0, amount - c.cash)
    issued = min(c.card, -(-short // (c.price * 1000)))
    short = max(0, short - issued * c.price * 1000)
    return issued, -(-short // data.BOND_CASH)


def pay(s: State, ci: int, amount: int, what: str) -> tuple[int, int]:
    """The company pays `amount`, issuing shares and then bonds for the shortfall only;
    returns (shares issued, bonds taken)."""
    c = adv(s).companies[ci]
    if funds(s, ci) < amount:
        raise RuleError("not_enough_money", f"the {c.name} cannot raise ${amount:,} for {what}")
    issued, bonds = raise_for(s, ci, amount)
    c.card -= issued
    c.issued += issued
    c.bonds += bonds
    c.cash += issued * c.price * 1000 + bonds * data.BOND_CASH - amount
    if issued:
        s.log.append(f"the {c.name} issues {issued} share(s) at ${c.price:,}k for {what}")
    if bonds:
        s.log.append(f"the {c.name} takes {bonds} bond(s) for {what}")
    return issued, bonds


def set_price(s: State, ci: int, price: int) -> None:
    a = adv(s)
    c = a.companies[ci]
    price = max(1, price)
    if price != c.price:
        c.price = price
        a.tick += 1
        c.stamp = a.tick  # it arrives on top of the companies already on that space


def price_order(s: State, companies: list[int] | None = None) -> list[int]:
    """Highest share price first; on a tie the last to arrive on the space (top of the stack)."""
    a = adv(s)
    ids = range(len(a.companies)) if companies is None else companies
    return sorted(ids, key=lambda i: (-a.companies[i].price, -a.companies[i].stamp, i))


def controlled(s: State) -> list[int]:
    return [i for i, c in enumerate(adv(s).companies) if c.controller >= 0]


def gain_share(s: State, ci: int, seat: int) -> None:
    """`seat` takes one share; control passes only to a player holding MORE than the controller."""
    c = adv(s).companies[ci]
    c.held[seat] += 1
    if c.controller < 0:
        c.controller = seat
        s.log.append(f"{s.players[seat].name} takes control of the {c.name}")
    elif c.controller != seat and c.held[seat] > c.held[c.controller]:
        c.controller = seat
        s.log.append(f"{s.players[seat].name} takes control of the {c.name}")


def reset_company(s: State, ci: int) -> None:
    """A merged-away company returns to the box as at set-up (seed III.3)."""
    a = adv(s)
    c = a.companies[ci]
    fresh = Company(id=c.id, name=c.name, start_price=c.start_price, price=c.start_price,
                    held=[0] * len(s.players))
    a.tick += 1
    fresh.stamp = a.tick
    a.companies[ci] = fresh


def find(s: State, company_id: str) -> int:
    for i, c in enumerate(adv(s).companies):
        if c.id == company_id:
            return i
    raise RuleError("no_company", f"there is no company {company_id!r}")


def move_for_dividend(price: int, paid: int) -> int:
    """Seed 'Výplaty dividend': the share price change for a dividend of `paid` dollars."""
    if paid <= 0:
        return -2
    k = paid / 1000
    if k * 2 <= price:
        return -1
    if k < price:
        return 0
    return int(k // price)
