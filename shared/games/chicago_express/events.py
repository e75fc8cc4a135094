"""The game log: short structured entries, JSON `{"event": ..., ...}` in views.

Company and hex fields hold wire ids ("NYC", "R3") so a UI can show them as they are.
"""

from __future__ import annotations

import msgspec


class _Event(msgspec.Struct, frozen=True, tag_field="event", gc=False):
    pass


class Chose(_Event, frozen=True, tag="chose"):
    seat: int
    action: str  # auction | build | develop


class Forgone(_Event, frozen=True, tag="forgone"):
    seat: int
    action: str


class AuctionStarted(_Event, frozen=True, tag="auction_started"):
    kind: str  # opening | share | wabash
    company: str
    opener: int
    min_bid: int


class BidPlaced(_Event, frozen=True, tag="bid"):
    seat: int
    company: str
    amount: int


class Passed(_Event, frozen=True, tag="pass"):
    seat: int
    company: str


class ShareSold(_Event, frozen=True, tag="share_sold"):
    seat: int
    company: str
    price: int  # 0 when the opening share nobody wanted went to the first player free


class ShareUnsold(_Event, frozen=True, tag="share_unsold"):
    company: str


class Built(_Event, frozen=True, tag="built"):
    seat: int
    company: str
    hex: str
    cost: int
    income_gain: int


class Developed(_Event, frozen=True, tag="developed"):
    seat: int  # -1: Detroit developing itself in the dividend phase
    hex: str
    companies: list[str]  # every company present, each gaining the same
    income_gain: int
    cash_bonus: int  # forest: paid by the bank to each company present
    industry_value: int  # new track value for an industrial city, else 0


class DividendPaid(_Event, frozen=True, tag="dividend"):
    kind: str  # regular | chicago
    company: str
    income: int
    shares_out: int
    per_share: int
    payouts: list[int]  # per seat


class ChicagoReached(_Event, frozen=True, tag="chicago_reached"):
    seat: int
    company: str
    first: bool


class WabashOpened(_Event, frozen=True, tag="wabash_opened"):
    hex: str
    income: int


class DividendPhase(_Event, frozen=True, tag="dividend_phase"):
    round: int


class DialsReset(_Event, frozen=True, tag="dials_reset"):
    pass


class GameEnded(_Event, frozen=True, tag="game_ended"):
    reasons: list[str]


Event = (
    Chose
    | Forgone
    | AuctionStarted
    | BidPlaced
    | Passed
    | ShareSold
    | ShareUnsold
    | Built
    | Developed
    | DividendPaid
    | ChicagoReached
    | WabashOpened
    | DividendPhase
    | DialsReset
    | GameEnded
)
