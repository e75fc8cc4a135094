"""Replaying an 18xx.games 18Ireland export on the money side, for importing and checking.

The private auction, the stock rounds and the merger votes run through our own steps, so every
one of those decisions is checked (whose turn, legality, amounts). Operating-round decisions are
applied for their money: the board's own checks (is this tile lay legal, is this route right) and
costs come from the board side, given here as `lay_cost`; the route revenues are the export's.
The flow of operating rounds (who operates when, automatic withholds when a company earns
nothing, the merger round after the last operating round of a set from phase 4, the end of the
game) is ours.

Limitation kept explicit: the merger round's "no further minor can be added, vote now" depends on
track connectivity, a board fact; here a `choose` arriving while a proposal is still open starts
the vote, and proposals themselves are taken as the export made them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from shared.engine import RuleError
from shared.games.core18xx import emergency as E
from shared.games.core18xx import operating as O
from shared.games.core18xx import shares as S
from shared.games.core18xx import trains as T
from shared.games.core18xx.export_log import decisions
from shared.games.core18xx.legal import covers
from shared.games.core18xx.money_state import MoneyState
from shared.games.core18xx.steps import merger as MG
from shared.games.core18xx.steps import operating_money as OM
from shared.games.core18xx.steps import stock_round as SR
from shared.games.core18xx.steps import waterfall_auction as W
from shared.games.g18ireland import money as M
from shared.games.g18ireland import operating as OP
from shared.games.g18ireland.setup_random import draw_setup

LayCost = Callable[[MoneyState, str, dict[str, Any], int], int]   # (money, company, lay_tile action, lay n) -> cost

COMPANY_VALUES = {c["sym"]: c["value"] for c in M.ENTITIES["companies"]}
COMPANY_REVENUE = {c["sym"]: c["revenue"] for c in M.ENTITIES["companies"]}
TOKEN_PRICES = {c["sym"]: c["tokens"] for c in M.ENTITIES["corporations"]}
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]
RULES = SR.StockRules()


class ReplayError(Exception):
    def __init__(self, index: int, move: dict[str, Any], reason: str) -> None:
        super().__init__(f"decision {index} {move.get('type')} by {move.get('entity')}: {reason}")
        self.index = index


class Replay(msgspec.Struct):
    money: MoneyState
    depot: T.Depot
    minor_order: list[str]
    tokens_used: dict[str, int]
    end: tuple[str, str] | None = None
    used: int = 0                     # decisions consumed
    total: int = 0                    # decisions in the export


def _no_lay_cost(money: MoneyState, company: str, action: dict[str, Any], n: int) -> int:
    return 0


class ReplayBoard(Protocol):
    """The board side as the replay needs it: it follows every decision in order (`see`), prices
    a tile lay before seeing it, and answers the operating steps' questions (`OP.BoardPort`)."""

    def see(self, move: dict[str, Any]) -> None: ...

    def lay(self, move: dict[str, Any], lays_done: int, upgraded: bool, dargan: bool) -> tuple[int, bool]:
        """(cost, is an upgrade) of the lay `move`, on the board before it."""
        ...

    def can_token(self, corp: str, cost: int, cash: int) -> bool: ...

    def can_run(self, corp: str) -> bool: ...

    def tokens_placed(self, corp: str) -> int: ...

    def connected(self, minor: str, other: str) -> bool:
        """Merger rounds: `minor`'s broad-gauge network reaches `other`'s token."""
        ...

    def same_tile(self, minor: str, other: str) -> bool:
        """Merger rounds: both home tokens lie on one tile."""
        ...


class _Cursor:
    def __init__(self, moves: list[dict[str, Any]], board: ReplayBoard | None = None) -> None:
        self.moves = moves
        self.i = 0
        self.board = board

    def peek(self) -> dict[str, Any] | None:
        return self.moves[self.i] if self.i < len(self.moves) else None

    def take(self) -> dict[str, Any]:
        move = self.moves[self.i]
        self.i += 1
        if self.board is not None and move["type"] != "lay_tile":
            self.board.see(move)                  # lays are priced first, then seen
        return move


Observer = Callable[[str, Any, str], None]   # (round kind, step state(s), acting player)


