"""The money side of an 18xx game in one immutable struct: players' and companies' cash, the
share book, companies' positions on the market, privates' owners.

Steps of the stock and operating rounds read and return this struct (the title's full game
state embeds it next to the board). Helpers here are the queries 18xx.games asks everywhere:
prices of certificates, holding and certificate limits, floating, selling constraints.
"""

from __future__ import annotations

from functools import cached_property
from operator import countOf
from typing import Literal

import msgspec

from shared.engine import RuleError
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.market import Coord, Market, Token
from shared.games.core18xx.money.rules import MoneyRules

CorpType = Literal["major", "minor"]
NO_LIMIT = 10 ** 6


class Corp(msgspec.Struct, frozen=True):
    sym: str
    type: CorpType
    float_percent: int
    max_ownership_percent: int
    ipoed: bool = False
    floated: bool = False
    closed: bool = False
    price: Coord | None = None        # current share-price cell
    par: Coord | None = None


class MoneyState(msgspec.Struct, frozen=True, dict=True):
    players: list[str]                # priority order for the current stock round
    cash: dict[str, int]              # players, companies, "bank"
    book: S.ShareBook
    corps: dict[str, Corp]
    market: Market
    tokens: dict[str, Token] = {}     # market markers by company
    arrivals: int = 0                 # counter giving markers their arrival order
    companies: dict[str, str] = {}    # private -> owner
    cert_limit: int = 0
    turn: int = 1                     # stock-round number (18xx.games @turn)
    bankrupt: list[str] = []
    market_share_limit: int = 50
    minor_market_share_limit: int = 40
    max_reached: bool = False         # a price entered the end-game cell (sticky, as 18xx.games)
    # the bank's cash went below zero before money came back to it in the same decision (a
    # closing company's cash): broken it stays, as 18xx.games' `Bank#broken?` (see operating.py)
    bank_broke: bool = False
    rules: MoneyRules = MoneyRules()  # the title's money rules (data, see rules.py)

    # answers derived from this state alone, kept on it (`dict=True`; see core18xx.memo):
    # certificate counts, and the rounds' questions by name (`answers[name][key]`)
    @cached_property
    def _num_certs(self) -> dict[str, int]:
        return {}

    @cached_property
    def answers(self) -> dict[str, dict]:
        return {}

    # --- prices and limits -------------------------------------------------------------------

    def price_of(self, sym: str) -> int:
        corp = self.corps[sym]
        if corp.price is None:
            return min(c.price for c in self.market.par_cells())
        return self.market.at(corp.price).price

    def pool_limit(self, sym: str) -> int:
        return self.minor_market_share_limit if self.corps[sym].type == "minor" else self.market_share_limit

    def counts_for_limit(self, sym: str) -> bool:
        corp = self.corps[sym]
        return corp.price is None or self.market.at(corp.price).counts_for_cert_limit

    def num_certs(self, holder: str) -> int:
        """Certificates of `holder` (a player or a corporation) counting toward its limit; a
        corporation's own unsold shares never count (18xx.games 1841 `num_certs`)."""
        # asked many times of one (immutable) state by the stock round's option checks: cached on
        # the instance (`dict=True`: a __dict__ neither encoded nor compared)
        cache = self._num_certs
        n = cache.get(holder)
        if n is None:
            # `S.cert_count` in one pass: only the companies the holder holds need their price
            # cell looked at
            n = countOf(self.companies.values(), holder) if self.rules.companies_count_for_limit else 0
            for sym, certs in self.book.by_company(holder).items():
                if sym != holder and (sym not in self.corps or self.counts_for_limit(sym)):
                    n += len(certs)
            cache[holder] = n
        return n

    def cert_limit_of(self, holder: str) -> int:
        """A player's certificate limit, or a corporation's (`rules.corporate_cert_limit`; 0: none)."""
        if holder in self.corps:
            return self.rules.corporate_cert_limit or NO_LIMIT
        return self.cert_limit

    def presidents(self, sym: str) -> list[str]:
        """The holders who may preside over `sym`, in the order that breaks ties: the players in
        priority order, then (`rules.presidents == "holders"`) the other live corporations in
        the title's order. Players only: the players' list itself (asked on every transfer)."""
        if self.rules.presidents == "players":
            return self.players
        corps = [s for s, c in self.corps.items() if s != sym and c.ipoed and not c.closed]
        return S.HolderPresidents(self.players, corps, self.operating_order)

    def holding_ok(self, player: str, sym: str, extra: int = 0) -> bool:
        corp = self.corps[sym]
        lifted = corp.price is not None and self.market.at(corp.price).lifts_holding_limit
        return S.holding_ok(self.book, player, sym, extra, corp.max_ownership_percent, lifted)

    def can_gain(self, player: str, sym: str, percent: int) -> bool:
        """18xx.games `can_gain?`: holding limit, and the certificate limit unless the company's
        cell is exempt (`player`: any holder)."""
        return self.holding_ok(player, sym, percent) and (
            not self.counts_for_limit(sym) or self.num_certs(player) < self.cert_limit_of(player))

    def cert_price(self, sym: str, percent: int) -> int:
        return S.bundle_price(self.book, sym, percent, self.price_of(sym))

    # --- market markers ------------------------------------------------------------------------

    def place(self, sym: str, coord: Coord) -> MoneyState:
        """Put a company's marker on `coord` (arriving last in that cell)."""
        corp = self.corps[sym]
        if corp.price == coord and sym in self.tokens:
            return self
        tokens = dict(self.tokens)
        tokens[sym] = Token(corporation=sym, coord=coord, arrived=self.arrivals)
        corps = dict(self.corps)
        corps[sym] = msgspec.structs.replace(corp, price=coord)
        reached = self.max_reached or self.market.at(coord).ends_game
        return msgspec.structs.replace(self, tokens=tokens, corps=corps, arrivals=self.arrivals + 1,
                                       max_reached=reached)

    def move_price(self, sym: str, direction: str, times: int = 1) -> MoneyState:
        corp = self.corps[sym]
        if corp.price is None:
            return self
        coord = corp.price
        for _ in range(times):
            coord = self.market.move(coord, direction, 1)  # type: ignore[arg-type]
        return self.place(sym, coord)

    def operating_order(self) -> list[str]:
        from shared.games.core18xx.money.market import operating_order
        live = [self.tokens[s] for s, c in self.corps.items() if c.floated and not c.closed and s in self.tokens]
        return operating_order(self.market, live)

    # --- floating ----------------------------------------------------------------------------

    def check_float(self, sym: str) -> MoneyState:
        corp = self.corps[sym]
        if corp.floated:
            return self
        unsold = self.book.percent_of(sym, sym)
        if unsold <= 100 - corp.float_percent:
            corps = dict(self.corps)
            corps[sym] = msgspec.structs.replace(corp, floated=True)
            return msgspec.structs.replace(self, corps=corps)
        return self

    def set_par(self, sym: str, coord: Coord, par_cell_only: bool = True) -> MoneyState:
        """Start `sym` at `coord` (a merger may start a major on any cell)."""
        if par_cell_only and not self.market.at(coord).can_par:
            raise RuleError("not_par", f"{self.market.at(coord).price} is not a par price")
        state = self.place(sym, coord)
        corps = dict(state.corps)
        corps[sym] = msgspec.structs.replace(corps[sym], par=coord, ipoed=True)
        return msgspec.structs.replace(state, corps=corps)
