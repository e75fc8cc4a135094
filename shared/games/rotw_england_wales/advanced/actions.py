"""Actions only the advanced share game has (the rest - bid, pass, lay_track, end_build,
deliver - are the standard game's, with the same fields)."""

from __future__ import annotations

import msgspec

_opts = dict(tag_field="type", forbid_unknown_fields=True, frozen=True)


class StartAuction(msgspec.Struct, tag="start_auction", **_opts):
    """Put one share up for auction with an opening bid (at least its price)."""
    company: str
    source: str  # "available" (money to the company) | "issued" (money to the bank)
    amount: int


class RepayBonds(msgspec.Struct, tag="repay_bonds", **_opts):
    count: int  # bonds repaid at $5,000 each (0: none)


class PayDividend(msgspec.Struct, tag="pay_dividend", **_opts):
    amount: int  # dollars shared out among the outstanding shares


class ProposeMerger(msgspec.Struct, tag="propose_merger", **_opts):
    target: str  # company to be taken over by the company in turn


class Vote(msgspec.Struct, tag="vote", **_opts):
    yes: bool


ADV_TYPES = (StartAuction, RepayBonds, PayDividend, ProposeMerger, Vote)
