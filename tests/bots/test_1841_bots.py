"""1841's bots (the 18xx kit, `shared/bots/kit18xx/`, on 1841's adapter and decisions,
`shared/bots/g1841/`): the heuristic's decisions on positions of its own games, whole games of
three or more heuristics to a real end with legal moves only, and the heuristic ahead of
random players.

1841's set-up has no randomness and the heuristic none either, so games of heuristics differ
by the number of players and the options, not by the seed."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from shared.bots import Budget, decide
from shared.bots.g1841 import KIT
from shared.bots.g1841.params import Params1841
from shared.engine import is_program
from shared.games import get_engine

from services.offline.arena import Job, play_game

ENGINE = get_engine("1841")
REAL_ENDS = {"bank", "stock_market", "offboards", "bankrupt"}
TUSCAN = {"SFLP", "SSFL", "SFMA"}


def play(players: int, options: dict[str, Any], until: Callable[[Any, int], bool] | None = None,
         limit: int = 3000) -> tuple[Any, int]:
    """Heuristics play from the set-up: the first position where `until(state, seat)`, or the end."""
    rng = random.Random(0)
    state = ENGINE.setup([f"P{i}" for i in range(players)], options, 1)
    seat = 0
    for _ in range(limit):
        if ENGINE.result(state) is not None:
            return state, seat
        seat = min(ENGINE.active_seats(state))
        if until is not None and until(state, seat):
            return state, seat
        action = decide(ENGINE, ENGINE.redact(state, seat, 0), seat, "heuristic", rng, Budget())
        state = ENGINE.apply(state, seat, action)     # legal, or this raises
    pytest.fail(f"{players} heuristics did not finish in {limit} decisions")


def kinds(state: Any, seat: int) -> set[str]:
    return {type(la.action).__name__ for la in ENGINE.legal_actions(state, seat) if not is_program(la.action)}


def choice(state: Any, seat: int) -> Any:
    action = KIT.greedy(ENGINE, state, seat, random.Random(0))
    ENGINE.apply(state, seat, action)
    return action


# --- decisions ------------------------------------------------------------------------------------

def test_it_opens_the_auction_on_a_tuscan_concession_at_the_minimum() -> None:
    state = ENGINE.setup(["a", "b", "c", "d"], {}, 1)
    action = choice(state, 0)
    assert type(action).__name__ == "Bid"
    assert action.company in TUSCAN and action.price == 20


def test_it_founds_at_a_par_whose_capital_buys_a_train_and_tokens() -> None:
    state, seat = play(4, {}, lambda s, seat: s.round == "stock" and not s.founding and "Par" in kinds(s, seat))
    action = choice(state, seat)
    assert type(action).__name__ == "Par"
    price = state.money.market.by_id(action.share_price).price
    assert isinstance(KIT.params, Params1841)
    assert 2 * price >= 100 + KIT.params.token_reserve
    assert 4 * price <= state.money.cash[state.players[seat]]      # room to buy it up to 40 %


def test_a_founding_buys_tokens_and_keeps_its_train_money() -> None:
    state, seat = play(4, {}, lambda s, seat: bool(s.founding) and s.founding[0].kind == "tokens")
    corp = state.founding[0].corp
    action = choice(state, seat)
    after = ENGINE.apply(state, seat, action)
    assert after.money.cash[corp] >= 100


def test_a_corporation_without_a_train_buys_one() -> None:
    def waiting(s: Any, seat: int) -> bool:
        op = s.operating
        return (s.round == "operating" and op is not None and op.turn is not None and not s.event
                and not s.founding and not s.depot.owned_by(op.turn.corp) and "BuyTrain" in kinds(s, seat))
    state, seat = play(4, {}, waiting)
    assert type(choice(state, seat)).__name__ == "BuyTrain"


# --- whole games ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3])
def test_heuristics_finish_a_game_with_legal_moves(players: int) -> None:
    record = play_game(Job(title="1841", lineup=["heuristic"] * players, game=0, seed=1, budget=Budget(),
                           max_actions=3000))
    assert record.finished and record.reason in REAL_ENDS, record.reason
    assert record.illegal == [0] * players


@pytest.mark.parametrize("options", [{"version_1": True}])
def test_heuristics_finish_every_option_set(options: dict[str, Any]) -> None:
    state, _ = play(4, options)
    result = ENGINE.result(state)
    assert result is not None and result.reason in REAL_ENDS, result


def test_the_heuristic_beats_random_players() -> None:
    record = play_game(Job(title="1841", lineup=["heuristic", "random", "random", "random"], game=0, seed=1,
                           budget=Budget(), max_actions=10_000))
    assert record.finished, record.reason
    assert record.illegal == [0, 0, 0, 0]
    assert record.scores[0] == max(record.scores) and record.scores[0] > 2 * max(record.scores[1:])