def replay(export: dict[str, Any], lay_cost: LayCost = _no_lay_cost, check_legal: bool = False,
           observe: Observer | None = None, board: ReplayBoard | None = None) -> Replay:
    """Replay `export`. With `check_legal`, every auction and stock-round decision must also be
    one of the legal actions our steps list at that moment (a check of `legal()` itself).
    With a `board`, operating rounds run through `g18ireland.operating`'s step machine: every
    pass and decision must fall on a step that waits for it, lay costs come from the board."""
    players = [str(p["id"]) for p in export["players"]]
    companies = list(COMPANY_VALUES)
    setup = draw_setup(export["settings"]["seed"], companies, MINORS)
    larger = "larger_bank" in (export["settings"].get("optional_rules") or [])
    state = M.initial(players, setup, larger_bank=larger)
    cur = _Cursor(decisions(export["actions"]), board)

    # --- opening auction ---
    auction = W.new_waterfall(players, {p: state.money.cash[p] for p in players},
                              [(c, COMPANY_VALUES[c]) for c in setup.companies])
    while not auction.finished:
        move = cur.take()
        if observe is not None:
            observe("auction", auction, str(move["entity"]))
        _expect(cur, move, str(move["entity"]) == auction.active_player(), "not the auction's player")
        if check_legal:
            _expect(cur, move, covers(W.legal(auction, str(move["entity"])), _as_action(move)), "not a listed legal action")
        auction = _guard(cur, move, lambda: W.apply(auction, str(move["entity"]), _as_action(move)))
    state = M.apply_private_sales(state, auction.sales, setup.companies)
    order = players[auction.entity_index:] + players[:auction.entity_index]
    tokens_used = {s: (1 if c.ipoed else 0) for s, c in state.money.corps.items()}
    rp = Replay(money=msgspec.structs.replace(state.money, players=order), depot=state.depot,
                minor_order=state.minor_order, tokens_used=tokens_used)

    while rp.end is None or rp.end[1] not in ("immediate",):
        if cur.peek() is None:
            break
        _stock_round(rp, cur, check_legal, observe)
        if _ended(rp, "current_round") or cur.peek() is None:
            break
        rounds = rp.depot.current_phase.operating_rounds
        for number in range(1, rounds + 1):
            if board is not None:
                _operating_round_strict(rp, cur, board, check_legal)
            else:
                _operating_round(rp, cur, lay_cost, check_legal)
            if rp.end is not None and rp.end[1] in ("immediate", "current_round"):
                break
            if number == rounds and rp.depot.current_phase.name != "2" and rp.end is None:
                _merger_round(rp, cur, check_legal, board)
        if rp.end is not None:
            break
        rp.money = msgspec.structs.replace(rp.money, turn=rp.money.turn + 1)
    rp.used, rp.total = cur.i, len(cur.moves)
    return rp


def _ended(rp: Replay, when: str) -> bool:
    return rp.end is not None and rp.end[1] == when


def _check_end(rp: Replay) -> None:
    reason = O.end_reason(rp.money)
    if reason is not None and rp.end is None:
        rp.end = reason
    elif reason is not None and reason[1] == "immediate":
        rp.end = reason


def result(rp: Replay) -> dict[str, int]:
    return {p: O.player_value(rp.money, p, COMPANY_VALUES) for p in rp.money.players}


def summary(rp: Replay) -> dict[str, Any]:
    """What `roundhouse import-18xx` prints: the players' final values (by 18xx.games player id)
    and why the game ended, in 18xx.games' words."""
    return {"result": result(rp), "game_end_reason": rp.end[0] if rp.end else None}


# --- stock round ---------------------------------------------------------------------------

def _stock_round(rp: Replay, cur: _Cursor, check_legal: bool = False, observe: Observer | None = None) -> None:
    money, sr = SR.start(rp.money, rp.minor_order, rp.depot.current_phase.name, RULES)
    while not sr.finished:
        nxt = cur.peek()
        if nxt is not None and nxt["type"] == "place_token" and nxt["entity_type"] == "corporation":
            # a major just started places its home token (free): a board decision
            cur.take()
            rp.tokens_used[str(nxt["entity"])] = rp.tokens_used.get(str(nxt["entity"]), 0) + 1
            continue
        move = cur.take()
        player = str(move["entity"])
        if observe is not None:
            observe("stock", (money, sr), player)
        _expect(cur, move, player == SR.active_player(money, sr), f"stock round expects {SR.active_player(money, sr)}")
        if check_legal:
            offered = SR.legal(money, sr, player, RULES)
            _expect(cur, move, covers(offered, _as_action(move), _same_purchase(money)), "not a listed legal action")
            _apply_all(cur, move, offered, lambda act, m=money, s=sr, p=player: SR.apply(m, s, p, act, RULES))
        money, sr = _guard(cur, move, lambda: SR.apply(money, sr, player, _as_action(move), RULES))
    rp.money = msgspec.structs.replace(money, players=SR.priority_after(money, sr))
    _check_end(rp)


