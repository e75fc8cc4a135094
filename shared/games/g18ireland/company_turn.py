"""One company's operating turn in 18Ireland, the money side: what the turn holds (`OrTurn`),
the data its steps read (`OrContext`), and the questions and money decisions of its steps.
The steps themselves, in 18xx.games' order, are `operating_round.TURN`.

18xx.games' steps, and when each waits ("blocks") for a decision:
  issue      issue or redeem one share (when either is possible), or pass
  track      lay tiles: the first lay always; a second (£20) while not upgraded and affordable
             (18xx.games does not ask whether a legal lay exists: a pass ends it)
  token      while no token was placed this turn, one is left, affordable, and the board has a
             reachable free city
  route      while the company has trains and the board finds a route
  dividend   pay out or withhold a positive revenue; nothing earned is withheld automatically
  discard    a company over its train limit hands a train to the pool; 18xx.games asks for
             that first, whatever the step, as soon as a phase change crowds a company, so the
             round puts it before everything (`crowded`)
  buy_train  must buy (no train, depot not empty: no pass; the president's sales and bankruptcy
             join), or may buy (room, and a depot/pool train affordable, another company's train,
             or a trade-in), or pass
  buy_company  (phases 4 and 6) buying a player's private is possible: buy or pass
Buying a private is also possible at any moment of the turn without blocking.
"""

from __future__ import annotations

import msgspec

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.memo import Last
from shared.games.core18xx.money import emergency as E
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.core18xx.rounds import operating_legal as OM

SECOND_LAY_COST = 20


class OrContext(msgspec.Struct, frozen=True):
    token_prices: dict[str, list[int]]
    company_values: dict[str, int]
    tokens_used: dict[str, int]
    # privates with a tile-lay ability usable at the track step, and those of them whose ability
    # keeps the track step waiting for their owner (not the BoW kind that uses up a normal lay)
    track_companies: list[str] = []
    track_blocking_companies: list[str] = []
    # privates whose ability works at any point of the owning company's turn (`owning_corp_or_turn`)
    turn_companies: list[str] = []
    dargan: str = "WDE"


def context(tokens_used: dict[str, int]) -> OrContext:
    """18Ireland's operating context from its entities data."""
    from shared.games.g18ireland.money import ENTITIES
    track = [c["sym"] for c in ENTITIES["companies"]
             if any(a["type"] == "tile_lay" and a.get("when") == "track" for a in c["abilities"])]
    blocking = [c["sym"] for c in ENTITIES["companies"]
                if any(a["type"] == "tile_lay" and a.get("when") == "track" and not a.get("consume_tile_lay")
                       for a in c["abilities"])]
    any_time = [c["sym"] for c in ENTITIES["companies"]
                if any(a.get("when") == "owning_corp_or_turn" for a in c["abilities"])]
    return OrContext(token_prices={c["sym"]: c["tokens"] for c in ENTITIES["corporations"]},
                     company_values={c["sym"]: c["value"] for c in ENTITIES["companies"]},
                     tokens_used=dict(tokens_used), track_companies=track, track_blocking_companies=blocking,
                     turn_companies=any_time)


class OrTurn(msgspec.Struct, frozen=True):
    corp: str
    # the step the turn has reached (the steps before it are passed); "done" once no step waits
    stage: str = "issue"
    lays: int = 0
    upgraded: bool = False
    tokened: bool = False
    revenue: int | None = None
    paid: bool = False
    step: E.TrainBuy | None = None

    @property
    def train_step(self) -> E.TrainBuy:
        return self.step or E.TrainBuy(company=self.corp)


def crowded(money: MoneyState, depot: T.Depot) -> list[str]:
    """Open companies over the current phase's train limit, who discard before anything else.
    Asked at every step of every decision, and the trains, the phase and the companies change
    far less often (each change copies its dict): the last answer is kept with them (read
    without a call)."""
    trains, corps, phase = depot.trains, money.corps, depot.phase
    known = _CROWDED.value
    if known is not None and known[0] is trains and known[1] is corps and known[2] == phase:
        return known[3]
    found = T.over_limit_open(depot, corps)
    _CROWDED.value = (trains, corps, phase, found)
    return found


