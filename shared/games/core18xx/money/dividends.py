"""Paying out or withholding a run, and the share-price move that follows.

Facts (18xx.games `step/dividend.rb`, `share_holder.rb`):
- Payout: per share = revenue / number of shares (10 for a major, 5 for a minor), as a float;
  each holder gets ceil(shares held x per share), also as floats - the same IEEE doubles Ruby uses,
  so rounding quirks (42/5*3 = 25.200000000000003 -> 26) match 18xx.games exactly.
- With incremental capitalization the company itself collects on its treasury shares; shares in
  the pool pay nobody. Holders in `bankrupt` (a title's choice) receive nothing.
- Withhold: the whole revenue goes to the company.
- The price move is the title's `rules.PriceMoves` (base game: nothing paid -> left 1, paid at
  least the share price -> right 1).
"""

from __future__ import annotations

import math
from typing import Literal

import msgspec

from shared.games.core18xx.money.market import Direction
from shared.games.core18xx.money.rules import PriceMoves

Kind = Literal["payout", "withhold"]


class Payout(msgspec.Struct, frozen=True):
    to_company: int                 # paid into the operating company's treasury
    to_holders: dict[str, int]      # holder -> amount (players, other companies)
    move: Direction | None
    times: int


def holder_amount(percent: int, share_percent: int, per_share: float) -> int:
    shares = float(percent) / share_percent
    return math.ceil(shares * per_share)


# the default moves, one frozen instance shared by every call
PLAIN_MOVES = PriceMoves()


def pay(company: str, revenue: int, kind: Kind, holdings: dict[str, int], share_percent: int,
        price: int, is_minor: bool, bankrupt: frozenset[str] = frozenset(),
        incremental: bool = True, moves: PriceMoves = PLAIN_MOVES) -> Payout:
    """`holdings`: holder -> percent of `company` (include the company itself for its treasury,
    `pool` for the market: it is paid nothing). Amounts come from the bank."""
    if kind == "withhold" or revenue <= 0:
        move, times = moves.after(0, price, is_minor)
        return Payout(to_company=max(revenue, 0), to_holders={}, move=move, times=times)
    total_shares = 100 // share_percent
    per_share = revenue / float(total_shares)
    to_company = 0
    to_holders: dict[str, int] = {}
    for holder, percent in holdings.items():
        if percent <= 0 or holder == "pool" or holder in bankrupt:
            continue
        amount = holder_amount(percent, share_percent, per_share)
        if holder == company:
            if incremental:
                to_company += amount
            continue
        to_holders[holder] = amount
    move, times = moves.after(revenue, price, is_minor)
    return Payout(to_company=to_company, to_holders=to_holders, move=move, times=times)