# --- operating rounds ----------------------------------------------------------------------

# Steps of a turn in order; tile lays and token placements interleave (a home token may follow
# the lay of its tile), so they share a stage.
STAGE = {"sell_shares": 1, "buy_shares": 1, "lay_tile": 2, "place_token": 2, "run_routes": 4,
         "dividend": 5, "buy_train": 6, "discard_train": 6, "bankrupt": 6}


class _Turn:
    def __init__(self, corp: str) -> None:
        self.corp = corp
        self.lays = 0
        self.revenue: int | None = None     # None: has not run
        self.paid = False
        self.stage = 0
        self.step = E.TrainBuy(company=corp)

    def starts_again(self, kind: str) -> bool:
        """The same company acting at an earlier step: its next operating round has begun."""
        stage = STAGE.get(kind)
        if stage is None:
            return False
        if stage < self.stage or (kind == "lay_tile" and self.lays >= 2):
            return True
        return (kind == "run_routes" and self.revenue is not None) or (kind == "dividend" and self.paid
                                                                         and self.revenue is not None and self.stage >= 5)


def _operating_round(rp: Replay, cur: _Cursor, lay_cost: LayCost, check_legal: bool = False) -> None:
    rp.money = O.pay_private_revenue(rp.money, COMPANY_REVENUE)
    order = rp.money.operating_order()
    done: list[str] = []
    turn: _Turn | None = None
    while True:
        move = cur.peek()
        if move is None:
            break
        entity = str(move["entity"])
        etype = move["entity_type"]
        if etype == "company":
            owner = rp.money.companies.get(entity)
            _expect(cur, move, turn is not None and owner == turn.corp, "private not owned by the operating company")
            cur.take()
            _company_action(rp, cur, move)
            continue
        if etype == "player":
            in_emergency = turn is not None and move["type"] in ("sell_shares",) and \
                rp.money.book.president_of(turn.corp) == entity and E.may_sell(rp.money, rp.depot, turn.step)
            if not in_emergency:
                break                               # the next stock or merger round starts
            cur.take()
            if check_legal:
                offered = OM.emergency(rp.money, rp.depot, turn.step)  # type: ignore[union-attr]
                _check_listed(cur, move, rp.money, offered, rp, turn)  # type: ignore[arg-type]
            _emergency_sale(rp, cur, move, turn)   # type: ignore[arg-type]
            continue
        if turn is not None and entity == turn.corp and turn.starts_again(move["type"]):
            break                                   # same company, next operating round
        if turn is None or entity != turn.corp:
            if entity in done:
                break                               # a new operating round starts
            _expect(cur, move, entity in order, f"{entity} does not operate in this round")
            if turn is not None:
                _finish_turn(rp, turn)
                done.append(turn.corp)
            for skipped in order[: order.index(entity)]:
                if skipped not in done:
                    _finish_turn(rp, _Turn(skipped))
                    done.append(skipped)
            turn = _Turn(entity)
        cur.take()
        turn.stage = max(turn.stage, STAGE.get(move["type"], 0))
        if check_legal:
            _check_money_decision(rp, cur, move, turn)
        _corporation_action(rp, cur, move, turn, lay_cost)
        if rp.end is not None and rp.end[1] == "immediate":
            return
    if turn is not None:
        _finish_turn(rp, turn)
        done.append(turn.corp)
    for rest in order:
        if rest not in done:
            _finish_turn(rp, _Turn(rest))
    _check_end(rp)


