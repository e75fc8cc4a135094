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
        raise RuleError("not_enough_cash", "you cannot bid more cash than you hold (shares are issued only to pay for something)")
    a = s.auction
    assert a is not None
    a.high_bid, a.high_bidder = action.amount, seat
    a.bids[seat] = action.amount
    s.log.append(f"{s.players[seat].name} bids ${action.amount:,}")
    _next(s)


def pass_(s: State, seat: int, action: Pass) -> None:
    a = s.auction
    assert a is not None
    a.passed.append(seat)
    s.log.append(f"{s.players[seat].name} passes")
    _next(s)


def _charge_passers(s: State) -> None:
    """BGA "First to pass": each player who passed pays half their last bid, rounded up."""
    a = s.auction
    assert a is not None
    for seat in a.passed:
        bid = a.bids[seat]
        if bid:
            pay = -(-bid // (2 * rules.BID_STEP)) * rules.BID_STEP
            s.players[seat].cash -= pay  # never more than their bid, which was at most their cash
            s.log.append(f"{s.players[seat].name} pays ${pay:,} (half their bid)")


def _next(s: State) -> None:
    a = s.auction
    assert a is not None
    n = len(s.players)
    left = [p for p in range(n) if p not in a.passed]
    first_to_pass = s.bidding == "first_to_pass"
    if a.high_bidder >= 0 and left == [a.high_bidder]:
        winner = a.high_bidder
        s.players[winner].cash -= a.high_bid
        s.first = winner
        s.log.append(f"{s.players[winner].name} wins the auction for ${a.high_bid:,} and plays first")
        if first_to_pass:
            _charge_passers(s)
            # BGA "First to pass": the first to pass plays last, the second second-to-last...
            turn.start_actions(s, [winner, *reversed(a.passed)])
        else:
            turn.start_actions(s)
        return
    if not left:
        if first_to_pass:
            # BGA "First to pass": nobody bid - the last to pass becomes first player.
            _charge_passers(s)
            s.first = a.passed[-1]
            s.log.append(f"all pass: {s.players[s.first].name} plays first")
            turn.start_actions(s, list(reversed(a.passed)))
            return
        # Traditional: nobody bid - the marker moves one seat clockwise (BGA help).
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
