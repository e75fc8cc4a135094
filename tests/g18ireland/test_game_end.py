"""End triggers (18xx.games' GAME_END_CHECK and GAME_END_TIMING_PRIORITY): a trigger met later
replaces an earlier one only if it ends the game sooner."""

from __future__ import annotations

import msgspec

from shared.games.core18xx.board import state as B
from shared.games.g18ireland import flow as F

from .positions import M, operating

replace = msgspec.structs.replace


def _broken_bank(state):
    return replace(state, money=replace(state.money, cash={**state.money.cash, "bank": -1}))


def test_the_market_end_cell_after_a_broken_bank_ends_the_game_with_this_round() -> None:
    state = operating(B.initial(M), "DKR", presidents={"DKR": "0"})
    state = F.check_end(_broken_bank(state))
    assert state.end == ("bank", "full_or")
    state = F.check_end(replace(state, money=replace(state.money, max_reached=True)))
    assert state.end == ("stock_market", "current_round")


def test_a_later_trigger_ending_no_sooner_changes_nothing() -> None:
    state = operating(B.initial(M), "DKR", presidents={"DKR": "0"})
    state = F.check_end(replace(state, money=replace(state.money, max_reached=True)))
    assert F.check_end(_broken_bank(state)).end == ("stock_market", "current_round")


def test_the_bank_breaks_at_the_action_that_takes_it_below_zero() -> None:
    """18xx.games checks its triggers after every action and keeps a broken bank broken: the
    trigger set by one action stays when a later one (a purchase from the pool, paying the
    bank) puts money back."""
    from shared.games.core18xx import actions as A

    from .positions import ENGINE
    state = _broken_bank(operating(B.initial(M), "DKR", presidents={"DKR": "0"}, stage="issue"))
    after = ENGINE.apply(state, 0, A.Pass(entity="DKR", entity_type="corporation"))
    assert after.end == ("bank", "full_or")
    restored = replace(after, money=replace(after.money, cash={**after.money.cash, "bank": 500}))
    assert F.check_end(restored).end == ("bank", "full_or")


def test_a_bank_broken_by_a_withheld_dividend_stays_broken_when_the_company_closes() -> None:
    """A company one cell right of the market's closing cell withholds more than the bank has:
    the bank breaks, the price moves onto the closing cell and the company closes, its cash
    going back to the bank. 18xx.games' bank stays broken (`Bank#broken?`), so the game ends
    after this set of operating rounds (differential replay, 4 December 2026)."""
    from shared.games.core18xx import actions as A
    from shared.games.core18xx.money import operating as O

    from .positions import ENGINE
    state = operating(B.initial(M), "DKR", presidents={"DKR": "0"}, cash={"DKR": 300}, stage="dividend")
    money = state.money
    closing = next((r, c) for r, row in enumerate(money.market.rows) for c, cell in enumerate(row)
                   if cell is not None and cell.closes)
    beside = (closing[0], closing[1] + 1)
    revenue = 110
    money = replace(money.place("DKR", beside), cash={**money.cash, "bank": revenue - 10})
    state = replace(state, money=money, operating=replace(state.operating, turn=replace(state.operating.turn,
                                                                                         revenue=revenue)))
    after = ENGINE.apply(state, 0, A.Dividend(entity="DKR", entity_type="corporation", kind="withhold"))
    assert after.money.corps["DKR"].closed
    # the bank paid out `revenue` from `revenue - 10` and took back the company's 300 + revenue
    assert after.money.cash["bank"] == 300 + revenue - 10
    assert O.bank_broken(after.money) and after.money.bank_broke
    assert after.end == ("bank", "full_or")
    # the same close with the bank never below zero breaks nothing
    rich = replace(state, money=replace(state.money, cash={**state.money.cash, "bank": 5000}))
    after = ENGINE.apply(rich, 0, A.Dividend(entity="DKR", entity_type="corporation", kind="withhold"))
    assert after.money.corps["DKR"].closed and after.end is None and not after.money.bank_broke
