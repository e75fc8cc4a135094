"""Where 18Ireland goes next: the sequence of rounds, as 18xx.games runs it.

Private auction (waterfall) -> stock round -> a set of operating rounds (as many as the phase
at the set's start says) -> a merger round after the set's last operating round from phase 4
on (not in phase 2) -> the next stock round. The game ends as `core18xx.money.operating.end_reason`
says when: bankruptcy of all but one player at once, the market's end cell after the current
round, a broken bank after the current set of operating rounds.

Everything automatic happens here, inside `apply`: private revenue, skipped companies, a
company's steps with nothing to decide (`operating.advance`), the end of a round.
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from shared.games.core18xx.memo import Last
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import operating as O
from shared.games.g18ireland import merger_round as MG
from shared.games.core18xx.rounds import stock as SR
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import money as M
from shared.games.g18ireland import company_turn as OP
from shared.games.g18ireland.merging import auto_pass
from shared.games.g18ireland import programs as PG
from shared.games.g18ireland.map import SPECIAL_LAY_COUNTS
from shared.games.g18ireland.state import OperatingRound, State
from shared.games.g18ireland.upkeep import check_end, over, with_board

replace = msgspec.structs.replace

COMPANY_VALUES = {c["sym"]: c["value"] for c in M.ENTITIES["companies"]}
COMPANY_REVENUE = {c["sym"]: c["revenue"] for c in M.ENTITIES["companies"]}
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]
STOCK_RULES = M.STOCK_RULES
LAST_TURN = 100     # 18xx.games' `@turn >= 100`: the stock round after which an unfinished game stops


class Port:
    """The board's answers to the operating step machine, on one state; the token answers it
    works out are kept in the state by `learned`."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.learned: dict[str, bool] = {}

    def can_token(self, corp: str, cost: int, cash: int) -> bool:
        # 18xx.games (Graph#can_token?) answers from its graph's memo, emptied only when a tile
        # is laid or a token placed: an answer given before a company closed stands after it
        seen = self.state.token_seen.get(corp, self.learned.get(corp))
        if seen is None:
            seen = self.learned[corp] = bool(BO.token_spots(self.state, corp, cost))
        return seen

    def can_run(self, corp: str) -> bool:
        return BO.can_run(self.state, corp)

    def used_up(self, company: str) -> bool:
        # an assignment closes its private: only lays are counted
        return self.state.special_used.get(company, 0) >= SPECIAL_LAY_COUNTS.get(company, 1 << 30)


def learned(state: State, port: Port) -> State:
    """`state` with the token answers `port` worked out kept."""
    if not port.learned:
        return state
    return replace(state, token_seen={**state.token_seen, **port.learned})


def board_changed(state: State, board: B.BoardState) -> State:
    """A tile laid or a token placed: the new board, and 18xx.games forgets its token answers."""
    return replace(state, board=board, token_seen={})


@lru_cache(maxsize=1)
def _base_context() -> OP.OrContext:
    return OP.context({})


def context(state: State) -> OP.OrContext:
    """The operating context with tokens used read off the board, plus a home token lifted by
    a lay and waiting to go back."""
    # asked several times per decision, and the tokens change only when one is placed or moved:
    # the last context is kept, keyed by the tokens dict, the companies and the lifted homes
    tokens, corps = state.board.tokens, tuple(state.money.corps)
    lifted = tuple(p.corp for p in state.pending if p.kind == "relocate")
    hit = _CONTEXT.get((tokens,), (corps, lifted))
    if hit is not None:
        return hit
    owners = B.token_owners(state.board)    # one index for all companies
    used = {sym: len(owners.get(sym, ())) for sym in corps}
    for corp in lifted:
        if corp in used:
            used[corp] += 1
    return _CONTEXT.put((tokens,), replace(_base_context(), tokens_used=used), (corps, lifted))


_CONTEXT = Last()


def settle(state: State) -> State:
    """After every decision: companies on the closing cell close; what they took with them may
    leave the player or company to act with nothing to do, and play moves on by itself."""
    state = _run_sets(with_board(state))
    sr = state.stock
    if state.round == "stock" and sr is not None and not state.pending and not sr.finished and sr.auction is None \
            and not SR.is_open(state.money, sr, SR.current_player(state.money, sr), STOCK_RULES):
        money, sr = SR._after_action(state.money, sr, STOCK_RULES)
        return _run_sets(after_stock_action(with_board(replace(state, money=money, stock=sr))))
    if state.round == "operating":
        return _run_sets(advance_operating(state))
    return state


