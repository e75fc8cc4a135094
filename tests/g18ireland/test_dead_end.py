"""A game where no company is left and none can start goes on as 18xx.games' does: rounds with
nothing to decide (privates still pay their owners) until its 100th stock round ends, then it
is over with reason `dnf`. Random games reach this often; the first few seeds are searched."""

from __future__ import annotations

from shared.games import get_engine

from services.offline.random_play import game_seeds, play_random_game

ENGINE = get_engine("18ireland")


def test_a_stuck_game_runs_to_the_hundredth_stock_round() -> None:
    for index in range(12):
        seed, rng = game_seeds(3, index)
        game = play_random_game(ENGINE, 3, seed, rng)
        if game.result is not None and game.result.reason == "dnf":
            break
    else:
        raise AssertionError("no random game of the first 12 got stuck")
    state = game.state
    assert state.money.turn == 100 and state.round == "over"
    assert not any(c.ipoed and not c.closed for c in state.money.corps.values())
    assert len(game.result.scores) == 3 and min(game.result.ranks) == 1
