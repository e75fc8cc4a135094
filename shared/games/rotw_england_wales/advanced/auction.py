"""Share auctions: the opening auctions (seed III.1) and the round's share auction phase
(III.3), which "runs the same way" except that the lowest bid is the current price (at
set-up the current price is the starting price, so one procedure serves both).

The chooser puts one share (from the available or the issued box) up with an opening bid
or passes, and a player who passes there may start or join no further auction this phase.
Clockwise from the auctioneer each other player raises or drops out of this auction; the
last bidder pays (to the company for an available share, to the bank for an issued one).
If the auctioneer won, the next player clockwise chooses; otherwise the auctioneer chooses
again. The phase ends when every player has passed on choosing; the first-player marker
then goes to the left of the last winner.
"""

from __future__ import annotations

from shared.engine import RuleError

from ..actions import Bid, Pass
from ..compat import AmountRange, Choice, LegalAction
from ..state import State
from . import data
from .actions import StartAuction
from .shares import adv, find, gain_share
from .state import AVAILABLE, ISSUED, ShareAuction


def _offer(s: State) -> list[tuple[int, str]]:
    out = []
    for i, c in enumerate(adv(s).companies):
        if c.available:
            out.append((i, AVAILABLE))
        if c.issued:
            out.append((i, ISSUED))
    return out


def active(s: State) -> int:
    a = adv(s)
    return a.auction.to_act if a.auction is not None else a.chooser


def legal(s: State, seat: int) -> list[LegalAction]:
    a = adv(s)
    cash = s.players[seat].cash
    step = data.BID_STEP
    if a.auction is not None:
        lo = a.auction.high_bid + step
        out = [LegalAction(Pass())]
        if cash >= lo:
            out.insert(0, LegalAction(Bid(amount=lo), range=AmountRange("amount", lo, cash - (cash - lo) % step, step)))
        return out
    tries: dict[str, list[tuple[str, AmountRange]]] = {}
    for ci, src in _offer(s):
        c = a.companies[ci]
        lo = c.price * 1000
        if cash >= lo:
            tries.setdefault(c.id, []).append((src, AmountRange("amount", lo, cash - (cash - lo) % step, step)))
    out = [LegalAction(Pass())]
    if tries:
        ids = sorted(tries)
        first_src, first_rng = tries[ids[0]][0]
        then = [Choice("source", [src for src, _ in tries[i]], then=[r for _, r in tries[i]]) for i in ids]
        out.insert(0, LegalAction(StartAuction(company=ids[0], source=first_src, amount=first_rng.min),
                                  choices=Choice("company", ids, then=then)))
    return out


def start(s: State, seat: int, act: StartAuction) -> None:
    a = adv(s)
    if a.auction is not None:
        raise RuleError("auction_running", "bid or pass in the running auction")
    ci = find(s, act.company)
    c = a.companies[ci]
    if act.source not in (AVAILABLE, ISSUED):
        raise RuleError("bad_source", "a share comes from the 'available' or the 'issued' box")
    if (c.available if act.source == AVAILABLE else c.issued) <= 0:
        raise RuleError("no_share", f"the {c.name} has no share on the {act.source} box")
    if act.amount < c.price * 1000:
        raise RuleError("bid_too_low", f"the lowest bid is the share price, ${c.price * 1000:,}")
    _check_bid(s, seat, act.amount)
    a.auction = ShareAuction(company=ci, source=act.source, auctioneer=seat, high_bid=act.amount,
                             high_bidder=seat, to_act=seat)
    s.log.append(f"{s.players[seat].name} auctions a {c.name} share ({act.source} box), "
                 f"opening at ${act.amount:,}")
    _next_bidder(s)


def _check_bid(s: State, seat: int, amount: int) -> None:
    if amount % data.BID_STEP:
        raise RuleError("bad_bid", f"bids go in steps of ${data.BID_STEP:,}")
    if amount > s.players[seat].cash:
        raise RuleError("not_enough_cash", "you cannot bid more cash than you hold")


def bid(s: State, seat: int, act: Bid) -> None:
    au = adv(s).auction
    if au is None:
        raise RuleError("no_auction", "choose a share to auction (start_auction) or pass")
    if act.amount <= au.high_bid:
        raise RuleError("bid_too_low", f"the lowest bid now is ${au.high_bid + data.BID_STEP:,}")
    _check_bid(s, seat, act.amount)
    au.high_bid, au.high_bidder = act.amount, seat
    s.log.append(f"{s.players[seat].name} bids ${act.amount:,}")
    _next_bidder(s)


def pass_(s: State, seat: int, act: Pass) -> None:
    a = adv(s)
    if a.auction is not None:
        a.auction.passed.append(seat)
        s.log.append(f"{s.players[seat].name} drops out of the auction")
        _next_bidder(s)
    else:
        a.out.append(seat)
        s.log.append(f"{s.players[seat].name} passes and takes part in no further auction this phase")
        _next_chooser(s, seat)


def _next_bidder(s: State) -> None:
    a = adv(s)
    au = a.auction
    assert au is not None
    n = len(s.players)
    p = au.to_act
    for _ in range(n):
        p = (p + 1) % n
        if p == au.high_bidder:
            _award(s)
            return
        if p not in au.passed and p not in a.out:
            au.to_act = p
            return
    _award(s)


def _award(s: State) -> None:
    a = adv(s)
    au = a.auction
    assert au is not None
    c = a.companies[au.company]
    winner = au.high_bidder
    s.players[winner].cash -= au.high_bid
    if au.source == AVAILABLE:
        c.available -= 1
        c.cash += au.high_bid
    else:
        c.issued -= 1
    s.log.append(f"{s.players[winner].name} buys a {c.name} share for ${au.high_bid:,}"
                 f" (paid to {'the company' if au.source == AVAILABLE else 'the bank'})")
    gain_share(s, au.company, winner)
    a.last_winner = winner
    a.auction = None
    if winner == au.auctioneer:
        _next_chooser(s, au.auctioneer)
    else:
        a.chooser = au.auctioneer
        if not _offer(s):
            _next_chooser(s, au.auctioneer)


def _next_chooser(s: State, after: int) -> None:
    a = adv(s)
    n = len(s.players)
    a.chooser = -1
    if not _offer(s):  # nothing left to sell: the phase is over
        return
    for i in range(1, n + 1):
        p = (after + i) % n
        if p not in a.out:
            a.chooser = p
            return


def begin(s: State, first: int) -> None:
    a = adv(s)
    a.auction = None
    a.out = []
    a.last_winner = -1
    a.chooser = first if _offer(s) else -1


def marker_after(s: State) -> None:
    """The first-player marker goes to the left of the player who last won an auction."""
    a = adv(s)
    if a.last_winner >= 0:
        s.first = (a.last_winner + 1) % len(s.players)
        s.log.append(f"{s.players[s.first].name} takes the first-player marker")
