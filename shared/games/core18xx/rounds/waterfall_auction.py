"""The waterfall auction for private companies (18xx.games `Step::WaterfallAuction`, with a
title's choice of what a round where everyone passes does after a purchase).

Rules, as 18xx.games plays them:
- Companies are offered cheapest first. On his turn a player may buy the cheapest remaining
  company outright at its price, put a bid on any other company (at least its price + 5, or the
  highest bid on it + 5, in steps of 5, no more than his cash less his other bids), or pass.
- After a purchase, bids resolve down the line: a company with one bid goes to that bidder at
  his bid; with several bids an auction starts among its bidders (lowest bidder acts: raise by 5s
  or drop out); with none the resolving stops.
- When every player has passed in turn: if nothing has been bought yet, the cheapest company's
  price drops by 5 and all bids are cleared (at 0 the next player must take it for free); if
  something was bought, the base game runs a "fake" operating round (`revenue_rounds` counts
  them; the title pays the privates' revenue), while with `unbid_cheapest_leaves` the cheapest
  company, which has no bid, leaves the game and the bids resolve. Then everyone may act again.
- The step ends when no company is left. Turn order only moves on decisions outside an auction;
  the player whose turn it would be next gets priority for the first stock round.
The title applies each purchase's consequences (a private that makes its buyer a company's
director, say); this step only records who bought what for how much.
"""

from __future__ import annotations

import msgspec

from shared.engine import AmountRange, LegalAction, RuleError
from shared.games.core18xx import actions as A


class Offer(msgspec.Struct, frozen=True):
    company: str
    value: int
    discount: int = 0

    @property
    def price(self) -> int:
        return self.value - self.discount


class BidRecord(msgspec.Struct, frozen=True):
    player: str
    company: str
    price: int


class Sale(BidRecord, frozen=True):
    """A purchase: who bought which company for how much (a bid's three fields)."""


class WaterfallState(msgspec.Struct, frozen=True):
    players: list[str]
    cash: dict[str, int]              # players' cash (updated as they buy)
    offers: list[Offer]               # remaining, cheapest first
    bids: list[BidRecord] = []        # in the order they were placed
    entity_index: int = 0
    passed: list[str] = []
    bought: bool = False
    unbid_cheapest_leaves: bool = False   # all passed after a purchase: see the module's notes
    revenue_rounds: int = 0               # "fake" operating rounds the title owes (base game)
    auctioning: str | None = None
    sales: list[Sale] = []
    removed: list[str] = []
    increment: int = 5

    @property
    def finished(self) -> bool:
        return not self.offers

    def bids_on(self, company: str) -> list[BidRecord]:
        return [b for b in self.bids if b.company == company]

    def committed(self, player: str) -> int:
        return sum(b.price for b in self.bids if b.player == player)

    def current_bid(self, player: str, company: str) -> int:
        return next((b.price for b in self.bids if b.player == player and b.company == company), 0)

    def max_bid(self, player: str, company: str) -> int:
        return self.cash[player] - self.committed(player) + self.current_bid(player, company)

    def in_auction(self) -> bool:
        return self.auctioning is not None and len(self.bids_on(self.auctioning)) > 1

    def active_player(self) -> str | None:
        if self.finished:
            return None
        if self.in_auction():
            return min(self.bids_on(self.auctioning), key=lambda b: b.price).player  # type: ignore[arg-type]
        return self.players[self.entity_index]

    def may_purchase(self, company: str) -> bool:
        return not self.in_auction() and bool(self.offers) and self.offers[0].company == company

    def min_bid(self, company: str) -> int:
        offer = self._offer(company)
        if self.may_purchase(company):
            return offer.price
        bids = self.bids_on(company)
        high = max((b.price for b in bids), default=None)
        return (high if high is not None else offer.price) + self.increment

    def _offer(self, company: str) -> Offer:
        for offer in self.offers:
            if offer.company == company:
                return offer
        raise RuleError("not_offered", f"{company} is not for sale")


def new_waterfall(players: list[str], cash: dict[str, int], companies: list[tuple[str, int]],
                  unbid_cheapest_leaves: bool = False) -> WaterfallState:
    # Python's sort is stable, like the order 18xx.games keeps for companies of equal value.
    offers = [Offer(company=sym, value=value) for sym, value in sorted(companies, key=lambda c: c[1])]
    return WaterfallState(players=list(players), cash=dict(cash), offers=offers,
                          unbid_cheapest_leaves=unbid_cheapest_leaves)


def _next_turn(state: WaterfallState) -> WaterfallState:
    return msgspec.structs.replace(state, entity_index=(state.entity_index + 1) % len(state.players))


def _buy(state: WaterfallState, player: str, company: str, price: int) -> WaterfallState:
    if state.cash[player] - state.committed(player) + state.current_bid(player, company) < price:
        raise RuleError("not_enough_cash", f"{player} cannot spend {price}")
    cash = dict(state.cash)
    cash[player] -= price
    return msgspec.structs.replace(
        state, cash=cash, bought=True,
        offers=[o for o in state.offers if o.company != company],
        bids=[b for b in state.bids if b.company != company],
        sales=[*state.sales, Sale(player=player, company=company, price=price)])


