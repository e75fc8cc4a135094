"""What follows every money change and decision in 18Ireland: companies on the market's
closing cell close and the board follows (`with_board`), end triggers are noted (`check_end`),
the game is over (`over`). Used by the flow and by every round's module; it calls none of them,
so rounds report back through the state and the flow decides what comes next."""

from __future__ import annotations

import msgspec

from shared.games.core18xx.memo import Last
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money.market import Market
from shared.games.core18xx.money.state import MoneyState
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland.state import State

replace = msgspec.structs.replace


def with_board(state: State) -> State:
    """After a money change: companies on the market's closing cell close (18xx.games'
    `close_corporations_in_close_cell!`, run after every action), then the board follows."""
    # A decision's step and `settle` after it both call this, mostly on the step's own result:
    # on its own result it changes nothing (the closed are closed, the board synced), so the
    # last result is known by identity (the answer is its own input: no call to ask).
    if _WITH_BOARD.value is state:
        return state
    money, depot = state.money, state.depot
    for sym in _on_closing_cell(money):
        money, depot = O.close_company(money, depot, sym)
    if money is not state.money:
        state = replace(state, money=money, depot=depot)
    board = BO.sync(state)
    out = state if board is state.board else replace(state, board=board)
    _WITH_BOARD.value = out
    return out


_WITH_BOARD = Last()


def _on_closing_cell(money: MoneyState) -> tuple[str, ...]:
    """Open companies whose price is on a closing cell; asked after every money change, mostly
    of the same `corps` dict (a price move copies it): the last answer is kept with it (read
    without a call)."""
    corps, market = money.corps, money.market
    known = _CLOSING.value
    if known is not None and known[0] is corps and known[1] is market:
        return known[2]
    cells = _closing_cells(market)
    found = tuple([sym for sym, corp in corps.items() if corp.price in cells and not corp.closed])
    _CLOSING.value = (corps, market, found)
    return found


def _closing_cells(market: Market) -> frozenset[tuple[int, int]]:
    """The market's closing cells (a game's market never changes: kept with it)."""
    known = _CELLS.value
    if known is not None and known[0] is market:
        return known[1]
    cells = frozenset((cell.row, cell.col) for row in market.rows for cell in row if cell is not None and cell.closes)
    _CELLS.value = (market, cells)
    return cells


_CELLS = Last()
_CLOSING = Last()


# --- the end ---------------------------------------------------------------------------------

# 18xx.games' GAME_END_TIMING_PRIORITY: a trigger met later replaces one met before only if it
# ends the game sooner (the bank broken for a full set, then the market's end cell for the
# current round: the game ends with this round, for the stock market)
END_TIMING_PRIORITY = ("immediate", "current_round", "current_or", "full_or", "one_more_full_or_set")


def check_end(state: State) -> State:
    """The end trigger after a decision. 18xx.games looks for triggers once per action, after
    the action itself and before the rounds it ends are followed by the next ones: a trigger
    those automatic rounds cause (privates' income breaking the bank in operating rounds with
    no company) is seen after the next action, or never in a game nobody can move in (which
    then runs to its 100th stock round). So this is asked right after each decision's own
    effect, never at a round's end."""
    # (asked again after the flow has moved on, mostly of the same money: the last answer is
    # kept with it)
    money = state.money
    known = _END.value
    if known is not None and known[0] is money:
        reason = known[1]
    else:
        reason = O.end_reason(money)
        _END.value = (money, reason)
    if reason is None:
        return state
    if state.end is None or END_TIMING_PRIORITY.index(reason[1]) < END_TIMING_PRIORITY.index(state.end[1]):
        return replace(state, end=reason)
    return state


_END = Last()


def over(state: State) -> State:
    return replace(state, round="over", auction=None, stock=None, operating=None, merger=None, pending=[])