# --- stock rounds ------------------------------------------------------------------------------

def entered(state: State, kind: str) -> State:
    """A round of `kind` begins: programs that do not fit it are dropped (18xx.games' round change)."""
    p = state.programs
    return replace(state, programs=PG.entered(p, kind)) if p.held or p.history else state


def start_stock(state: State) -> State:
    state = with_board(entered(state, "stock"))
    money, sr = SR.start(state.money, state.minor_order, BO.phase(state), STOCK_RULES)
    state = with_board(replace(state, money=money, round="stock", stock=sr, operating=None, merger=None))
    return after_stock_action(state)


def after_stock_action(state: State) -> State:
    sr = state.stock
    assert sr is not None
    if not sr.finished or state.pending:
        return state
    money = replace(state.money, players=SR.priority_after(state.money, sr))
    if money.turn >= LAST_TURN:
        # 18xx.games stops a game still running when its 100th stock round ends ("did not
        # finish"); a game where no company is left and none can start gets there on its own
        return over(replace(state, money=money, end=("dnf", "immediate")))
    state = replace(state, money=money)
    if state.end is not None and state.end[1] == "current_round":
        return over(state)
    return start_operating(state, 1, state.depot.current_phase.operating_rounds)


# --- operating rounds ----------------------------------------------------------------------------

def start_operating(state: State, number: int, rounds: int) -> State:
    state = with_board(entered(state, "operating"))
    money = O.pay_private_revenue(state.money, COMPANY_REVENUE)
    op = OperatingRound(number=number, rounds=rounds, order=money.operating_order())
    state = replace(state, money=money, round="operating", stock=None, merger=None, operating=op)
    return advance_operating(state)


def _start_turn(state: State, index: int) -> State:
    op = state.operating
    assert op is not None
    corp = op.order[index]
    port = Port(state)
    money, turn = OP.start(state.money, state.depot, corp, context(state), port)
    return learned(replace(state, money=money, operating=replace(op, index=index, turn=turn)), port)


def advance_operating(state: State) -> State:
    """Past finished turns to the next company with a decision, or the end of the round."""
    while True:
        if state.pending or state.round != "operating":
            return state
        op = state.operating
        assert op is not None
        if op.turn is not None and op.turn.stage != "done":
            if state.money.corps[op.turn.corp].closed:
                op = replace(op, turn=replace(op.turn, stage="done"))
                state = replace(state, operating=op)
            else:
                return state
        index = op.index if op.turn is None else op.index + 1
        while index < len(op.order) and state.money.corps[op.order[index]].closed:
            index += 1
        if index >= len(op.order):
            return end_operating(state)
        state = _start_turn(state, index)


def resume_turn(state: State) -> State:
    """After a token placed out of turn: the current company's steps may have changed. (Nothing
    moves while a token still waits to be placed.)"""
    if state.pending:
        return state
    op = state.operating
    if op is None or op.turn is None or op.turn.stage == "done":
        return advance_operating(state)
    port = Port(state)
    money, turn = OP.advance(state.money, state.depot, op.turn, context(state), port)
    return advance_operating(learned(replace(state, money=money, operating=replace(op, turn=turn)), port))


def end_operating(state: State) -> State:
    op = state.operating
    assert op is not None
    if state.end is not None and state.end[1] in ("immediate", "current_round"):
        return over(state)
    if op.number < op.rounds:
        return start_operating(state, op.number + 1, op.rounds)
    if state.end is not None:
        return over(state)
    if BO.phase(state) != "2":
        state = entered(replace(state, round="merger", operating=None, merger=MG.start(state.money)), "merger")
        state = auto_pass(state)
        return after_merger_action(state)
    return next_set(state)


def next_set(state: State) -> State:
    """The set is over; `settle` starts the next stock round (a loop there, not a recursion:
    rounds where nobody can act follow each other without a decision)."""
    return replace(state, round="next_set", operating=None, merger=None)


def _run_sets(state: State) -> State:
    while state.round == "next_set":
        money = replace(state.money, turn=state.money.turn + 1)
        state = start_stock(replace(state, money=money))
    return state


def phase_name(state: State) -> str:
    return state.depot.current_phase.name


def after_merger_action(state: State) -> State:
    mr = state.merger
    assert mr is not None
    if not mr.finished:
        return state
    return next_set(replace(state, merger=None))
