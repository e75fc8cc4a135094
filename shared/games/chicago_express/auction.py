"""Share auctions: the four opening auctions, the auction action and the first Wabash share.

All three run the same way: clockwise from the opener, each player bids above the high
bid (the first bid at least the minimum, never more than the bidder's cash) or passes
for good, until one bidder is left. The winner pays the company. They differ only when
nobody bids: an opening share goes free to the opener (the first to pass), a share of
the auction action or the first Wabash share stays with the company. In the auction
action the opener is the offering player, whose `offer` carries the first bid or, without
an amount, a pass: "Hráč nabídne alespoň minimální vyvolávací cenu nebo pasuje" and
"Pokud by všichni hráči pasovali, zůstane akcie ležet na tabulce" (if every player
passes, the share stays on the company's charter).

Readings of the rule book: the first bid of an opening auction may be above the minimum
("must offer the minimum price or pass" is read as "at least", as the auction action
says it); in the first Wabash auction the arriving player bids first or passes, and the
others may still bid after a pass (the share returns only "if no player bids anything
for it").
"""

from __future__ import annotations

import msgspec

from shared.engine import AmountRange, LegalAction, RuleError

from . import events as ev
from .actions import FORGO, PASS, Bid, Offer, Pass
from .board import BOARD
from .money import company, player, transfer
from .state import (
    AUCTION,
    CHOOSE,
    N_COMPANIES,
    OPENING,
    SHARE,
    Auction,
    State,
    amount_of,
    company_of,
    min_bid,
    resume_turn,
    set_company,
)


def start_auction(s: State, kind: str, company_: int, opener: int, minimum: int) -> None:
    s.phase = AUCTION
    s.auction = Auction(
        kind=kind,
        company=company_,
        min_bid=minimum,
        high_bid=0,
        high_bidder=-1,
        to_act=opener,
        passed=0,
        opener=opener,
    )
    s.log.append(ev.AuctionStarted(kind=kind, company=BOARD.companies[company_].id, opener=opener, min_bid=minimum))


def start_opening_auction(s: State, opener: int) -> None:
    company_ = BOARD.opening_auctions[s.opening]
    s.current = opener
    start_auction(s, OPENING, company_, opener, BOARD.companies[company_].opening_price)


def lowest_bid(a: Auction) -> int:
    return a.min_bid if a.high_bidder < 0 else a.high_bid + 1


def bid(s: State, seat: int, action: Bid) -> None:
    a = s.auction
    assert a is not None
    amount = amount_of(action.amount)
    lowest = lowest_bid(a)
    if amount < lowest:
        what = "the minimum bid" if a.high_bidder < 0 else "above the high bid"
        raise RuleError("bid_too_low", f"a bid must be at least ${lowest} ({what})")
    if amount > s.cash[seat]:
        raise RuleError("insufficient_cash", f"you have only ${s.cash[seat]}; you cannot bid ${amount}")
    s.log.append(ev.BidPlaced(seat=seat, company=BOARD.companies[a.company].id, amount=amount))
    _next_bidder(s, msgspec.structs.replace(a, high_bid=amount, high_bidder=seat))


def pass_(s: State, seat: int, action: Pass) -> None:
    a = s.auction
    assert a is not None
    s.log.append(ev.Passed(seat=seat, company=BOARD.companies[a.company].id))
    _next_bidder(s, msgspec.structs.replace(a, passed=a.passed | 1 << seat))


def offer(s: State, seat: int, action: Offer) -> None:
    """The auction action: put one share up, then bid (with `amount`) or pass as its opener."""
    c = company_of(action.company)
    co = s.companies[c]
    short = BOARD.companies[c].short
    if not co.open:
        raise RuleError("company_not_open", f"{short} shares are for sale only once a company reaches Chicago")
    if co.shares_left == 0:
        raise RuleError("no_shares_left", f"{short} has no shares left to sell")
    minimum = min_bid(s, c)
    if action.amount is None:
        start_auction(s, SHARE, c, seat, minimum)
        pass_(s, seat, PASS.action)
        return
    amount = amount_of(action.amount)
    if amount < minimum:
        raise RuleError(
            "bid_too_low",
            f"the minimum bid for {short} is ${minimum}; offer it without an amount to pass instead",
        )
    if amount > s.cash[seat]:
        raise RuleError(
            "insufficient_cash",
            f"you have only ${s.cash[seat]}; you cannot bid ${amount} (offer it without an amount to pass)",
        )
    start_auction(s, SHARE, c, seat, minimum)
    bid(s, seat, Bid(amount))


def _next_bidder(s: State, a: Auction) -> None:
    n = len(s.players)
    still_in = ((1 << n) - 1) & ~a.passed
    if still_in == 0:
        _close(s, a, -1)
        return
    if a.high_bidder >= 0 and still_in == 1 << a.high_bidder:
        _close(s, a, a.high_bidder)
        return
    seat = a.to_act
    while True:
        seat = (seat + 1) % n
        if not a.passed >> seat & 1 and seat != a.high_bidder:
            break
    s.auction = msgspec.structs.replace(a, to_act=seat)


def _close(s: State, a: Auction, winner: int) -> None:
    s.auction = None
    cid = BOARD.companies[a.company].id
    if winner >= 0:
        transfer(s, player(winner), company(a.company), a.high_bid)
        _give_share(s, winner, a.company)
        s.log.append(ev.ShareSold(seat=winner, company=cid, price=a.high_bid))
    elif a.kind == OPENING:
        winner = a.opener
        _give_share(s, winner, a.company)
        s.log.append(ev.ShareSold(seat=winner, company=cid, price=0))
    else:
        s.log.append(ev.ShareUnsold(company=cid))
    if a.kind != OPENING:
        resume_turn(s)
        return
    if s.opening == 0:
        s.first_player = winner
    s.opening += 1
    if s.opening < len(BOARD.opening_auctions):
        start_opening_auction(s, winner)
    else:
        s.phase = CHOOSE
        s.current = s.first_player


def _give_share(s: State, seat: int, company_: int) -> None:
    set_company(s, company_, shares_left=s.companies[company_].shares_left - 1)
    s.shares[seat * N_COMPANIES + company_] += 1


def legal_bids(s: State, seat: int) -> list[LegalAction]:
    a = s.auction
    assert a is not None
    lowest = lowest_bid(a)
    cash = s.cash[seat]
    if cash < lowest:
        return [PASS]
    return [LegalAction(Bid(lowest), AmountRange("amount", lowest, cash)), PASS]


def legal_offers(s: State, seat: int) -> list[LegalAction]:
    """Per company for sale: offer with a bid (minimum .. cash, when affordable) and offer
    with a pass; then forgo."""
    cash = s.cash[seat]
    out: list[LegalAction] = []
    for c, co in enumerate(s.companies):
        if co.open and co.shares_left:
            cid = BOARD.companies[c].id
            minimum = min_bid(s, c)
            if minimum <= cash:
                out.append(LegalAction(Offer(cid, minimum), AmountRange("amount", minimum, cash)))
            out.append(LegalAction(Offer(cid)))
    out.append(FORGO)
    return out
