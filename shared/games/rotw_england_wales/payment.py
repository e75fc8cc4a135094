"""Paying for something: the shares a payment needs are issued then, and only then.

Seed, "Vydávání akcií": a player may issue shares only when they need cash for a purchase or
to pay what they owe, and only as many as that payment needs ("if a player has $0 and needs
$16,000 to build track, they may issue 4 shares, and no more for that purchase"). So no
seat ever chooses to issue a share in the standard game: every payment (a track tile,
urbanizing, an engine, a won bid, share interest) issues the shortfall's shares itself.
"""

from __future__ import annotations

from . import rules
from .state import State


def shares_needed(cash: int, cost: int) -> int:
    """Shares a player holding `cash` issues to pay `cost`."""
    return max(0, -(-(cost - cash) // rules.SHARE_CASH))


def pay(s: State, seat: int, cost: int, what: str) -> int:
    """`seat` pays `cost` for `what`, issuing the shares it lacks; returns the shares issued."""
    p = s.players[seat]
    k = shares_needed(p.cash, cost)
    if k:
        p.shares += k
        p.cash += k * rules.SHARE_CASH
        s.log.append(f"{p.name} issues {k} share{'s' if k > 1 else ''} (${k * rules.SHARE_CASH:,}) to pay "
                     f"${cost:,} for {what}; {p.shares} issued")
    p.cash -= cost
    return k
