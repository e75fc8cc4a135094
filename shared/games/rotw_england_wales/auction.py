"""The first-player auction (base rules; README 'Auction')."""

from __future__ import annotations

from shared.engine import RuleError

from . import rules, turn
from .actions import Bid, Pass
from .compat import AmountRange, LegalAction
from .state import State


def min_bid(s: State) -> int:
    a = s.auction
    assert a is not None
    return max(rules.BID_STEP, a.high_bid + rules.BID_STEP)


def legal(s: State, seat: int) -> list[LegalAction]:
    out = [LegalAction(Pass())]
    lo, hi = min_bid(s), s.players[seat].cash
    if hi >= lo:
        out.insert(0, LegalAction(Bid(amount=lo), range=AmountRange("amount", lo, hi - (hi - lo) % rules.BID_STEP,
                                                                      rules.BID_STEP)))
    return out


def bid(s: State, seat: int, action: Bid) -> None:
    lo = min_bid(s)
    if action.amount < lo:
        raise RuleError("bid_too_low", f"the lowest bid now is ${lo:,}")
    if action.amount % rules.BID_STEP:
        raise RuleError("bad_bid", f"bids go in steps of ${rules.BID_STEP:,}")
    if action.amount > s.players[seat].cash:
        raise RuleError("not_enough_cash", "you cannot bid more cash than you hold (issue a share first)")
    a = s.auction
    assert a is not None
    a.high_bid, a.high_bidder = action.amount, seat
    s.log.append(f"{s.players[seat].name} bids ${action.amount:,}")
    _next(s)


def pass_(s: State, seat: int, action: Pass) -> None:
    a = s.auction
    assert a is not None
    a.passed.append(seat)
    s.log.append(f"{s.players[seat].name} passes")
    _next(s)


def _next(s: State) -> None:
    a = s.auction
    assert a is not None
    n = len(s.players)
    left = [p for p in range(n) if p not in a.passed]
    if a.high_bidder >= 0 and left == [a.high_bidder]:
        winner = a.high_bidder
        s.players[winner].cash -= a.high_bid
        s.first = winner
        s.log.append(f"{s.players[winner].name} wins the auction for ${a.high_bid:,} and plays first")
        turn.start_actions(s)
        return
    if not left:
        # Nobody bid: the marker passes to the left of the previous first player (BGA help).
        s.first = (s.first + 1) % n
        s.log.append(f"all pass: {s.players[s.first].name} plays first")
        turn.start_actions(s)
        return
    p = a.to_act
    for _ in range(n):
        p = (p + 1) % n
        if p not in a.passed:
            break
    a.to_act = p