def _operating_round_strict(rp: Replay, cur: _Cursor, board: ReplayBoard, check_legal: bool = False) -> None:
    """An operating round through the step machine, the board answering its questions."""
    rp.money = O.pay_private_revenue(rp.money, COMPANY_REVENUE)
    order = rp.money.operating_order()
    ctx = OP.context(rp.tokens_used)
    done: list[str] = []
    turn: OP.OrTurn | None = None

    def sync(corp: str) -> OP.OrContext:
        return msgspec.structs.replace(ctx, tokens_used={**ctx.tokens_used, corp: board.tokens_placed(corp)})

    def finish(t: OP.OrTurn) -> None:
        rp.money, t = OP.advance(rp.money, rp.depot, t, ctx, board)
        if t.stage != "done":
            move = cur.peek() or {"type": "end", "entity": "-"}
            raise ReplayError(cur.i, move, f"{t.corp}'s {t.stage} step still waits for a decision")
        done.append(t.corp)

    def ended() -> bool:
        return rp.end is not None and rp.end[1] == "immediate"

    while not ended():
        move = cur.peek()
        if move is None:
            break
        entity, etype, kind = str(move["entity"]), move["entity_type"], move["type"]
        if etype == "company":
            _expect(cur, move, turn is not None and rp.money.companies.get(entity) == turn.corp,
                    "private not owned by the operating company")
            cur.take()
            _company_action(rp, cur, move)
            continue
        if etype == "player":
            if turn is None or kind != "sell_shares" or turn.stage != "buy_train":
                break                                   # the next stock or merger round
            cur.take()
            if check_legal:
                _expect(cur, move, covers(OP.legal_money(rp.money, rp.depot, turn, ctx), _as_action(move),
                                          _same_purchase(rp.money)), "not a listed emergency sale")
            rp.money, rp.depot, turn, _ = _guard(cur, move, lambda: OP.apply_money(
                rp.money, rp.depot, turn, _as_action(move), ctx, board))
            continue
        if turn is not None and entity == turn.corp and turn.stage == "done":
            break                                       # same company: the next operating round
        if turn is None or entity != turn.corp:
            if entity in done:
                break
            _expect(cur, move, entity in order, f"{entity} does not operate in this round")
            if turn is not None:
                finish(turn)
            for skipped in order[: order.index(entity)]:
                if skipped not in done:
                    ctx = sync(skipped)
                    rp.money, t = OP.start(rp.money, rp.depot, skipped, ctx, board)
                    finish(t)
            ctx = sync(entity)
            rp.money, turn = OP.start(rp.money, rp.depot, entity, ctx, board)
        cur.take()
        if kind == "lay_tile":
            cost, upgrade = board.lay(move, turn.lays, turn.upgraded, rp.money.companies.get(ctx.dargan) == entity)
            board.see(move)
            rp.money, turn = _guard(cur, move, lambda: OP.record_lay(rp.money, rp.depot, turn, ctx, board, cost, upgrade))
        elif kind == "place_token":
            if turn.stage == "token":
                rp.money, turn, ctx = _guard(cur, move, lambda: OP.record_token(rp.money, rp.depot, turn, ctx, board))
            else:                                       # a home token placed late (a city chosen on a new tile)
                ctx = sync(entity)
        elif kind == "run_routes":
            revenue = sum(r.get("revenue", 0) for r in move["routes"]) + (move.get("extra_revenue") or 0)
            rp.money, turn = _guard(cur, move, lambda: OP.record_run(rp.money, rp.depot, turn, ctx, board, revenue))
        elif kind != "destination_connection":
            if check_legal:
                _expect(cur, move, covers(OP.legal_money(rp.money, rp.depot, turn, ctx), _as_action(move),
                                          _same_purchase(rp.money)), f"not listed at the {turn.stage} step")
            rp.money, rp.depot, turn, events = _guard(cur, move, lambda: OP.apply_money(
                rp.money, rp.depot, turn, _as_action(move), ctx, board))
            if events:
                state = M.apply_events(M.IrelandMoney(money=rp.money, depot=rp.depot, minor_order=rp.minor_order), events)
                rp.money = state.money
        _check_end(rp)
    if not ended():
        if turn is not None and turn.corp not in done:
            finish(turn)
        for rest in order:
            if rest not in done:
                ctx = sync(rest)
                rp.money, t = OP.start(rp.money, rp.depot, rest, ctx, board)
                finish(t)
    rp.tokens_used.update(ctx.tokens_used)
    _check_end(rp)


