"""End triggers (18xx.games' GAME_END_CHECK and GAME_END_TIMING_PRIORITY): a trigger met later
replaces an earlier one only if it ends the game sooner."""

from __future__ import annotations

import msgspec

from shared.games.core18xx import board as B
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
