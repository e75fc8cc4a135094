"""Double-entry money: every dollar moves from one account to another, nothing else changes cash.

Accounts are the bank, each player and each company. The bank issues money as needed (the
rule book never runs it dry), so its balance is the negative of all money in play: the sum
of every account is zero after every action, which the property tests check.
"""

from __future__ import annotations

from typing import Literal

from shared.engine import RuleError

from .state import State, set_company

Kind = Literal["bank", "player", "company"]
Account = tuple[Kind, int]

BANK: Account = ("bank", 0)


def player(seat: int) -> Account:
    return ("player", seat)


def company(index: int) -> Account:
    return ("company", index)


def transfer(s: State, source: Account, target: Account, amount: int) -> None:
    """Move `amount` from `source` to `target` on the draft `s`.

    Players and companies can never go below zero: the rules check affordability before
    calling this, so the RuleError here is a last line of defence, not a rule.
    """
    if amount < 0:
        raise RuleError("bad_amount", f"cannot transfer a negative amount ({amount})")
    if amount == 0:
        return
    _change(s, source, -amount)
    _change(s, target, amount)


def _change(s: State, account: Account, delta: int) -> None:
    kind, index = account
    if kind == "bank":
        s.bank += delta
        return
    if kind == "player":
        balance = s.cash[index] + delta
        if balance < 0:
            raise RuleError("insufficient_cash", f"seat {index} has only ${s.cash[index]}")
        s.cash[index] = balance
        return
    balance = s.companies[index].cash + delta
    if balance < 0:
        raise RuleError("insufficient_company_cash", f"company has only ${s.companies[index].cash}")
    set_company(s, index, cash=balance)


def total_money(s: State) -> int:
    """Sum of every account; zero in every reachable state."""
    return s.bank + sum(s.cash) + sum(c.cash for c in s.companies)