def _check_money_decision(rp: Replay, cur: _Cursor, move: dict[str, Any], turn: _Turn) -> None:
    """The operating round's money decisions must be among the legal actions we list."""
    kind = move["type"]
    money, depot, corp = rp.money, rp.depot, turn.corp
    phase = depot.current_phase
    if kind in ("sell_shares", "buy_shares"):
        offered = OM.issue_redeem(money, corp)
    elif kind == "dividend":
        offered = OM.dividend(corp, turn.revenue or 0)
    elif kind == "buy_company":
        offered = OM.buy_company(money, corp, COMPANY_VALUES, phase.status)
    elif kind == "buy_train":
        offered = OM.buy_train(money, depot, turn.step, phase.name in ("10", "D"))
    elif kind == "bankrupt":
        offered = OM.emergency(money, depot, turn.step)
    else:
        return
    _check_listed(cur, move, money, offered, rp, turn)


def _check_listed(cur: _Cursor, move: dict[str, Any], money: MoneyState, offered: list[Any],
                  rp: Replay | None = None, turn: _Turn | None = None) -> None:
    _expect(cur, move, covers(offered, _as_action(move), _same_purchase(money)),
            f"not a listed legal action (offered {[o.action for o in offered]})")
    if rp is not None and turn is not None:
        _apply_all(cur, move, offered, lambda act: _apply_money(rp, turn, act))


def _apply_money(rp: Replay, turn: _Turn, action: Any) -> Any:
    """Apply one listed operating-round money action to copies (nothing is kept)."""
    from shared.games.core18xx import actions as A
    money, depot, corp = rp.money, rp.depot, turn.corp
    if isinstance(action, A.SellShares) and action.entity == corp:
        return O.issue_one(money, corp)
    if isinstance(action, A.BuyShares) and action.entity == corp:
        return O.redeem_one(money, corp)
    if isinstance(action, A.Dividend):
        return O.run_dividend(money, corp, turn.revenue or 0, action.kind)  # type: ignore[arg-type]
    if isinstance(action, A.BuyCompany):
        return O.buy_company(money, corp, action.company, action.price, COMPANY_VALUES[action.company])
    if isinstance(action, A.BuyTrain):
        return E.buy(money, depot, turn.step, action.train, action.price, action.exchange,
                     phase_allows_trade=depot.current_phase.name in ("10", "D"))
    if isinstance(action, A.SellShares):
        return E.emergency_sell(money, depot, turn.step, action.shares, action.percent)
    if isinstance(action, A.Bankrupt):
        return E.bankrupt(money, depot, turn.step)
    raise RuleError("unknown", f"{action}")


def _finish_turn(rp: Replay, turn: _Turn) -> None:
    """Automatic end of a turn: a company that earned nothing withholds (its price falls)."""
    _auto_dividend(rp, turn)


def _auto_dividend(rp: Replay, turn: _Turn) -> None:
    if turn.paid or rp.money.corps[turn.corp].closed:
        return
    if not turn.revenue:
        rp.money, _ = O.run_dividend(rp.money, turn.corp, 0, "withhold")
        turn.paid = True


