"""18Ireland's operating round: the companies in price order, each running its turn as the
round's list of steps (18xx.games `g_18_ireland/game.rb#operating_round`):

  home token, discard train, special track, assign, buy company (any time), issue shares,
  track, token, route, dividend, buy train, buy company (blocking)

`TURN` is that list on the core's `Round`; each decision goes to the step that takes it, the
turn moves past steps with nothing to decide (`Round.advance`), and a turn with no step left
waiting hands over to the next company. The board's decisions (lays, tokens, routes,
assignments) are applied here through the board side, the money's through `company_turn.py`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import LegalAction, RuleError
from shared.families import Choice
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.choice import trie
from shared.games.core18xx.legal import covers
from shared.games.core18xx.money import emergency as E
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.rounds import operating_legal as OM
from shared.games.core18xx.rounds.base import Round
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import company_turn as OP
from shared.games.g18ireland import money as M
from shared.games.g18ireland import privates as PV
from shared.games.g18ireland import turn_context as TC
from shared.games.g18ireland.common_steps import (
    NONE,
    DiscardTrain,
    IrelandStep,
    PendingToken,
    Play,
    board_error,
    kind,
    plain_token,
    president_seat,
    token_family,
)
from shared.games.g18ireland.map import ASSIGNMENTS
from shared.games.g18ireland.state import OperatingRound, Pending, State, step_inputs
from shared.games.g18ireland.upkeep import check_end, over, with_board

replace = msgspec.structs.replace
COMPANY_REVENUE = {c["sym"]: c["revenue"] for c in M.ENTITIES["companies"]}


def _turn(state: State) -> OP.OrTurn:
    op = state.operating
    assert op is not None and op.turn is not None
    return op.turn


def _with_turn(state: State, turn: OP.OrTurn) -> State:
    op = state.operating
    assert op is not None
    return replace(state, operating=replace(op, turn=turn))


def _live(state: State) -> OP.OrTurn | None:
    """The turn in play, None when there is none (or it is over)."""
    op = state.operating
    if op is None or op.turn is None or op.turn.stage == "done":
        return None
    return op.turn


def same_purchase(state: State) -> Any:
    """Any certificate of the same company, holder and size is the same purchase; the same
    certificates sold in another order the same sale (18xx.games names one certificate)."""
    book = state.money.book

    def key(cid: str) -> tuple[Any, ...] | None:
        cert = book.certs.get(cid)
        return None if cert is None else (cert.corporation, cert.percent, cert.president, book.owner[cid])

    def same(offered: Any, action: Any) -> bool:
        if type(offered) is not type(action) or not isinstance(action, (A.BuyShares, A.SellShares)):
            return False
        fixed = ("entity", "entity_type", "percent")
        if any(getattr(offered, f) != getattr(action, f) for f in fixed):
            return False
        if len(set(action.shares)) != len(action.shares) or len(action.shares) != len(offered.shares):
            return False
        mine = [key(c) for c in action.shares]
        if any(k is None for k in mine):
            return False
        return sorted(mine) == sorted(key(c) for c in offered.shares)  # type: ignore[type-var]
    return same


def _pass(corp: str) -> LegalAction:
    return LegalAction(action=A.Pass(entity=corp, entity_type="corporation"))


def _checked(state: State, step: IrelandStep, action: Any) -> None:
    offers = step.legal_for(state, action) if isinstance(step, TurnStep) else step.legal(state)
    if not covers(offers, action, same_purchase(state)):
        turn = _turn(state)
        raise RuleError("not_allowed", f"{type(action).__name__} is not possible for {turn.corp} now "
                                       f"({turn.stage} step)")


# --- the steps -------------------------------------------------------------------------------

class TurnStep(IrelandStep):
    """A step of the company's own turn: passed once the turn has moved beyond it; `decides`
    says whether it has a decision when not passed; `pass` moves the turn past it."""

    kinds: frozenset[str] = NONE
    passable = True
    rank = 0        # the step's place in the turn (set with `_RANK`)

    def passed(self, turn: OP.OrTurn) -> bool:
        return _RANK[turn.stage] > self.rank

    def decides(self, state: State, turn: OP.OrTurn) -> bool:
        return False

    def blocking(self, state: State) -> bool:
        # (`TURN` skips passed steps by their rank; asked directly, `_live` and `passed` inline:
        # "done" ranks after every step)
        op = state.operating
        turn = None if op is None else op.turn
        if turn is None or _RANK[turn.stage] > self.rank:
            return False
        return self.decides(state, turn)

    def actions(self, state: State, entity: str) -> frozenset[str]:
        # (`_live` and `passed` inline, as in `blocking`)
        op = state.operating
        turn = None if op is None else op.turn
        if turn is None or entity != turn.corp or _RANK[turn.stage] > self.rank:
            return NONE
        return self.kinds

    def reached(self, state: State) -> State:
        turn = _turn(state)
        return state if turn.stage == self.name else _with_turn(state, replace(turn, stage=self.name))

    def past(self, state: State) -> State:
        """The turn moves on beyond this step."""
        return _with_turn(state, replace(_turn(state), stage=_AFTER[self.name]))

    def _waiting(self, state: State) -> OP.OrTurn | None:
        """The turn while this step is the one waiting in it (asked by `TURN` of its open steps
        only, where a blocking step is the first one: the turn's answer, kept per state)."""
        turn = _live(state)
        return None if turn is None or TURN.active_step(state) is not self else turn

    def legal(self, state: State) -> list[LegalAction]:
        turn = self._waiting(state)
        if turn is None:
            return []
        out = self.offered(state, turn)
        return out + [_pass(turn.corp)] if self.passable and self.can_pass(state, turn) else out

    def offered(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        return []

    def legal_for(self, state: State, action: Any) -> list[LegalAction]:
        """What `action` (not a pass) is checked against: `offered`, or the part of it a step can
        tell from the action's type without listing the rest."""
        turn = self._waiting(state)
        return [] if turn is None else self.offered(state, turn)

    def can_pass(self, state: State, turn: OP.OrTurn) -> bool:
        return True

    def process(self, state: State, action: Any) -> State:
        if isinstance(action, A.Pass):
            if not self.passable or not self.can_pass(state, _turn(state)):
                raise RuleError("cannot_pass", "this step cannot be passed")
            return self.past(state)
        return self.decide(state, action)

    def decide(self, state: State, action: Any) -> State:
        raise RuleError("not_allowed", f"{kind(action)} is not open now")


class SpecialTrack(IrelandStep):
    """Privates' own lays (privates.py); while a pair is begun, nothing else."""

    name = "special_track"
    kinds = frozenset({"lay_tile"})

    def blocking(self, state: State) -> bool:
        return state.pair is not None

    def actions(self, state: State, entity: str) -> frozenset[str]:
        return self.kinds if entity in PV.usable(state) else NONE

    def refusal(self, state: State, kind: str) -> RuleError:
        assert state.pair is not None
        return RuleError("finish_pair", f"{state.pair[0]}'s second tile must be laid first")

    def legal(self, state: State) -> list[LegalAction]:
        return PV.legal(state)

    def process(self, state: State, action: A.LayTile) -> State:
        return PV.apply_lay(state, action, _turn(state).stage == "track" and _TRACK.blocking(state))


def assignments(state: State) -> list[A.Assign]:
    """CDSPC/TASPS: while the owning company operates, assign the private to one of its hexes
    (the private closes; the bonus stays with that company)."""
    turn = _live(state)
    if turn is None:
        return []
    out = []
    for company, (hexes, _) in ASSIGNMENTS.items():
        if state.money.companies.get(company) == turn.corp:
            out += [A.Assign(entity=company, entity_type="company", target=h, target_type="hex") for h in hexes]
    return out


class Assign(IrelandStep):
    name = "assign"
    blocks = False
    kinds = frozenset({"assign"})

    def actions(self, state: State, entity: str) -> frozenset[str]:
        turn = _live(state)
        return self.kinds if turn is not None and state.money.companies.get(entity) == turn.corp else NONE

    def legal(self, state: State) -> list[LegalAction]:
        return [LegalAction(action=a) for a in assignments(state)]

    def process(self, state: State, action: A.Assign) -> State:
        if action not in assignments(state):
            raise RuleError("cannot_assign", f"{action.entity} cannot be assigned to {action.target} now")
        turn = _turn(state)
        money = O.close_private(state.money, str(action.entity))
        return replace(state, money=money, assigned={**state.assigned, str(action.entity): (action.target, turn.corp)})


def _company_offers(state: State, corp: str) -> list[LegalAction]:
    return OM.buy_company(state.money, corp, TC.context(state).company_values, state.depot.current_phase.status)


def _buy_company(state: State, action: A.BuyCompany) -> State:
    money = OP.buy_company(state.money, state.depot, _turn(state).corp, action, TC.context(state))
    return replace(state, money=money)


class BuyCompanyAnyTime(IrelandStep):
    """A player's private may be bought at any moment of the turn without holding anything up."""

    name = "buy_company_any_time"
    blocks = False
    kinds = frozenset({"buy_company"})

    def actions(self, state: State, entity: str) -> frozenset[str]:
        turn = _live(state)
        return self.kinds if turn is not None and entity == turn.corp and turn.stage != "buy_company" else NONE

    def legal(self, state: State) -> list[LegalAction]:
        turn = _live(state)
        return [] if turn is None or turn.stage == "buy_company" else _company_offers(state, turn.corp)

    def process(self, state: State, action: A.BuyCompany) -> State:
        _checked(state, self, action)
        return _buy_company(state, action)


class IssueShares(TurnStep):
    name = "issue"
    kinds = frozenset({"sell_shares", "buy_shares", "pass"})

    def decides(self, state: State, turn: OP.OrTurn) -> bool:
        return OP.issue_open(state.money, turn.corp)

    def offered(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        return OM.issue_redeem(state.money, turn.corp)

    def decide(self, state: State, action: Any) -> State:
        _checked(state, self, action)
        return self.past(replace(state, money=OP.issue_or_redeem(state.money, _turn(state).corp, action)))


class Track(TurnStep):
    name = "track"
    kinds = frozenset({"lay_tile", "pass"})

    def decides(self, state: State, turn: OP.OrTurn) -> bool:
        return OP.track_open(state.money, state.depot, turn, TC.context(state))

    def offered(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        rows = []
        for lay in BO.legal_lays(state, turn.corp, turn.lays, turn.upgraded):
            copy = BO.tile_copy(state, lay.tile)
            if copy is not None:
                rows.append((lay.hex, copy, lay.rotation))
        choices = trie(("hex", "tile", "rotation"), rows)
        if choices is None:
            return []
        first = rows[0]
        return [LegalAction(action=A.LayTile(entity=turn.corp, entity_type="corporation", hex=first[0],
                                             tile=first[1], rotation=first[2]), choices=choices)]

    def decide(self, state: State, action: A.LayTile) -> State:
        turn = _turn(state)
        if action.entity_type != "corporation":
            raise RuleError("not_your_turn", f"it is {turn.corp}'s turn")
        name = action.tile.rpartition("-")[0] or action.tile
        copy = BO.tile_copy(state, name)
        if copy is None:
            raise RuleError("tile_unavailable", f"no tile {name} is left")
        if action.tile != copy:
            raise RuleError("wrong_tile_copy", f"the next {name} tile is {copy}, not {action.tile}")
        if action.combo_entities:
            raise RuleError("not_allowed", "no private lays together with this company")
        lay = BO.check_lay(state, turn.corp, turn.lays, turn.upgraded, action.hex, name, action.rotation)
        return lay_tile(state, action, copy, lay.cost)


def lay_tile(state: State, action: A.LayTile, copy: str, cost: int) -> State:
    """A tile laid with one of the company's lays (its own, or BoW's that uses one): the board
    changes, the cost is paid, the lay is counted; a home it lifts waits to be placed again."""
    turn = _turn(state)
    m = BO.the_map()
    upgrade = B.tile_at(m, state.board, action.hex).tile.color != "white"
    name = action.tile.rpartition("-")[0] or action.tile
    board, lifted = B.lay_lifting(m, state.board, action.hex, name, action.rotation, copy)
    pending = [*state.pending, *(Pending(c, "relocate", action.hex, by=turn.corp) for c in lifted)]
    money = state.money
    if cost:
        money = replace(money, cash=S.pay(money.cash, turn.corp, S.BANK, cost))
    turn = replace(turn, lays=turn.lays + 1, upgraded=turn.upgraded or upgrade)
    return _with_turn(replace(TC.board_changed(state, board), pending=pending, money=money), turn)


def token_cost(state: State, corp: str) -> int:
    ctx = TC.context(state)
    return O.token_cost(ctx.token_prices[corp], ctx.tokens_used.get(corp, 0))


class Token(TurnStep):
    name = "token"
    kinds = frozenset({"place_token", "pass"})

    def decides(self, state: State, turn: OP.OrTurn) -> bool:
        price = OP.token_price(state.money, turn, TC.context(state))
        return price is not None and TC.can_token(state, turn.corp, price)

    def _remember(self, state: State) -> State:
        turn = _live(state)
        if turn is None or self.passed(turn):
            return state
        price = OP.token_price(state.money, turn, TC.context(state))
        return state if price is None else TC.remember_token(state, turn.corp, price)

    def skip(self, state: State) -> State:
        return self._remember(state)

    def reached(self, state: State) -> State:
        return super().reached(self._remember(state))

    def offered(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        return token_family(state, turn.corp, BO.token_spots(state, turn.corp, token_cost(state, turn.corp)))

    def decide(self, state: State, action: A.PlaceToken) -> State:
        turn = _turn(state)
        plain_token(action)
        cost = token_cost(state, turn.corp)
        coord, city = BO.find_node(state, action.city)
        board = BO.place(state, turn.corp, coord, city, BO.token_spots(state, turn.corp, cost), action.slot)
        money = state.money
        if cost:
            money = replace(money, cash=S.pay(money.cash, turn.corp, S.BANK, cost))
        return _with_turn(replace(TC.board_changed(state, board), money=money), replace(turn, tokened=True))


class Route(TurnStep):
    name = "route"
    kinds = frozenset({"run_routes"})
    passable = False    # a company with a route runs, if need be an empty set of routes

    def decides(self, state: State, turn: OP.OrTurn) -> bool:
        return bool(state.depot.count_owned(turn.corp)) and BO.can_run(state, turn.corp)

    def offered(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        best = BO.best(state, turn.corp)
        routes = [A.Route(train=r.train, connections=[list(c) for c in r.connections], nodes=list(r.stops),
                          revenue=r.revenue) for r in best.routes]
        return [LegalAction(action=A.RunRoutes(entity=turn.corp, entity_type="corporation", routes=routes),
                            choices=Choice("routes", [routes], open=True))]

    def decide(self, state: State, action: A.RunRoutes) -> State:
        turn = _turn(state)
        if action.extra_revenue or action.subsidy:
            raise RuleError("bad_routes", "18Ireland has no extra revenue or subsidy")
        specs = []
        for r in action.routes:
            if not r.connections:
                raise RuleError("bad_routes", f"the route of {r.train} names no track")
            specs.append(R.RouteSpec(r.train, r.connections, r.nodes or []))
        results, total = BO.run(state, turn.corp, specs)
        for given, got in zip(action.routes, results):
            if given.revenue is not None and given.revenue != got.revenue:
                raise RuleError("wrong_revenue", f"the route of {given.train} earns {got.revenue}, not {given.revenue}")
        return self.past(_with_turn(state, replace(turn, revenue=total)))


class Dividend(TurnStep):
    name = "dividend"
    kinds = frozenset({"dividend"})
    passable = False

    def decides(self, state: State, turn: OP.OrTurn) -> bool:
        return bool(turn.revenue) and not turn.paid

    def skip(self, state: State) -> State:
        # nothing earned: withheld, which moves the price
        turn = _live(state)
        if turn is None or turn.paid or self.passed(turn):
            return state
        money, _ = O.run_dividend(state.money, turn.corp, 0, "withhold")
        return _with_turn(replace(state, money=money), replace(turn, paid=True))

    def offered(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        return OM.dividend(turn.corp, turn.revenue or 0)

    def decide(self, state: State, action: A.Dividend) -> State:
        _checked(state, self, action)
        turn = _turn(state)
        if not turn.revenue or turn.paid:
            raise RuleError("no_revenue", "nothing to pay out")
        money, _ = O.run_dividend(state.money, turn.corp, turn.revenue, action.kind)  # type: ignore[arg-type]
        return self.past(_with_turn(replace(state, money=money), replace(turn, paid=True)))


class BuyTrain(TurnStep):
    """Buy trains (the president's emergency sales and bankruptcy when one must be bought)."""

    name = "buy_train"
    _OWN = frozenset({"buy_train", "pass", "bankrupt"})
    _PRESIDENT = frozenset({"sell_shares"})
    kinds = _OWN | _PRESIDENT

    def actions(self, state: State, entity: str) -> frozenset[str]:
        turn = _live(state)
        if turn is None or self.passed(turn):
            return NONE
        return self._OWN if entity == turn.corp else self._PRESIDENT

    def decides(self, state: State, turn: OP.OrTurn) -> bool:
        return OP.buy_train_open(state.money, state.depot, turn)

    def can_pass(self, state: State, turn: OP.OrTurn) -> bool:
        return not E.must_buy(state.money, state.depot, turn.corp)

    def offered(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        return self._purchases(state, turn) + self._emergency(state, turn)

    def _purchases(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        return OM.buy_train(state.money, state.depot, turn.train_step, OP.phase_trade(state.depot))

    def _emergency(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        return OM.emergency(state.money, state.depot, turn.train_step)

    def legal_for(self, state: State, action: Any) -> list[LegalAction]:
        # a purchase is never a sale or a bankruptcy: only its own half is listed
        turn = self._waiting(state)
        if turn is None:
            return []
        return (self._purchases if isinstance(action, A.BuyTrain) else self._emergency)(state, turn)

    def decide(self, state: State, action: Any) -> State:
        _checked(state, self, action)
        turn = _turn(state)
        money, depot = state.money, state.depot
        if isinstance(action, A.BuyTrain):
            money, depot, step, purchase = E.buy(money, depot, turn.train_step, action.train, action.price,
                                                 action.exchange, phase_allows_trade=OP.phase_trade(depot))
            if purchase.events:
                money = M.apply_events(M.IrelandMoney(money=money, depot=depot, minor_order=state.minor_order),
                                       purchase.events).money
            return _with_turn(replace(state, money=money, depot=depot), replace(turn, step=step))
        if isinstance(action, A.SellShares):
            money, step = E.emergency_sell(money, depot, turn.train_step, action.shares, action.percent)
            return _reorder(with_board(_with_turn(replace(state, money=money), replace(turn, step=step))), False)
        money, depot = E.bankrupt(money, depot, turn.train_step)
        state = _with_turn(replace(state, money=money, depot=depot), replace(turn, stage="done"))
        return _reorder(with_board(state), True)


class BuyCompany(TurnStep):
    """The blocking buy-company step at the end of the turn (phases 4 and 6)."""

    name = "buy_company"
    kinds = frozenset({"buy_company", "pass"})

    def decides(self, state: State, turn: OP.OrTurn) -> bool:
        ctx = TC.context(state)
        unused = [c for c in ctx.turn_companies if not TC.used_up(state, c)]
        return OP.buy_company_open(state.money, state.depot, turn.corp, ctx, unused)

    def offered(self, state: State, turn: OP.OrTurn) -> list[LegalAction]:
        return _company_offers(state, turn.corp)

    def decide(self, state: State, action: A.BuyCompany) -> State:
        _checked(state, self, action)
        return _buy_company(state, action)


def _progress(state: State) -> int:
    """How far the company's turn has come (`TURN`'s progress, against the steps' ranks): the
    rank of its stage; past every step when there is no turn."""
    op = state.operating
    turn = None if op is None else op.turn
    return _RANK["done"] if turn is None else _RANK[turn.stage]


_TRACK = Track()
_STEPS: list[IrelandStep] = [PendingToken(), DiscardTrain(), SpecialTrack(), Assign(), BuyCompanyAnyTime(),
                             IssueShares(), _TRACK, Token(), Route(), Dividend(), BuyTrain(), BuyCompany()]
_ORDER = [s.name for s in _STEPS if isinstance(s, TurnStep)] + ["done"]
_RANK = {name: i for i, name in enumerate(_ORDER)}
_AFTER = dict(zip(_ORDER, _ORDER[1:]))
for _step in _STEPS:
    if isinstance(_step, TurnStep):
        _step.rank = _RANK[_step.name]
TURN: Round[State] = Round("operating", _STEPS, version=step_inputs, progress=_progress)


def _reorder(state: State, bankrupt: bool) -> State:
    """The companies still to operate this round, sorted again by price: a president's sales
    toward a train, or a bankruptcy, move prices (18xx.games' `recalculate_order` after
    emergency sales and bankruptcy; not after issuing or dividends). A bankrupt company has
    closed by then, and 18xx.games has already handed the turn to the next open company in the
    old order: that one keeps its place, the ones after it are sorted."""
    op = state.operating
    assert op is not None
    keep = op.index + 1
    if bankrupt:
        corps = state.money.corps
        while keep < len(op.order) and corps[op.order[keep]].closed:
            keep += 1
        keep = min(keep + 1, len(op.order))
    later = set(op.order[keep:])
    order = op.order[:keep] + [c for c in state.money.operating_order() if c in later]
    return replace(state, operating=replace(op, order=order))


# --- the round: a decision, moving on, who acts ----------------------------------------------

def start(state: State, number: int, rounds: int) -> State:
    """Operating round `number` of `rounds` begins: the privates pay, the order is fixed."""
    money = O.pay_private_revenue(state.money, COMPANY_REVENUE)
    op = OperatingRound(number=number, rounds=rounds, order=money.operating_order())
    return replace(state, money=money, round="operating", stock=None, merger=None, operating=op)


class OperatingPlay(Play):
    """The operating round: `TURN` for the company operating now, then the next."""

    def decide(self, state: State, seat: int, action: Any) -> State:
        """One decision of the company's turn (or a discard, a waiting token, a private's ability)."""
        try:
            step = TURN.route_action(state, str(action.entity), kind(action))
            state = step.process(state, action)
            if isinstance(step, PendingToken):
                return state        # the turn goes on when the flow moves it on
            state, _ = TURN.advance_to(state)    # the turn moves past what it now has nothing to decide
        except B.BoardError as exc:
            raise board_error(exc) from None
        state = check_end(with_board(state))
        if state.end is not None and state.end[1] == "immediate":
            return over(state)
        return state

    def advance(self, state: State) -> State:
        """Past finished turns to the next company with a decision, or the end of the round."""
        while True:
            op = state.operating
            assert op is not None
            turn = op.turn
            if turn is not None and turn.stage != "done":
                if not state.money.corps[turn.corp].closed:
                    state, waiting = TURN.advance_to(state)
                    if waiting is not None:
                        return state
                state = _with_turn(state, replace(_turn(state), stage="done"))
                op = state.operating
                assert op is not None
            if op.finished:
                return state
            index = op.index if op.turn is None else op.index + 1
            while index < len(op.order) and state.money.corps[op.order[index]].closed:
                index += 1
            if index >= len(op.order):
                return replace(state, operating=replace(op, finished=True))
            corp = op.order[index]
            state = replace(state, operating=replace(op, index=index,
                                                     turn=OP.OrTurn(corp=corp, step=E.TrainBuy(company=corp))))

    def finished(self, state: State) -> bool:
        return state.operating is None or state.operating.finished

    def active_seats(self, state: State) -> frozenset[int]:
        if _live(state) is None:
            return frozenset()
        waiting = TURN.active_step(state)
        # every step of the turn is an IrelandStep, which says who decides at it
        seats = None if waiting is None else waiting.active_entities(state)  # type: ignore[attr-defined]
        return frozenset(seats) if seats else frozenset({president_seat(state, _turn(state).corp)})

    def legal(self, state: State) -> list[LegalAction]:
        return [] if _live(state) is None else TURN.legal(state)


OPERATING = OperatingPlay(TURN)
