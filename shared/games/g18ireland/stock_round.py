"""18Ireland's private auction and stock rounds as the core's rounds of steps (18xx.games
`g_18_ireland/game.rb`: an Auction round with the waterfall auction; a Stock round with
home token and BuySellParShares, minors' auctions inside it)."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import LegalAction, RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.legal import covers
from shared.games.core18xx.rounds import stock as SR
from shared.games.core18xx.rounds import waterfall_auction as W
from shared.games.core18xx.rounds.base import Round
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import money as M
from shared.games.g18ireland.common_steps import NONE, IrelandStep, PendingToken, Play, seat_of_player
from shared.games.g18ireland.operating_round import same_purchase
from shared.games.g18ireland.state import Pending, State
from shared.games.g18ireland.upkeep import check_end, with_board

replace = msgspec.structs.replace
STOCK_RULES = M.STOCK_RULES


class WaterfallAuction(IrelandStep):
    name = "waterfall_auction"
    kinds = frozenset({"bid", "pass"})

    def blocking(self, state: State) -> bool:
        return state.auction is not None and not state.auction.finished

    def actions(self, state: State, entity: str) -> frozenset[str]:
        return self.kinds if self.blocking(state) else NONE

    def active_entities(self, state: State) -> list[int]:
        assert state.auction is not None
        player = state.auction.active_player()
        return [] if player is None else [seat_of_player(state, player)]

    def legal(self, state: State) -> list[LegalAction]:
        player = state.auction.active_player() if state.auction is not None else None
        return W.legal(state.auction, player) if player else []     # type: ignore[arg-type]

    def process(self, state: State, action: Any) -> State:
        auction = state.auction
        assert auction is not None
        player = str(action.entity)
        if not covers(W.legal(auction, player), action):
            raise RuleError("not_allowed", "that bid or pass is not open now")
        return replace(state, auction=W.apply(auction, player, action))


class BuySellParShares(IrelandStep):
    """The stock round's turns (a minor's auction among them); a player with nothing left to do
    is passed on by the round (18xx.games' skip)."""

    name = "buy_sell_par_shares"
    kinds = frozenset({"pass", "bid", "buy_shares", "sell_shares", "par"})

    def blocking(self, state: State) -> bool:
        return state.stock is not None and not state.stock.finished

    def actions(self, state: State, entity: str) -> frozenset[str]:
        return self.kinds if self.blocking(state) else NONE

    def reached(self, state: State) -> State:
        sr = state.stock
        assert sr is not None
        if sr.auction is not None or SR.is_open(state.money, sr, SR.current_player(state.money, sr), STOCK_RULES):
            return state
        money, sr = SR._after_action(state.money, sr, STOCK_RULES)
        return with_board(replace(state, money=money, stock=sr))

    def active_entities(self, state: State) -> list[int]:
        assert state.stock is not None
        player = SR.active_player(state.money, state.stock)
        return [] if player is None else [seat_of_player(state, player)]

    def legal(self, state: State) -> list[LegalAction]:
        player = SR.active_player(state.money, state.stock) if state.stock is not None else None
        if not player:
            return []
        return homed(state, SR.legal(state.money, state.stock, player, STOCK_RULES))   # type: ignore[arg-type]

    def process(self, state: State, action: Any) -> State:
        sr = state.stock
        assert sr is not None
        player = SR.active_player(state.money, sr)
        if player is None:
            raise RuleError("not_allowed", "nobody is to act")
        offered = homed(state, SR.for_action(state.money, sr, player, STOCK_RULES, action))
        if not covers(offered, action, same_purchase(state)):
            raise RuleError("not_allowed", f"{type(action).__name__} is not open to you now")
        before, auction_before = state.money.corps, sr.auction
        money, sr = SR.apply(state.money, sr, player, action, STOCK_RULES)
        state = replace(state, money=money, stock=sr)
        # a par, or an auction won (on a bid or on the others' passes), starts a company; a
        # minor's home city is chosen as its auction begins (18xx.games' HOME_TOKEN_TIMING :par)
        started = [] if money.corps is before else [
            sym for sym, c in money.corps.items() if c is not before[sym] and c.ipoed and not before[sym].ipoed]
        homes = [Pending(sym, "home") for sym in started if BO.needs_home(state, sym)]
        if sr.auction is not None and auction_before is None and BO.needs_home(state, sr.auction.corporation):
            homes.append(Pending(sr.auction.corporation, "home", for_player=sr.auction.triggerer))
        if homes:
            state = replace(state, pending=[*state.pending, *homes])
        return check_end(with_board(state))


def homed(state: State, offered: list[LegalAction]) -> list[LegalAction]:
    """The offers without a major's par when no city could take its home token (reading 34):
    the par would leave its president a home token to place and nowhere to place it."""
    pars = {la.action.corporation for la in offered if isinstance(la.action, A.Par)}
    if not pars:
        return offered
    homeless = {sym for sym in pars if BO.needs_home(state, sym) and not BO.home_spots(state, sym)}
    if not homeless:
        return offered
    return [la for la in offered if not (isinstance(la.action, A.Par) and la.action.corporation in homeless)]


AUCTION = Play(Round("auction", [WaterfallAuction()]))
STOCK = Play(Round("stock", [PendingToken(), BuySellParShares()]))


def start_stock(state: State) -> State:
    money, sr = SR.start(state.money, state.minor_order, BO.phase(state), STOCK_RULES)
    return with_board(replace(state, money=money, round="stock", stock=sr, operating=None, merger=None))
