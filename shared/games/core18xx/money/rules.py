"""A title's money rules as data: what differs between 18xx titles on the money side, held in
`MoneyState.rules` so every step reads the same values and the core names no title.

Defaults are 18xx.games' base game (`game/base.rb`, `step/dividend.rb`); a title sets what its
own `game.rb` overrides (see the title's `money.py`).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.games.core18xx.money.market import Direction


class PriceMoves(msgspec.Struct, frozen=True):
    """The share-price move after a run (18xx.games `share_price_change`): nothing paid ->
    `withheld`; paid at least `multiple` x price -> right `steps`, first matching entry of
    `paid` (majors) or `minor_paid` (minors; None: as majors); else no move."""
    withheld: tuple[Direction, int] = ("left", 1)
    paid: tuple[tuple[int, int], ...] = ((1, 1),)
    minor_paid: tuple[tuple[int, int], ...] | None = None

    def after(self, revenue: int, price: int, is_minor: bool) -> tuple[Direction | None, int]:
        if revenue <= 0:
            return self.withheld
        table = self.minor_paid if is_minor and self.minor_paid is not None else self.paid
        for multiple, steps in table:
            if revenue >= multiple * price:
                return "right", steps
        return None, 0


Presidents = Literal["players", "holders"]


class MoneyRules(msgspec.Struct, frozen=True):
    price_moves: PriceMoves = PriceMoves()
    # bankrupt players keep their certificates but dividends skip them
    bankrupt_paid_nothing: bool = False
    # a company closing because its president went bankrupt first pays the other holders the
    # share price per share
    bankrupt_close_pays_holders: bool = False
    # bankruptcy ends the game when only one player is left ("all_but_one") or at once ("any")
    bankruptcy_ends: Literal["all_but_one", "any"] = "any"
    # privates no company may buy from a player
    unbuyable_companies: frozenset[str] = frozenset()
    # who may preside over a company: only players, or any holder (a company presiding another
    # company, control then walks up the chain; see `control.py`)
    presidents: Presidents = "players"
    # certificate limit of a company holding other companies' shares (0: no limit)
    corporate_cert_limit: int = 0
