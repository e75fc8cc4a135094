"""Test helpers for Chicago Express: reaching positions by play, and arranging them by hand.

`open_game` plays the four opening auctions through the engine. `arrange` sets up a table
position directly, the way one would lay out the pieces of a rule-book example: it edits
a copy of the state (the given state is untouched), keeps each company's shares-left in
step with the holdings it sets, and pays every cash change through the bank account so
the ledger (bank + players + companies == 0) still balances. Locomotives placed by
`arrange` are not checked for adjacency or cost: they stand for a network built earlier.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shared.engine import RuleError
from shared.games import get_engine
from shared.games.chicago_express.actions import Bid, Choose, Forgo, Pass
from shared.games.chicago_express.board import ACTIONS, BOARD
from shared.games.chicago_express.state import N_COMPANIES, State, draft

ENGINE = get_engine("chicago-express")


def encoded(state: State) -> bytes:
    return msgspec.msgpack.encode(state)


def play(state: State, *moves: tuple[int, Any]) -> State:
    for seat, action in moves:
        state = ENGINE.apply(state, seat, action)
    return state


def assert_illegal(state: State, seat: int, action: Any, code: str) -> RuleError:
    """`action` by `seat` raises RuleError `code` and leaves `state` exactly as it was."""
    before = encoded(state)
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, seat, action)
    assert info.value.code == code, info.value
    assert encoded(state) == before
    return info.value


def opening_bids(n: int, prices: dict[str, tuple[int, int]]) -> list[tuple[int, Any]]:
    """Moves for the opening auctions: `prices[company] = (winner, price)`.

    In each auction every seat from the opener on passes except the winner, who bids
    `price` when its turn comes (a price of 0 means everyone passes: the opener gets it).
    """
    moves: list[tuple[int, Any]] = []
    opener = 0
    for c in BOARD.opening_auctions:
        winner, price = prices[BOARD.companies[c].id]
        order = [(opener + k) % n for k in range(n)]
        if price == 0:
            assert winner == opener, "a share nobody bids on goes to the opener"
            moves += [(seat, Pass()) for seat in order]
        else:
            moves += [(seat, Bid(price) if seat == winner else Pass()) for seat in order]
        opener = winner
    return moves


def open_game(n: int = 3, prices: dict[str, tuple[int, int]] | None = None) -> State:
    """A game after its opening auctions; by default seat k wins the k-th share at its price."""
    if prices is None:
        prices = {
            BOARD.companies[c].id: (k % n, BOARD.companies[c].opening_price)
            for k, c in enumerate(BOARD.opening_auctions)
        }
    state = ENGINE.setup([f"player{k}" for k in range(n)], {}, 0)
    return play(state, *opening_bids(n, prices))


def arrange(
    state: State,
    *,
    cash: dict[int, int] | None = None,
    companies: dict[str, dict[str, Any]] | None = None,
    holdings: dict[tuple[int, str], int] | None = None,
    locos: dict[str, list[str]] | None = None,
    houses: list[str] | None = None,
    dials: dict[str, int] | None = None,
    industry: dict[str, int] | None = None,
    supply: int | None = None,
    current: int | None = None,
) -> State:
    """A copy of `state` with the given pieces set (see the module docstring).

    `companies[id]` may set `cash`, `income` and `open`; `holdings[(seat, id)]` sets a
    player's share count; `locos[id]` adds locomotives on hex ids; `dials[action]` sets
    how often an action was chosen this round; `industry[hex id]` sets a track position;
    `supply` sets the houses left in the supply.
    """
    s = draft(state)
    s.locos = list(state.locos)
    s.houses = list(state.houses)
    for seat, amount in (cash or {}).items():
        s.bank -= amount - s.cash[seat]
        s.cash[seat] = amount
    for (seat, cid), count in (holdings or {}).items():
        c = BOARD.company_index[cid]
        k = seat * N_COMPANIES + c
        co = s.companies[c]
        s.companies[c] = msgspec.structs.replace(co, shares_left=co.shares_left - (count - s.shares[k]))
        assert s.companies[c].shares_left >= 0
        s.shares[k] = count
    for cid, changes in (companies or {}).items():
        c = BOARD.company_index[cid]
        if "cash" in changes:
            s.bank -= changes["cash"] - s.companies[c].cash
        s.companies[c] = msgspec.structs.replace(s.companies[c], **changes)
    for cid, hex_ids in (locos or {}).items():
        c = BOARD.company_index[cid]
        for hid in hex_ids:
            h = BOARD.hex_index[hid]
            s.locos[h] |= 1 << c
            co = s.companies[c]
            s.companies[c] = msgspec.structs.replace(co, locos_left=co.locos_left - 1, network=co.network + (h,))
    for hid in houses or []:
        s.houses[BOARD.hex_index[hid]] = True
        s.houses_supply -= 1
    for name, position in (dials or {}).items():
        s.dials[ACTIONS.index(name)] = position
    for hid, position in (industry or {}).items():
        ind = BOARD.industry_of[BOARD.hex_index[hid]]
        s.industry[ind] = position
    if supply is not None:
        s.houses_supply = supply
    if current is not None:
        s.current = current
    return s


def dividend_turn(state: State, seat: int = 0) -> State:
    """`seat` plays a turn that puts a second dial on red (auction already red, build one
    short): the dividend phase runs at its end."""
    s = arrange(state, dials={"auction": 3, "build": 4}, current=seat)
    return play(s, (seat, Choose("build")), (seat, Forgo()))


def company(state: State, cid: str) -> Any:
    return state.companies[BOARD.company_index[cid]]


def holding(state: State, seat: int, cid: str) -> int:
    return state.shares[seat * N_COMPANIES + BOARD.company_index[cid]]


def events(state: State, kind: type, since: int = 0) -> list[Any]:
    return [e for e in state.log[since:] if isinstance(e, kind)]
