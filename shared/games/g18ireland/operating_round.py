"""Applying a company's operating-round decisions: the board's (tile lays, tokens, routes,
private assignments) through the board side, the money's through `company_turn.py`'s step
machine, which the board answers through `flow.Port`."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.legal import covers
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import flow as F
from shared.games.g18ireland import money as M
from shared.games.g18ireland import company_turn as OP
from shared.games.g18ireland import privates as PV
from shared.games.g18ireland.map import ASSIGNMENTS
from shared.games.g18ireland.state import OperatingRound, Pending, State

replace = msgspec.structs.replace


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


def money_legal(state: State, only: type | None = None) -> list[Any]:
    op = state.operating
    assert op is not None and op.turn is not None
    return OP.legal_money(state.money, state.depot, op.turn, F.context(state), only)


def assignments(state: State) -> list[A.Assign]:
    """CDSPC/TASPS: while the owning company operates, assign the private to one of its hexes
    (the private closes; the bonus stays with that company)."""
    op = state.operating
    if op is None or op.turn is None or op.turn.stage == "done":
        return []
    out = []
    for company, (hexes, _) in ASSIGNMENTS.items():
        if state.money.companies.get(company) == op.turn.corp:
            out += [A.Assign(entity=company, entity_type="company", target=h, target_type="hex") for h in hexes]
    return out


def _board_error(exc: B.BoardError) -> RuleError:
    return RuleError(exc.code, exc.message)


def apply(state: State, action: Any) -> State:
    op = state.operating
    assert op is not None and op.turn is not None
    turn = op.turn
    corp = turn.corp
    PV.check_no_pair(state, action)
    over = OP.crowded(state.money, state.depot)
    if over and not isinstance(action, A.DiscardTrain):
        raise RuleError("discard_first", f"{over[0]} must discard a train first")
    try:
        if isinstance(action, A.Assign):
            state = _assign(state, action)
        elif isinstance(action, A.LayTile) and action.entity_type == "company":
            state = PV.apply_lay(state, action)
        elif isinstance(action, (A.LayTile, A.PlaceToken, A.RunRoutes)):
            if action.entity != corp or action.entity_type != "corporation":
                raise RuleError("not_your_turn", f"it is {corp}'s turn")
            if isinstance(action, A.LayTile):
                state = _lay(state, action)
            elif isinstance(action, A.PlaceToken):
                state = _token(state, action)
            else:
                state = _run(state, action)
        else:
            if not covers(money_legal(state, type(action)), action, same_purchase(state)):
                raise RuleError("not_allowed", f"{type(action).__name__} is not possible for {corp} now "
                                               f"({turn.stage} step)")
            port = F.Port(state)
            money, depot, turn, events = OP.apply_money(state.money, state.depot, turn, action, F.context(state),
                                                         port)
            if events:
                money = M.apply_events(M.IrelandMoney(money=money, depot=depot, minor_order=state.minor_order),
                                       events).money
            state = F.with_board(F.learned(replace(state, money=money, depot=depot, operating=replace(op, turn=turn)),
                                           port))
            if isinstance(action, A.Bankrupt) or (isinstance(action, A.SellShares) and action.entity_type == "player"):
                state = _reorder(state, bankrupt=isinstance(action, A.Bankrupt))
    except B.BoardError as exc:
        raise _board_error(exc) from None
    state = F.check_end(state)
    if state.end is not None and state.end[1] == "immediate":
        return F.over(state)
    if isinstance(action, A.Assign) or action.entity_type == "company":
        # a private's ability used: the step it kept waiting may have nothing left to decide
        return F.resume_turn(state)
    return F.advance_operating(state)


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


def _assign(state: State, action: A.Assign) -> State:
    if action not in assignments(state):
        raise RuleError("cannot_assign", f"{action.entity} cannot be assigned to {action.target} now")
    op = state.operating
    assert op is not None and op.turn is not None
    money = O.close_private(state.money, str(action.entity))
    return replace(state, money=money, assigned={**state.assigned, str(action.entity): (action.target, op.turn.corp)})


def _at_stage(state: State, stage: str, what: str) -> tuple[OperatingRound, Any]:
    """The operating round and its company's turn, which must be at `stage`."""
    op = state.operating
    assert op is not None and op.turn is not None
    if op.turn.stage != stage:
        raise RuleError("not_now", f"{what} at the {stage} step")
    return op, op.turn


