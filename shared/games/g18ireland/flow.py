"""Where 18Ireland goes next: the sequence of rounds, as 18xx.games runs it.

Private auction (waterfall) -> stock round -> a set of operating rounds (as many as the phase
at the set's start says) -> a merger round after the set's last operating round from phase 4
on (not in phase 2) -> the next stock round. The game ends as `core18xx.money.operating.end_reason`
says when: bankruptcy of all but one player at once, the market's end cell after the current
round, a broken bank after the current set of operating rounds.

Each round is a list of steps on the core's `Round` (`ROUNDS`, by kind): a decision goes to the
round in play, which routes it to its step; after it the round moves on by itself (`advance`:
private revenue, skipped companies and players, steps with nothing to decide) and says when it
is `finished`; then the round's successor (`_AFTER`, by kind) starts the next one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from shared.games.core18xx.rounds import stock as SR
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import money as M
from shared.games.g18ireland import operating_round as OPR
from shared.games.g18ireland import programs as PG
from shared.games.g18ireland.common_steps import Play
from shared.games.g18ireland.merging import MERGER, start_merger
from shared.games.g18ireland.state import State
from shared.games.g18ireland.stock_round import AUCTION, STOCK, STOCK_RULES
from shared.games.g18ireland.stock_round import start_stock as _start_stock
from shared.games.g18ireland.upkeep import check_end, over, with_board

replace = msgspec.structs.replace

COMPANY_VALUES = {c["sym"]: c["value"] for c in M.ENTITIES["companies"]}
COMPANY_REVENUE = OPR.COMPANY_REVENUE
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]
LAST_TURN = 100     # 18xx.games' `@turn >= 100`: the stock round after which an unfinished game stops

ROUNDS: dict[str, Play] = {"auction": AUCTION, "stock": STOCK, "operating": OPR.OPERATING, "merger": MERGER}

__all__ = ["COMPANY_REVENUE", "COMPANY_VALUES", "MINORS", "STOCK_RULES", "ROUNDS", "check_end", "decide", "over", "settle",
           "with_board"]


def decide(state: State, seat: int, action: Any) -> State:
    """One decision, routed by the round in play to its step."""
    return ROUNDS[state.round].decide(state, seat, action)


def settle(state: State) -> State:
    """After every decision: companies on the closing cell close, the round in play moves on
    by itself, and each round found finished is followed by the next (a loop, not a recursion:
    rounds where nobody can act follow each other without a decision)."""
    state = with_board(state)
    while True:
        play = ROUNDS.get(state.round)
        if play is None:        # over
            return state
        state = play.advance(state)
        if not play.finished(state):
            return state
        state = _AFTER[state.round](state)


def entered(state: State, kind: str) -> State:
    """A round of `kind` begins: programs that do not fit it are dropped (18xx.games' round change)."""
    p = state.programs
    return replace(state, programs=PG.entered(p, kind)) if p.held or p.history else state


def start_stock(state: State) -> State:
    return _start_stock(with_board(entered(state, "stock")))


def start_operating(state: State, number: int, rounds: int) -> State:
    return OPR.start(with_board(entered(state, "operating")), number, rounds)


def _after_auction(state: State) -> State:
    auction = state.auction
    assert auction is not None
    sold = M.apply_private_sales(M.IrelandMoney(money=state.money, depot=state.depot, minor_order=state.minor_order),
                                 auction.sales, state.setup.companies)
    order = state.players[auction.entity_index:] + state.players[:auction.entity_index]
    state = replace(state, money=replace(sold.money, players=order), depot=sold.depot, auction=None)
    return start_stock(with_board(state))


def _after_stock(state: State) -> State:
    sr = state.stock
    assert sr is not None
    money = replace(state.money, players=SR.priority_after(state.money, sr))
    if money.turn >= LAST_TURN:
        # 18xx.games stops a game still running when its 100th stock round ends ("did not
        # finish"); a game where no company is left and none can start gets there on its own
        return over(replace(state, money=money, end=("dnf", "immediate")))
    state = replace(state, money=money)
    if state.end is not None and state.end[1] == "current_round":
        return over(state)
    return start_operating(state, 1, state.depot.current_phase.operating_rounds)


def _after_operating(state: State) -> State:
    op = state.operating
    assert op is not None
    if state.end is not None and state.end[1] in ("immediate", "current_round"):
        return over(state)
    if op.number < op.rounds:
        return start_operating(state, op.number + 1, op.rounds)
    if state.end is not None:
        return over(state)
    if BO.phase(state) != "2":
        return entered(start_merger(state), "merger")
    return _next_set(state)


def _next_set(state: State) -> State:
    return start_stock(replace(state, money=replace(state.money, turn=state.money.turn + 1), operating=None,
                               merger=None))


_AFTER: dict[str, Callable[[State], State]] = {"auction": _after_auction, "stock": _after_stock,
                                               "operating": _after_operating, "merger": _next_set}

