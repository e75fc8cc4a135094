"""The advanced share game's part of the state (seed part III): companies, the share boxes,
the phase machinery of a round. Held in `State.adv`; None in the standard game."""

from __future__ import annotations

import msgspec

# Phases (State.phase) of the advanced game
OPENING = "opening_auction"  # set-up share auctions (seed III.1)
COMPANY = "company_turn"  # a company chooses: build, deliver or pass
BUILDING = "company_build"  # a company's build action is under way
DIVIDEND = "dividend"  # a controller repays bonds / sets the dividend
MERGER = "merger"  # a controller may propose one merger
VOTE = "merger_vote"  # simultaneous secret votes on a proposed merger
SHARES = "share_auction"  # the round's share auction phase (seed III.3)

AVAILABLE = "available"  # the available-shares box (money goes to the company)
ISSUED = "issued"  # the issued-shares box (money goes to the bank)


class Company(msgspec.Struct, kw_only=True):
    id: str  # its colour
    name: str
    start_price: int  # in thousands (printed on the available-shares box)
    price: int  # current share price in thousands
    stamp: int = 0  # when it last arrived on its price space (ties: last to arrive is on top)
    cash: int = 0
    card: int = 5  # unissued shares on the company card
    available: int = 5  # shares on the available-shares box
    issued: int = 0  # shares on the issued-shares box (held by the bank)
    held: list[int] = []  # shares held per seat
    controller: int = -1  # seat holding the company card, -1 = nobody
    bonds: int = 0
    income: int = 0  # income marker (spaces this round)


class ShareAuction(msgspec.Struct, kw_only=True):
    company: int
    source: str  # AVAILABLE | ISSUED
    auctioneer: int
    high_bid: int
    high_bidder: int
    to_act: int
    passed: list[int] = []  # out of this auction


class CompanyBuild(msgspec.Struct, kw_only=True):
    links: int = 0  # links completed in this action
    spent: int = 0
    tiles: int = 0
    open_link: int = -1  # id of the link being laid, -1 = none
    # What the link being laid has cost so far, and the shares and bonds its tiles raised:
    # taking it back (end_build) returns exactly these.
    open_spent: int = 0
    open_shares: int = 0
    open_bonds: int = 0


class Merger(msgspec.Struct, kw_only=True):
    acquirer: int
    target: int
    stage: str = "acquirer"  # whose shareholders vote: "acquirer" | "target"
    votes: list[int] = []  # per seat: -1 not asked / not yet, 0 no, 1 yes (secret until all voted)
    voters: list[int] = []


class Adv(msgspec.Struct, kw_only=True):
    companies: list[Company]
    end_empty: int  # empty cities that end the game (at the end of that round)
    order: list[int] = []  # companies in this phase's order
    pos: int = 0
    turn: int = 1  # company turn 1..3 within the round
    chooser: int = -1  # seat to choose a share to auction (no auction running)
    out: list[int] = []  # seats that passed on choosing: out of this auction phase
    auction: ShareAuction | None = None
    last_winner: int = -1
    build: CompanyBuild | None = None
    div_stage: str = ""  # "repay" | "dividend" for order[pos]
    merger: Merger | None = None
    tick: int = 0  # arrival counter for price ties
    acted: bool = False  # a company built or delivered this round
    idle: int = 0  # rounds in a row in which no company built or delivered
    reveal_seq: int = 0  # votes revealed so far (undo never crosses a reveal)
