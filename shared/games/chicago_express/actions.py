"""The actions of Chicago Express, JSON `{"type": ..., ...}` on the wire.

A turn is `choose` (advance one dial) followed by what that action does:
- auction: `offer` (a share, with the offering player's first bid or without: a pass) or
  `forgo`; then `bid` / `pass` clockwise from the next player;
- build: one `build` per locomotive (up to three, one company), then `done`; or `forgo`;
- develop: `develop` one hex, or `forgo`.
The opening auctions and the first Wabash auction are `bid` / `pass` only.
Companies are ids from board.json ("PRR", "BO", "NYC", "CO", "WAB"); hexes are ids ("R3").
"""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.engine import LegalAction

ActionName = Literal["auction", "build", "develop"]


class _Action(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True, gc=False):
    pass


class Bid(_Action, frozen=True, tag="bid"):
    """Bid in the running auction: at least the minimum, above the high bid, at most your cash."""

    amount: int


class Pass(_Action, frozen=True, tag="pass"):
    """Leave the running auction for good."""


class Choose(_Action, frozen=True, tag="choose"):
    """Advance the dial of an action that is not on red."""

    action: ActionName


class Offer(_Action, frozen=True, tag="offer", omit_defaults=True):
    """Put one share of `company` up for auction and bid `amount` (at least the minimum),
    or leave `amount` out to pass at once: the others may still bid, and if all pass the
    share stays with the company. The rule book: "Hráč nabídne alespoň minimální
    vyvolávací cenu nebo pasuje" (the player bids at least the minimum or passes)."""

    company: str
    amount: int | None = None


class Build(_Action, frozen=True, tag="build"):
    """Place one locomotive of `company` on `hex`; the first one fixes the company."""

    company: str
    hex: str


class Done(_Action, frozen=True, tag="done"):
    """End a build after at least one locomotive."""


class Develop(_Action, frozen=True, tag="develop"):
    """Develop one hex: a house on a city, mountain or forest, or a step of an industrial city."""

    hex: str


class Forgo(_Action, frozen=True, tag="forgo"):
    """Perform nothing for the action just chosen (its dial still moved)."""


Action = Bid | Pass | Choose | Offer | Build | Done | Develop | Forgo
ACTION_TYPES = (Bid, Pass, Choose, Offer, Build, Done, Develop, Forgo)

# Legal actions without fields, shared (they are immutable).
PASS = LegalAction(Pass())
DONE = LegalAction(Done())
FORGO = LegalAction(Forgo())