_CROWDED = Last()


def phase_trade(depot: T.Depot) -> bool:
    return depot.current_phase.name in ("10", "D")


# --- when a step waits -----------------------------------------------------------------------

def issue_open(money: MoneyState, corp: str) -> bool:
    return O.can_issue(money, corp) or O.can_redeem(money, corp)


def track_open(money: MoneyState, depot: T.Depot, turn: OrTurn, ctx: OrContext) -> bool:
    corp, cash = turn.corp, money.cash[turn.corp]
    # an owned private that lays track keeps the step open for it (18xx.games
    # `tile_lay_abilities_should_block?`)
    if any(money.companies.get(c) == corp for c in ctx.track_blocking_companies):
        return True
    # so does a player's track-laying private the company could buy now (`can_buy_tile_laying_company?`)
    if "can_buy_companies" in depot.current_phase.status and any(
            money.companies.get(c) in money.players and O.company_price_range(ctx.company_values[c])[0] <= cash
            for c in ctx.track_companies):
        return True
    if turn.lays == 0:
        return True
    dargan = money.companies.get(ctx.dargan) == corp
    return turn.lays == 1 and (not turn.upgraded or dargan) and cash >= SECOND_LAY_COST


def token_price(money: MoneyState, turn: OrTurn, ctx: OrContext) -> int | None:
    """The price of the company's next token when it may still place one this turn and can pay."""
    prices, used = ctx.token_prices[turn.corp], ctx.tokens_used.get(turn.corp, 0)
    if turn.tokened or used >= len(prices) or prices[used] > money.cash[turn.corp]:
        return None
    return prices[used]


def buy_train_open(money: MoneyState, depot: T.Depot, turn: OrTurn) -> bool:
    corp = turn.corp
    if E.must_buy(money, depot, corp):
        return True
    if E.room(money, depot, corp):
        cash = money.cash[corp]
        if any(depot.types[t.name].price <= cash for t in depot.offered()):
            return True
        if cash >= 1 and any(t.owner in money.corps and t.owner != corp for t in depot.trains.values()):
            return True
    # (of buy_train's purchases only the trade-ins carry an `exchange`)
    return bool(OM.trade_ins(money, depot, turn.train_step, phase_trade(depot)))


def buy_company_open(money: MoneyState, depot: T.Depot, corp: str, ctx: OrContext, unused: list[str]) -> bool:
    """The blocking buy-company step waits while a private can be bought, or while the company
    owns a private with an any-time ability still `unused` (18xx.games' BuyCompany#actions:
    `pass` while the company has an active ability)."""
    return (bool(OM.buy_company(money, corp, ctx.company_values, depot.current_phase.status))
            or any(money.companies.get(c) == corp for c in unused))


# --- money decisions -------------------------------------------------------------------------

def buy_company(money: MoneyState, depot: T.Depot, corp: str, action: A.BuyCompany, ctx: OrContext) -> MoneyState:
    value = ctx.company_values.get(action.company)
    if value is None or "can_buy_companies" not in depot.current_phase.status:
        raise RuleError("cannot_buy_company", f"{action.company} cannot be bought now")
    # the step stays open while another private could be bought: `pass` ends it
    return O.buy_company(money, corp, action.company, action.price, value)


def issue_or_redeem(money: MoneyState, corp: str, action: A.Action) -> MoneyState:
    listed = OM.issue_redeem(money, corp)
    if not any(type(x.action) is type(action) for x in listed):
        raise RuleError("cannot_issue", "that share cannot be issued or redeemed now")
    return O.issue_one(money, corp) if isinstance(action, A.SellShares) else O.redeem_one(money, corp)