def _corporation_action(rp: Replay, cur: _Cursor, move: dict[str, Any], turn: _Turn, lay_cost: LayCost) -> None:
    kind = move["type"]
    corp = turn.corp
    money = rp.money
    if kind == "pass" or kind == "destination_connection":
        return
    if kind == "lay_tile":
        cost = lay_cost(money, corp, move, turn.lays)
        turn.lays += 1
        if cost:
            rp.money = msgspec.structs.replace(money, cash=_guard(cur, move, lambda: S.pay(money.cash, corp, S.BANK, cost)))
        return
    if kind == "place_token":
        prices = TOKEN_PRICES[corp]
        used = rp.tokens_used.get(corp, 0)
        cost = prices[used] if used < len(prices) else 0
        rp.tokens_used[corp] = used + 1
        if cost:
            rp.money = msgspec.structs.replace(money, cash=_guard(cur, move, lambda: S.pay(money.cash, corp, S.BANK, cost)))
        return
    if kind == "run_routes":
        turn.revenue = sum(r.get("revenue", 0) for r in move["routes"]) + (move.get("extra_revenue") or 0)
        if not turn.revenue:
            _auto_dividend(rp, turn)
        return
    if kind == "dividend":
        _expect(cur, move, bool(turn.revenue) and not turn.paid, "no revenue to pay or withhold")
        rp.money, _ = _guard(cur, move, lambda: O.run_dividend(money, corp, turn.revenue or 0, move["kind"]))
        turn.paid = True
        _check_end(rp)
        return
    if kind == "sell_shares":
        _expect(cur, move, O.can_issue(money, corp), "cannot issue")
        rp.money = _guard(cur, move, lambda: O.issue_one(money, corp))
        return
    if kind == "buy_shares":
        _expect(cur, move, O.can_redeem(money, corp), "cannot redeem")
        rp.money = _guard(cur, move, lambda: O.redeem_one(money, corp))
        return
    if kind == "buy_company":
        company = move["company"]
        rp.money = _guard(cur, move, lambda: O.buy_company(money, corp, company, move["price"], COMPANY_VALUES[company]))
        return
    if kind == "buy_train":
        _auto_dividend(rp, turn)
        _buy_train(rp, cur, move, turn)
        return
    if kind == "discard_train":
        rp.depot = _guard(cur, move, lambda: T.discard(rp.depot, corp, move["train"]))
        return
    if kind == "bankrupt":
        _auto_dividend(rp, turn)
        rp.money, rp.depot = _guard(cur, move, lambda: E.bankrupt(rp.money, rp.depot, turn.step))
        _check_end(rp)
        return
    raise ReplayError(cur.i - 1, move, f"unexpected {kind} in an operating round")


def _buy_train(rp: Replay, cur: _Cursor, move: dict[str, Any], turn: _Turn) -> None:
    depot = rp.depot
    train = depot.trains.get(move["train"])
    _expect(cur, move, train is not None, "unknown train")
    assert train is not None
    price = move["price"]
    corp = turn.corp
    exchange = move.get("exchange")
    phase = depot.current_phase.name
    money = rp.money
    trade_ok = phase in ("10", "D")
    money, depot, step, purchase = _guard(cur, move, lambda: E.buy(money, depot, turn.step, train.id, price,
                                                                     exchange, phase_allows_trade=trade_ok))
    turn.step = step
    rp.money, rp.depot = money, depot
    state = M.apply_events(M.IrelandMoney(money=rp.money, depot=rp.depot, minor_order=rp.minor_order), purchase.events)
    rp.money = state.money


def _emergency_sale(rp: Replay, cur: _Cursor, move: dict[str, Any], turn: _Turn) -> None:
    rp.money, turn.step = _guard(cur, move, lambda: E.emergency_sell(rp.money, rp.depot, turn.step, move["shares"],
                                                                      move.get("percent")))


def _company_action(rp: Replay, cur: _Cursor, move: dict[str, Any]) -> None:
    if move["type"] == "assign":
        rp.money = O.close_private(rp.money, str(move["entity"]))       # CDSPC/TASPS close on use
        return
    raise ReplayError(cur.i - 1, move, "unexpected private-company action")


# --- merger round --------------------------------------------------------------------------

