"""One company's operating turn in 18Ireland, as a step machine over the money side with the
board asked through a small port.

18xx.games runs the turn as these steps, each waiting ("blocking") while it has a decision:
  issue      issue or redeem one share (when either is possible), or pass
  track      lay tiles: the first lay always; a second (£20) while not upgraded and affordable
             (18xx.games does not ask whether a legal lay exists: a pass ends it)
  token      while no token was placed this turn, one is left, affordable, and the board has a
             reachable free city
  route      while the company has trains and the board finds a route
  dividend   pay out or withhold a positive revenue; nothing earned is withheld automatically
  discard    18xx.games' place for a company over its train limit to hand a train to the
             pool; it asks for that first, whatever the step, as soon as a phase change crowds
             a company, so `advance` and the legal actions put it before everything
             (`crowded`) and the step itself never waits
  buy_train  must buy (no train, depot not empty: no pass; the president's sales and bankruptcy
             join), or may buy (room, and a depot/pool train affordable, another company's train,
             or a trade-in), or pass
  buy_company  (phases 4 and 6) buying a player's private is possible: buy or pass
Buying a private is also possible at any moment of the turn without blocking. The board's own
decisions (lay_tile, place_token, run_routes) are applied by the board side, which reports their
cost or revenue here through `record_lay`, `record_token`, `record_run`.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from shared.engine import LegalAction, RuleError
from shared.games.core18xx.memo import Last
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import emergency as E
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.core18xx.rounds import operating_legal as OM

STAGES = ("issue", "track", "token", "route", "dividend", "discard", "buy_train", "buy_company", "done")
SECOND_LAY_COST = 20


class BoardPort(Protocol):
    def can_token(self, corp: str, cost: int, cash: int) -> bool:
        """A reachable city with a free slot exists for `corp`'s next token at `cost`."""
        ...

    def can_run(self, corp: str) -> bool:
        """`corp`'s trains have a route to run."""
        ...

    def used_up(self, company: str) -> bool:
        """`company`'s special ability has been used as often as it may be."""
        ...


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
    far less often (each change copies its dict): the last answer is kept, keyed by them."""
    held = (depot.trains, money.corps)
    hit = _CROWDED.get(held, depot.phase)
    if hit is not None:
        return hit
    return _CROWDED.put(held, T.over_limit(depot, {s: c.type for s, c in money.corps.items() if not c.closed}),
                        depot.phase)


_CROWDED = Last()


def _phase_trade(depot: T.Depot) -> bool:
    return depot.current_phase.name in ("10", "D")


def _buy_train_blocking(money: MoneyState, depot: T.Depot, turn: OrTurn) -> bool:
    corp = turn.corp
    if T.must_buy_train(depot, corp):
        return True
    if E.room(money, depot, corp):
        cash = money.cash[corp]
        if any(depot.types[t.name].price <= cash for t in depot.offered()):
            return True
        if cash >= 1 and any(t.owner in money.corps and t.owner != corp for t in depot.trains.values()):
            return True
    # (of buy_train's purchases only the trade-ins carry an `exchange`)
    return bool(OM.trade_ins(money, depot, turn.train_step, _phase_trade(depot)))


def _track_blocking(money: MoneyState, depot: T.Depot, turn: OrTurn, ctx: OrContext) -> bool:
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


def blocking(money: MoneyState, depot: T.Depot, turn: OrTurn, ctx: OrContext, port: BoardPort) -> bool:
    corp, stage = turn.corp, turn.stage
    if stage == "issue":
        return O.can_issue(money, corp) or O.can_redeem(money, corp)
    if stage == "track":
        return _track_blocking(money, depot, turn, ctx)
    if stage == "token":
        prices = ctx.token_prices[corp]
        used = ctx.tokens_used.get(corp, 0)
        return (not turn.tokened and used < len(prices) and prices[used] <= money.cash[corp]
                and port.can_token(corp, prices[used], money.cash[corp]))
    if stage == "route":
        return bool(depot.count_owned(corp)) and port.can_run(corp)
    if stage == "dividend":
        return bool(turn.revenue) and not turn.paid
    if stage == "buy_train":
        return _buy_train_blocking(money, depot, turn)
    if stage == "buy_company":
        # an unused any-time ability of an owned private keeps the step open for a pass
        # (18xx.games' BuyCompany#actions: `pass` while the company has an active ability)
        return (bool(OM.buy_company(money, corp, ctx.company_values, depot.current_phase.status))
                or any(money.companies.get(c) == corp and not port.used_up(c) for c in ctx.turn_companies))
    return False


def advance(money: MoneyState, depot: T.Depot, turn: OrTurn, ctx: OrContext,
            port: BoardPort) -> tuple[MoneyState, OrTurn]:
    """Move past steps with nothing to decide, doing what they do on their own (a company that
    earned nothing withholds). Nothing moves while a company is over its train limit: the
    discard comes first, whatever the step (18xx.games' DiscardTrain blocks the round as soon
    as a phase change leaves a company crowded)."""
    while turn.stage != "done" and not crowded(money, depot) and not blocking(money, depot, turn, ctx, port):
        if turn.stage == "dividend" and not turn.paid:
            money, _ = O.run_dividend(money, turn.corp, 0, "withhold")
            turn = msgspec.structs.replace(turn, paid=True)
        turn = msgspec.structs.replace(turn, stage=STAGES[STAGES.index(turn.stage) + 1])
    return money, turn


def start(money: MoneyState, depot: T.Depot, corp: str, ctx: OrContext, port: BoardPort) -> tuple[MoneyState, OrTurn]:
    return advance(money, depot, OrTurn(corp=corp, step=E.TrainBuy(company=corp)), ctx, port)


def _next(turn: OrTurn) -> OrTurn:
    return msgspec.structs.replace(turn, stage=STAGES[STAGES.index(turn.stage) + 1])


# --- what may be decided now -----------------------------------------------------------------

def legal_money(money: MoneyState, depot: T.Depot, turn: OrTurn, ctx: OrContext,
                only: type | None = None) -> list[LegalAction]:
    """The money decisions open now (the board adds its lays, tokens and routes at those steps);
    `pass` where the current step allows it. With `only`, just the families of that action type
    (what the legality check of one action needs)."""
    corp, stage = turn.corp, turn.stage

    def want(*types: type) -> bool:
        return only is None or only in types

    over = crowded(money, depot)
    if over:
        # the first company over its limit discards before anything else (18xx.games takes one)
        return OM.discard(money, depot, over[0]) if want(A.DiscardTrain) else []
    out: list[LegalAction] = []
    if stage not in ("buy_company", "done") and want(A.BuyCompany):
        # a private may be bought any time in the turn without holding anything up
        out += OM.buy_company(money, corp, ctx.company_values, depot.current_phase.status)
    if stage == "issue":
        if want(A.SellShares, A.BuyShares):
            out += OM.issue_redeem(money, corp)
    elif stage == "dividend":
        if want(A.Dividend):
            out += OM.dividend(corp, turn.revenue or 0)
    elif stage == "buy_train":
        if want(A.BuyTrain):
            out += OM.buy_train(money, depot, turn.train_step, _phase_trade(depot))
        if want(A.SellShares, A.Bankrupt):
            out += OM.emergency(money, depot, turn.train_step)
    elif stage == "buy_company":
        if want(A.BuyCompany):
            out += OM.buy_company(money, corp, ctx.company_values, depot.current_phase.status)
    # (no pass at the route step: a company with a route runs, if need be an empty set of routes)
    if want(A.Pass) and (stage in ("issue", "track", "token", "buy_company") or (
            stage == "buy_train" and not T.must_buy_train(depot, corp))):
        out.append(LegalAction(action=A.Pass(entity=corp, entity_type="corporation")))
    return out


# --- decisions -------------------------------------------------------------------------------

def apply_money(money: MoneyState, depot: T.Depot, turn: OrTurn, action: A.Action, ctx: OrContext,
                port: BoardPort) -> tuple[MoneyState, T.Depot, OrTurn, list[str]]:
    """Apply a money decision or a pass; returns the events fired by a train purchase."""
    corp, stage = turn.corp, turn.stage
    events: list[str] = []
    if isinstance(action, A.BuyCompany):
        if stage == "done" or action.entity != corp:
            raise RuleError("not_now", "no private can be bought now")
        value = ctx.company_values.get(action.company)
        if value is None or "can_buy_companies" not in depot.current_phase.status:
            raise RuleError("cannot_buy_company", f"{action.company} cannot be bought now")
        # the step stays open while another private could be bought: `pass` ends it
        money = O.buy_company(money, corp, action.company, action.price, value)
    elif isinstance(action, A.Pass):
        if action.entity != corp or stage in ("route", "dividend", "discard", "done") or (
                stage == "buy_train" and T.must_buy_train(depot, corp)):
            raise RuleError("cannot_pass", "this step cannot be passed")
        turn = _next(turn)
    elif stage == "issue" and isinstance(action, (A.SellShares, A.BuyShares)) and action.entity == corp:
        listed = OM.issue_redeem(money, corp)
        if not any(type(x.action) is type(action) for x in listed):
            raise RuleError("cannot_issue", "that share cannot be issued or redeemed now")
        money = O.issue_one(money, corp) if isinstance(action, A.SellShares) else O.redeem_one(money, corp)
        turn = _next(turn)
    elif stage == "dividend" and isinstance(action, A.Dividend):
        if not turn.revenue or turn.paid:
            raise RuleError("no_revenue", "nothing to pay out")
        money, _ = O.run_dividend(money, corp, turn.revenue, action.kind)  # type: ignore[arg-type]
        turn = _next(msgspec.structs.replace(turn, paid=True))
    elif isinstance(action, A.DiscardTrain):
        if action.entity not in crowded(money, depot):
            raise RuleError("not_crowded", f"{action.entity} is within its train limit")
        depot = T.discard(depot, str(action.entity), action.train)
    elif stage == "buy_train" and isinstance(action, A.BuyTrain) and action.entity == corp:
        money, depot, step, purchase = E.buy(money, depot, turn.train_step, action.train, action.price,
                                             action.exchange, phase_allows_trade=_phase_trade(depot))
        turn = msgspec.structs.replace(turn, step=step)
        events = purchase.events
    elif stage == "buy_train" and isinstance(action, A.SellShares) and action.entity != corp:
        money, step = E.emergency_sell(money, depot, turn.train_step, action.shares, action.percent)
        turn = msgspec.structs.replace(turn, step=step)
    elif stage == "buy_train" and isinstance(action, A.Bankrupt):
        money, depot = E.bankrupt(money, depot, turn.train_step)
        return money, depot, msgspec.structs.replace(turn, stage="done"), events
    else:
        raise RuleError("not_now", f"{type(action).__name__} is not possible at the {stage} step")
    money, turn = advance(money, depot, turn, ctx, port)
    return money, depot, turn, events


def record_lay(money: MoneyState, depot: T.Depot, turn: OrTurn, ctx: OrContext, port: BoardPort,
               cost: int, upgrade: bool, settle: bool = True) -> tuple[MoneyState, OrTurn]:
    """The board laid a tile for `turn.corp` at `cost` (terrain + slot fee), an upgrade or not.
    `settle=False` while a token the lay lifted waits to be put back: the turn stands still
    until then (18xx.games' home-token step comes before every other), then moves on."""
    if turn.stage != "track" or not blocking(money, depot, turn, ctx, port):
        raise RuleError("not_now", "no tile can be laid now")
    if cost:
        money = msgspec.structs.replace(money, cash=S.pay(money.cash, turn.corp, S.BANK, cost))
    turn = msgspec.structs.replace(turn, lays=turn.lays + 1, upgraded=turn.upgraded or upgrade)
    return advance(money, depot, turn, ctx, port) if settle else (money, turn)


def record_token(money: MoneyState, depot: T.Depot, turn: OrTurn, ctx: OrContext,
                 port: BoardPort) -> tuple[MoneyState, OrTurn, OrContext]:
    """The board placed `turn.corp`'s next token: pay its price."""
    if turn.stage != "token":
        raise RuleError("not_now", "no token can be placed now")
    used = ctx.tokens_used.get(turn.corp, 0)
    cost = O.token_cost(ctx.token_prices[turn.corp], used)
    if cost:
        money = msgspec.structs.replace(money, cash=S.pay(money.cash, turn.corp, S.BANK, cost))
    ctx = msgspec.structs.replace(ctx, tokens_used={**ctx.tokens_used, turn.corp: used + 1})
    money, turn = advance(money, depot, msgspec.structs.replace(turn, tokened=True), ctx, port)
    return money, turn, ctx


def record_run(money: MoneyState, depot: T.Depot, turn: OrTurn, ctx: OrContext, port: BoardPort,
               revenue: int) -> tuple[MoneyState, OrTurn]:
    """The board ran `turn.corp`'s routes for `revenue`."""
    if turn.stage != "route":
        raise RuleError("not_now", "routes are run at the route step")
    return advance(money, depot, msgspec.structs.replace(turn, revenue=revenue, stage="dividend"), ctx, port)