def _lay(state: State, action: A.LayTile) -> State:
    op, turn = _at_stage(state, "track", "tiles are laid")
    name = action.tile.rpartition("-")[0] or action.tile
    copy = BO.tile_copy(state, name)
    if copy is None:
        raise RuleError("tile_unavailable", f"no tile {name} is left")
    if action.tile != copy:
        raise RuleError("wrong_tile_copy", f"the next {name} tile is {copy}, not {action.tile}")
    if action.combo_entities:
        raise RuleError("not_allowed", "no private lays together with this company")
    lay = BO.check_lay(state, turn.corp, turn.lays, turn.upgraded, action.hex, name, action.rotation)
    m = BO.the_map()
    upgrade = B.tile_at(m, state.board, action.hex).tile.color != "white"
    board, lifted = B.lay_lifting(m, state.board, action.hex, name, action.rotation, copy)
    pending = [*state.pending, *(Pending(c, "relocate", action.hex, by=turn.corp) for c in lifted)]
    ctx = F.context(state)
    after = replace(F.board_changed(state, board), pending=pending)
    port = F.Port(after)
    money, turn = OP.record_lay(state.money, state.depot, turn, ctx, port, lay.cost, upgrade, settle=not lifted)
    return F.learned(replace(after, money=money, operating=replace(op, turn=turn)), port)


def token_cost(state: State, corp: str) -> int:
    ctx = F.context(state)
    return O.token_cost(ctx.token_prices[corp], ctx.tokens_used.get(corp, 0))


def _token(state: State, action: A.PlaceToken) -> State:
    op, turn = _at_stage(state, "token", "tokens are placed")
    _plain_token(action)
    cost = token_cost(state, turn.corp)
    coord, city = BO.find_node(state, action.city)
    spots = BO.token_spots(state, turn.corp, cost)
    board = BO.place(state, turn.corp, coord, city, spots, action.slot)
    ctx = F.context(state)
    after = F.board_changed(state, board)
    port = F.Port(after)
    money, turn, _ = OP.record_token(state.money, state.depot, turn, ctx, port)
    return F.learned(replace(after, money=money, operating=replace(op, turn=turn)), port)


def _plain_token(action: A.PlaceToken) -> None:
    if action.cost is not None or action.token_type is not None or (
            action.tokener is not None and action.tokener != action.entity):
        raise RuleError("not_allowed", "a company places its own token at its own price")


def _run(state: State, action: A.RunRoutes) -> State:
    op, turn = _at_stage(state, "route", "routes are run")
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
    port = F.Port(state)
    money, turn = OP.record_run(state.money, state.depot, turn, F.context(state), port, total)
    return F.learned(replace(state, money=money, operating=replace(op, turn=turn)), port)


def place_pending(state: State, action: A.PlaceToken) -> State:
    """The first waiting token (a major's home, or a home lifted by a lay) goes down."""
    waiting = state.pending[0]
    if action.entity != waiting.placer or action.entity_type != "corporation":
        raise RuleError("not_your_turn", f"{waiting.placer} must place {waiting.corp}'s token first")
    _plain_token(action)
    try:
        coord, city = BO.find_node(state, action.city)
        if waiting.kind == "home":
            spots = BO.home_spots(state, waiting.corp)
        else:
            spots = BO.relocation_spots(state, waiting.corp, waiting.hex or "")
        board = BO.place(state, waiting.corp, coord, city, spots, action.slot)
    except B.BoardError as exc:
        raise _board_error(exc) from None
    state = replace(F.board_changed(state, board), pending=state.pending[1:])
    if state.pending:
        return state
    if state.round == "stock":
        return F.after_stock_action(state)
    if state.round == "operating":
        return F.resume_turn(state)
    return state