def _merger_round(rp: Replay, cur: _Cursor, check_legal: bool = False, board: ReplayBoard | None = None) -> None:
    """With a board, proposals run through `merger.propose` with the board's connectivity (a
    proposal goes to the vote by itself when no minor can be added); without one, proposals are
    taken as made and a vote arriving early means the board found no further partner."""
    def yes(a: str, b: str) -> bool:
        return True

    def no(a: str, b: str) -> bool:
        return False

    connected = board.connected if board is not None else yes
    same_tile = board.same_tile if board is not None else no

    money = rp.money
    mr = MG.start(money)
    while not mr.finished:
        move = cur.peek()
        if move is None or move["entity_type"] != "player":
            break
        player = str(move["entity"])
        kind = move["type"]
        if board is None and kind == "choose" and not mr.to_vote and mr.merging and mr.outcome is None:
            mr = MG.put_to_vote(money, mr, mr.proposer or player)          # the board found no more partners
            continue
        if kind not in ("merge", "choose", "pass"):
            break
        cur.take()
        _expect(cur, move, player == MG.active_player(money, mr), f"merger round expects {MG.active_player(money, mr)}")
        if check_legal:
            # connectivity is the board's: with every minor taken as connected, the export's
            # decision must be among ours (share limits, holdings, votes, targets)
            _expect(cur, move, covers(MG.legal(money, mr, player, connected, same_tile), _as_action(move)),
                    "not a listed merger-round action")
        if kind == "choose":
            mr = _guard(cur, move, lambda: MG.vote(money, mr, player, str(move["choice"])))
        elif kind == "pass":
            mr = _guard(cur, move, lambda: MG.pass_(money, mr, player, connected, same_tile))
        elif mr.outcome == "for":
            major = move["corporation"]
            merged = list(mr.merging or [])
            money, rp.depot, mr = _guard(cur, move, lambda: MG.complete(money, rp.depot, mr, player, major))
            rp.tokens_used[major] = min(len(merged), len(TOKEN_PRICES[major]))
        elif board is not None:
            mr = _guard(cur, move, lambda: MG.propose(money, mr, player, move["corporation"], connected, same_tile))
        else:
            minor = move["corporation"]
            merging = [*(mr.merging or []), minor]
            _expect(cur, move, minor in MG.floated_minors(money), f"{minor} cannot merge")
            mr = msgspec.structs.replace(mr, merging=merging, proposer=player)
            if len(merging) == MG.LIMIT_MERGE:
                mr = MG.put_to_vote(money, mr, player)
    rp.money = money


# --- helpers -------------------------------------------------------------------------------

def _apply_all(cur: _Cursor, move: dict[str, Any], offered: list[Any], apply_one: Callable[[Any], Any]) -> None:
    """Every listed legal action applies (each end of a range), and the value past a range does not."""
    for item in offered:
        values = [item.action]
        if item.range is not None:
            r = item.range
            values = [msgspec.structs.replace(item.action, **{r.field: v}) for v in sorted({r.min, r.max})]
        for action in values:
            try:
                apply_one(action)
            except RuleError as exc:
                raise ReplayError(cur.i - 1, move, f"listed action refused: {action} ({exc.code})") from None
        if item.range is not None:
            past = msgspec.structs.replace(item.action, **{item.range.field: item.range.max + item.range.step})
            try:
                apply_one(past)
            except RuleError:
                continue
            raise ReplayError(cur.i - 1, move, f"unlisted action accepted: {past}")


def _same_purchase(money: MoneyState) -> Callable[[Any, Any], bool]:
    """Buying any certificate of the same company, holder and size is the same decision;
    selling the same certificates in another order too."""
    from shared.games.core18xx import actions as A

    def same(offered: Any, action: Any) -> bool:
        if isinstance(offered, A.BuyShares) and isinstance(action, A.BuyShares):
            a = money.book.certs.get(action.shares[0]) if len(action.shares) == 1 else None
            o = money.book.certs[offered.shares[0]]
            return a is not None and (o.corporation, o.percent, money.book.owner[o.id]) == (
                a.corporation, a.percent, money.book.owner[a.id])
        if isinstance(offered, A.SellShares) and isinstance(action, A.SellShares):
            if offered.percent != action.percent or len(offered.shares) != len(action.shares):
                return False
            mine = [money.book.certs.get(c) for c in action.shares]
            theirs = [money.book.certs[c] for c in offered.shares]
            if any(c is None for c in mine):
                return False
            key = lambda c: (c.corporation, c.percent, c.president)  # noqa: E731
            return sorted(map(key, theirs)) == sorted(map(key, mine))  # type: ignore[arg-type]
        return False
    return same


def _as_action(move: dict[str, Any]) -> Any:
    from shared.games.core18xx import actions as A
    plain = {k: v for k, v in move.items() if k not in ("id", "user", "created_at", "auto_actions")}
    plain["entity"] = str(plain["entity"])
    return A.decode_export_action(plain)


def _expect(cur: _Cursor, move: dict[str, Any], ok: bool, reason: str) -> None:
    if not ok:
        raise ReplayError(cur.i - 1, move, reason)


def _guard(cur: _Cursor, move: dict[str, Any], fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except RuleError as exc:
        raise ReplayError(cur.i - 1, move, f"{exc.code}: {exc.message}") from None
