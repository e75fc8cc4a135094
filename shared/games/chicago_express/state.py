"""The state of one game of Chicago Express, a msgspec Struct so snapshots can msgpack it.

Never mutate a state you were given: `draft` makes the working copy an action changes.
It copies the small lists every action may touch; the per-hex lists (`locos`, `houses`)
are copied only where a rule changes them (`place_locomotive`, `add_house`), which keeps
apply cheap.
Nested structs (`Company`, `Auction`, `BuildProgress`) are frozen and replaced whole.
"""

from __future__ import annotations

import msgspec

from shared.engine import RuleError

from .board import BOARD
from .events import Event

# Phases: who acts and with what.
AUCTION = "auction"  # a share is being auctioned (opening, in-game or the first Wabash share)
CHOOSE = "choose"  # the current player advances one dial
OFFER = "offer"  # chose auction: offer a share with a first bid, or forgo
BUILD = "build"  # chose build: place up to 3 locomotives of one company, or forgo
DEVELOP = "develop"  # chose develop: develop one hex, or forgo
OVER = "over"
TURN_OVER = "turn_over"  # transient inside apply: the turn's action is finished

# Auction kinds.
OPENING = "opening"  # set-up auctions; nobody bids -> the opener gets the share free
SHARE = "share"  # an auction action, opened by the offering player; nobody bids -> it stays unsold
WABASH = "wabash"  # first Wabash share after Chicago; nobody bids -> it stays unsold

N_COMPANIES = len(BOARD.companies)


class Company(msgspec.Struct, frozen=True, gc=False):
    cash: int
    income: int
    shares_left: int  # still with the company, for sale
    locos_left: int
    open: bool
    network: tuple[int, ...]  # hex indices holding this company's locomotives


class Auction(msgspec.Struct, frozen=True, gc=False):
    kind: str
    company: int
    min_bid: int
    high_bid: int  # 0 while nobody has bid
    high_bidder: int  # -1 while nobody has bid
    to_act: int
    passed: int  # bitmask of seats out of this auction
    opener: int  # first to act


class BuildProgress(msgspec.Struct, frozen=True, gc=False):
    company: int  # -1 until the first locomotive fixes it
    placed: tuple[int, ...]
    reached_chicago: bool  # a locomotive of this build stands on Chicago (resolved when it landed)


class State(msgspec.Struct, kw_only=True, gc=False):
    players: list[str]
    dial_lengths: list[int]  # auction, build, develop
    phase: str
    current: int  # whose turn; during the opening, the opener of the running auction
    round: int  # 1 + completed dividend phases
    opening: int  # index of the running opening auction; len(opening_auctions) once done
    first_player: int  # winner of the opening PRR share, who starts the game
    bank: int  # ledger account: always minus the money held by players and companies
    cash: list[int]  # per seat
    shares: list[int]  # flat: shares[seat * N_COMPANIES + company]
    companies: list[Company]
    locos: list[int]  # per hex: bitmask of companies with a locomotive there
    houses: list[bool]  # per hex
    houses_supply: int
    industry: list[int]  # position on each industrial track
    dials: list[int]  # auction, build, develop: times chosen this round
    auction: Auction | None = None
    build: BuildProgress | None = None
    end_reasons: list[str] = []
    log: list[Event] = []


def draft(state: State) -> State:
    """A copy an action may change freely without touching `state`."""
    return msgspec.structs.replace(
        state,
        cash=list(state.cash),
        shares=list(state.shares),
        companies=list(state.companies),
        dials=list(state.dials),
        industry=list(state.industry),
        log=list(state.log),
    )


def place_locomotive(s: State, company: int, hex_: int) -> None:
    locos = list(s.locos)
    locos[hex_] |= 1 << company
    s.locos = locos
    co = s.companies[company]
    set_company(s, company, locos_left=co.locos_left - 1, network=co.network + (hex_,))


def add_house(s: State, hex_: int) -> None:
    houses = list(s.houses)
    houses[hex_] = True
    s.houses = houses
    s.houses_supply -= 1


def companies_at(s: State, hex_: int) -> list[int]:
    mask = s.locos[hex_]
    return [c for c in range(N_COMPANIES) if mask >> c & 1]


def holding(s: State, seat: int, company: int) -> int:
    return s.shares[seat * N_COMPANIES + company]


def shares_out(s: State, company: int) -> int:
    return BOARD.companies[company].shares - s.companies[company].shares_left


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def min_bid(s: State, company: int) -> int:
    """Income divided by the shares out including the one on offer, rounded up."""
    return ceil_div(s.companies[company].income, shares_out(s, company) + 1)


def next_seat(s: State, seat: int) -> int:
    return (seat + 1) % len(s.players)


def red_dials(s: State) -> int:
    return sum(1 for pos, length in zip(s.dials, s.dial_lengths) if pos >= length)


def resume_turn(s: State) -> None:
    """After an interruption (a Chicago phase, the first Wabash auction) the turn goes on
    where it stopped: a build that has locomotives left to place, else the end of the turn."""
    s.phase = BUILD if s.build is not None else TURN_OVER


def set_company(s: State, company: int, **changes: object) -> None:
    s.companies[company] = msgspec.structs.replace(s.companies[company], **changes)


def company_of(value: object) -> int:
    """Company index of a wire id, or RuleError."""
    index = BOARD.company_index.get(value) if isinstance(value, str) else None
    if index is None:
        known = ", ".join(BOARD.company_index)
        raise RuleError("unknown_company", f"unknown company {value!r}; companies are {known}")
    return index


def hex_of(value: object) -> int:
    """Hex index of a wire id such as "R3", or RuleError."""
    index = BOARD.hex_index.get(value) if isinstance(value, str) else None
    if index is None:
        raise RuleError("unknown_hex", f"there is no hex {value!r} on the board")
    return index


def amount_of(value: object) -> int:
    if type(value) is not int:
        raise RuleError("bad_action", f"amount must be a whole number of dollars, not {value!r}")
    return value
