"""Random legal play through the engine contract, on a second tiny title (Nim) and Chicago Express."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from shared.engine import LegalAction

from services.offline.random_play import PlayoutError, game_seeds, play_random_game, random_action
from tests.titles.nim import ENGINE as NIM
from tests.titles.nim import Nim, NimState, Shout, Take


def test_random_action_is_uniform_over_actions_and_range_values() -> None:
    state = NimState(seats=["a", "b"], piles=(5, 0, 2), max_take=3, turn=0)
    rng = random.Random(3)
    picks = Counter(random_action(NIM, state, 0, rng) for _ in range(6000))
    # Legal: pile 0 takes 1..3, pile 2 takes 1..2, or shout. A third of the draws go to each
    # legal action, then uniformly over its amounts.
    takes = {Take(count=c, pile=p) for p, top in ((0, 3), (2, 2)) for c in range(1, top + 1)}
    assert set(picks) == takes | {Shout("hey")}
    for action, n in picks.items():
        if isinstance(action, Shout):
            share = 1
        else:
            assert isinstance(action, Take)
            share = 3 if action.pile == 0 else 2
        expected = 6000 / 3 / share
        assert abs(n - expected) < expected * 0.15, (action, n)


def test_random_action_is_none_without_legal_actions() -> None:
    state = NimState(seats=["a", "b"], piles=(5,), max_take=3, turn=0, winner=0)
    assert random_action(NIM, state, 1, random.Random(0)) is None  # the game is over


def test_same_seeds_play_the_same_game() -> None:
    a = play_random_game(NIM, 3, *game_seeds(11, 4))
    b = play_random_game(NIM, 3, *game_seeds(11, 4))
    c = play_random_game(NIM, 3, *game_seeds(11, 5))
    assert a.actions == b.actions and a.result == b.result
    assert (c.seed, c.actions) != (a.seed, a.actions)


def test_a_nim_game_ends_with_the_last_taker_winning() -> None:
    playout = play_random_game(NIM, 2, *game_seeds(1, 0))
    assert playout.finished
    last_seat, _ = playout.actions[-1]
    assert playout.result is not None and playout.result.winners == [last_seat]
    taken = sum(a.count for _, a in playout.actions if isinstance(a, Take))
    assert taken == sum(NIM.setup(playout.seats, playout.options, playout.seed).piles)


def test_max_actions_cuts_a_game_short() -> None:
    playout = play_random_game(NIM, 2, *game_seeds(1, 0), max_actions=2)
    assert len(playout.actions) == 2
    assert not playout.finished and playout.result is None


class OffersTooMuch(Nim):
    """Breaks the contract: offers taking up to 9 counters, which apply refuses."""

    def legal_actions(self, state: NimState, seat: int) -> list[LegalAction]:
        return [LegalAction(Take(count=9))] if seat == state.turn else []


class NobodyMoves(Nim):
    def active_seats(self, state: NimState) -> frozenset[int]:
        return frozenset()


class NoMoves(Nim):
    def legal_actions(self, state: NimState, seat: int) -> list[LegalAction]:
        return []


@pytest.mark.parametrize(
    ("engine", "code"),
    [(OffersTooMuch(), "bad_amount"), (NobodyMoves(), "stuck"), (NoMoves(), "no_legal_action")],
)
def test_an_engine_breaking_its_contract_is_reported(engine: Nim, code: str) -> None:
    with pytest.raises(PlayoutError) as err:
        play_random_game(engine, 2, *game_seeds(1, 0))
    assert err.value.index == 0 and err.value.code == code
