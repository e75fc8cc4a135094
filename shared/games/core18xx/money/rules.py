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


class EmergencyRules(msgspec.Struct, frozen=True):
    """The forced train purchase as a title plays it (18xx.games' `MUST_BUY_TRAIN` and `EBUY_*`
    constants, `step/train.rb`, `step/buy_train.rb`, `step/emergency_money.rb`); defaults are the
    base game's. `money/emergency.py` reads them."""
    # when a company without a train must buy one: always, never, or when it has a route
    # (the title's board answers `has_route`)
    must_buy_train: Literal["always", "route", "never"] = "route"
    # buying another company's train in emergency (EBUY_FROM_OTHERS): for up to its face value
    # with the president's money, for any price, or never once a share was sold (and never with
    # no cash)
    from_others: Literal["value", "always", "never"] = "value"
    # in emergency only the cheapest depot train is offered
    depot_train_must_be_cheapest: bool = True
    # a sale obliges the purchase to use it up: depot trains under the floor are not offered
    sale_sets_purchase_min: bool = False
    # the president may sell more than what is still needed
    sell_more_than_needed: bool = False
    # the president may sell shares at all (EBUY_CAN_SELL_SHARES)
    can_sell_shares: bool = True
    # the emergency price range (the president's money, the floor after a sale, at most the
    # list price) holds for every train, not only as `from_others` says (a title's spend_minmax override)
    range_for_every_train: bool = False
    # while a depot train is affordable from the company's cash only affordable trains are
    # offered (a title's "no emergency while anything is affordable" override)
    affordable_first: bool = False


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
    # privates (concessions) a player holds count toward his certificate limit (18xx.games'
    # CERT_LIMIT_INCLUDES_PRIVATES, true by default; 1841 counts only shares)
    companies_count_for_limit: bool = True
    emergency: EmergencyRules = EmergencyRules()
