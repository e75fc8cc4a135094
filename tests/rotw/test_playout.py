"""Playouts: a simple sensible policy finishes games for 2-5 players; uniformly random legal
play never hits an error (every offered action is accepted) for a few hundred steps."""

from __future__ import annotations

import random

import pytest

from shared.games.rotw_england_wales import ENGINE

from .helpers import game, greedy_playout, playout


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_playout_finishes(players: int, seed: int) -> None:
    s, steps = greedy_playout(game(players, seed), random.Random(seed * 10 + players))
    res = ENGINE.result(s)
    assert res is not None, f"no result after {steps} steps (phase {s.phase}, turn {s.turn})"
    assert len(res.scores) == players and len(res.ranks) == players and 1 in res.ranks
    assert "empty cities" in res.reason
    assert ENGINE.active_seats(s) == frozenset()
    for seat in range(players):
        assert ENGINE.legal_actions(s, seat) == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_uniform_random_play_finishes(players: int, seed: int) -> None:
    # the policy of `roundhouse selfplay`: a uniform family, then a uniform member
    from shared.bots.random_bot import random_action

    s, rng, steps = game(players, seed), random.Random(seed), 0
    while ENGINE.result(s) is None and steps < 20000:
        seat = min(ENGINE.active_seats(s))
        s = ENGINE.apply(s, seat, random_action(ENGINE, s, seat, rng))
        steps += 1
    assert ENGINE.result(s) is not None, f"unfinished after {steps} random actions"


@pytest.mark.parametrize("players", [2, 5])
def test_random_legal_play_is_always_accepted(players: int) -> None:
    s, steps = playout(game(players, 11), random.Random(players), limit=600)
    assert steps == 600 or ENGINE.result(s) is not None