def _resolve(state: WaterfallState) -> WaterfallState:
    state = msgspec.structs.replace(state, auctioning=None)
    while state.offers:
        first = state.offers[0].company
        bids = state.bids_on(first)
        if len(bids) == 1:
            state = _buy(state, bids[0].player, first, bids[0].price)
            continue
        if len(bids) > 1:
            state = msgspec.structs.replace(state, auctioning=first)
        break
    return state


def _add_bid(state: WaterfallState, player: str, company: str, price: int) -> WaterfallState:
    minimum = state.min_bid(company)
    if price < minimum:
        raise RuleError("bid_too_low", f"minimum bid for {company} is {minimum}")
    if (price - minimum) % state.increment:
        raise RuleError("bid_step", f"raise bids in steps of {state.increment}")
    if price > state.max_bid(player, company):
        raise RuleError("not_enough_cash", f"you can bid at most {state.max_bid(player, company)}")
    bids = [b for b in state.bids if not (b.player == player and b.company == company)]
    return msgspec.structs.replace(state, bids=[*bids, BidRecord(player=player, company=company, price=price)])


def bid(state: WaterfallState, player: str, company: str, price: int) -> WaterfallState:
    if state.finished:
        raise RuleError("auction_over", "the private auction is over")
    if player != state.active_player():
        raise RuleError("not_your_turn", "it is not your turn to bid")
    state = msgspec.structs.replace(state, passed=[p for p in state.passed if p != player])
    if state.in_auction():
        if company != state.auctioning:
            raise RuleError("in_auction", f"bid on {state.auctioning} or pass")
        return _add_bid(state, player, company, price)
    state._offer(company)
    if state.may_purchase(company):
        if price != state.min_bid(company):
            raise RuleError("wrong_price", f"{company} costs {state.min_bid(company)}")
        state = _resolve(_buy(state, player, company, price))
    else:
        state = _add_bid(state, player, company, price)
    return _next_turn(state)


def pass_(state: WaterfallState, player: str) -> WaterfallState:
    if state.finished:
        raise RuleError("auction_over", "the private auction is over")
    if player != state.active_player():
        raise RuleError("not_your_turn", "it is not your turn")
    if state.in_auction():
        bids = [b for b in state.bids if not (b.player == player and b.company == state.auctioning)]
        return _resolve(msgspec.structs.replace(state, bids=bids))
    passed = [*state.passed, player] if player not in state.passed else list(state.passed)
    state = msgspec.structs.replace(state, passed=passed)
    if all(p in passed for p in state.players):
        state = _all_passed(state)
    return _next_turn(state)


def _all_passed(state: WaterfallState) -> WaterfallState:
    if state.bought and not state.unbid_cheapest_leaves:
        state = msgspec.structs.replace(state, revenue_rounds=state.revenue_rounds + 1)
    elif state.bought:
        # the cheapest company, unbid, leaves the game; the rest resolve
        gone = [o.company for o in state.offers[:1] if not state.bids_on(o.company)]
        state = msgspec.structs.replace(state, offers=[o for o in state.offers if o.company not in gone],
                                        removed=[*state.removed, *gone])
        state = _resolve(state)
    else:
        cheapest = state.offers[0]
        cheaper = msgspec.structs.replace(cheapest, discount=cheapest.discount + state.increment)
        state = msgspec.structs.replace(state, offers=[cheaper, *state.offers[1:]], bids=[])
        if cheaper.price <= 0:
            state = _next_turn(state)
            taker = state.players[state.entity_index]
            state = _resolve(_buy(state, taker, cheaper.company, 0))
    return msgspec.structs.replace(state, passed=[])


# --- legal actions -------------------------------------------------------------------------

def legal(state: WaterfallState, player: str) -> list[LegalAction]:
    """Every decision open to `player`: buying the cheapest company outright, a bid range on each
    other company (or on the one being auctioned), and passing."""
    if state.finished or player != state.active_player():
        return []
    out: list[LegalAction] = []
    targets = [state.auctioning] if state.in_auction() else [o.company for o in state.offers]
    for company in targets:
        assert company is not None
        low = state.min_bid(company)
        if state.may_purchase(company):
            if state.max_bid(player, company) >= low:
                out.append(LegalAction(action=A.Bid(entity=player, entity_type="player", company=company, price=low)))
            continue
        high = state.max_bid(player, company)
        high -= (high - low) % state.increment
        if high >= low:
            out.append(LegalAction(action=A.Bid(entity=player, entity_type="player", company=company, price=low),
                                   range=AmountRange(field="price", min=low, max=high, step=state.increment)))
    out.append(LegalAction(action=A.Pass(entity=player, entity_type="player")))
    return out


def apply(state: WaterfallState, player: str, action: A.Action) -> WaterfallState:
    if isinstance(action, A.Pass):
        return pass_(state, player)
    if isinstance(action, A.Bid):
        if action.company is None:
            raise RuleError("bad_bid", "name the private to bid on")
        return bid(state, player, action.company, action.price)
    raise RuleError("wrong_round", f"{type(action).__name__} is not an auction action")
