"""The bots: legal moves everywhere, decisions from the seat's observation only, the title kits."""

from __future__ import annotations

import random

import msgspec
import pytest

from shared.bots import BOT_NAMES, Budget, NoMove, UnknownBot, decide, get_bot
from shared.bots.chicago_express.options import ceiling, greedy_bid, resolve_auction
from shared.bots.chicago_express.value import phases_left, seat_values
from shared.bots.kits import GenericKit, get_kit
from shared.games import get_engine, titles
from shared.games.chicago_express.actions import Bid, Pass
from shared.games.chicago_express.state import AUCTION, OPENING

from tests.titles.sealed import ENGINE as SEALED

from .positions import FAST, positions

CHICAGO = get_engine("chicago-express")


@pytest.fixture(scope="module")
def chicago_positions() -> list:
    return positions(CHICAGO, 4, 3, seed=11, every=9) + positions(CHICAGO, 2, 2, seed=5, every=9)


def test_a_chicago_observation_is_the_true_state_without_its_log(chicago_positions) -> None:
    assert len(chicago_positions) > 100
    phases = set()
    for state in chicago_positions:
        phases.add(state.phase)
        truth = msgspec.structs.replace(state, log=[])
        for seat in range(len(state.players)):
            assert CHICAGO.redact(state, seat, 5) == truth
    assert phases >= {"auction", "choose", "offer", "build", "develop", "over"}


@pytest.mark.parametrize("title", titles())
@pytest.mark.parametrize("bot", BOT_NAMES)
def test_every_bot_plays_a_legal_move_in_every_position(title: str, bot: str, chicago_positions) -> None:
    engine = get_engine(title)
    states = chicago_positions if title == "chicago-express" else positions(engine, engine.meta.min_players, 8, seed=2, max_states=40)
    rng = random.Random(7)
    moved = 0
    for state in states:
        for seat in sorted(engine.active_seats(state)):
            action = decide(engine, engine.redact(state, seat, 1), seat, bot, rng, FAST)
            engine.apply(state, seat, action)  # raises RuleError if illegal
            moved += 1
    assert moved > 50


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_bots_play_simultaneous_hidden_information_games_legally(bot: str) -> None:
    rng = random.Random(3)
    for state in positions(SEALED, 3, 6, seed=40):
        for seat in sorted(SEALED.active_seats(state)):
            SEALED.apply(state, seat, decide(SEALED, SEALED.redact(state, seat, 2), seat, bot, rng, FAST))


@pytest.mark.parametrize("bot", BOT_NAMES)
def test_a_bot_decides_from_what_its_seat_knows_alone(bot: str) -> None:
    """Two deals that look the same to seat 0 (its hand, nothing else) get the same move."""
    base = SEALED.setup(["a", "b", "c"], {}, 1)
    others = sorted(c for h in base.hands[1:] for c in h)
    swapped = msgspec.structs.replace(base, hands=[base.hands[0], others[3:], others[:3]])
    assert SEALED.view(base, 0) == SEALED.view(swapped, 0) and base != swapped
    assert SEALED.redact(base, 0, 3) == SEALED.redact(swapped, 0, 3)
    moves = [decide(SEALED, SEALED.redact(s, 0, 3), 0, bot, random.Random(9), FAST) for s in (base, swapped)]
    assert moves[0] == moves[1]


def test_search_is_reproducible_with_an_iteration_budget(chicago_positions) -> None:
    state = next(s for s in chicago_positions if s.phase == "choose" and s.round > 1)
    seat = state.current
    observation = CHICAGO.redact(state, seat, 0)
    moves = {msgspec.json.encode(decide(CHICAGO, observation, seat, "mcts", random.Random(4), Budget(iterations=60)))
             for _ in range(3)}
    assert len(moves) == 1


def test_bots_refuse_a_seat_that_is_not_to_act() -> None:
    state = CHICAGO.setup(["a", "b"], {}, 0)
    idle = 1 - next(iter(CHICAGO.active_seats(state)))
    for bot in BOT_NAMES:
        with pytest.raises(NoMove, match=f"seat {idle}"):
            decide(CHICAGO, CHICAGO.redact(state, idle, 0), idle, bot, random.Random(1), FAST)


def test_unknown_bot_names_are_refused() -> None:
    with pytest.raises(UnknownBot, match="bots are random, heuristic, mcts"):
        get_bot("alphazero")


def test_the_generic_kit_samples_what_the_seat_does_not_know() -> None:
    state = SEALED.setup(["a", "b", "c"], {}, 0)
    kit = get_kit(SEALED)
    assert isinstance(kit, GenericKit) and not kit.exact and get_kit(CHICAGO).exact
    samples = [kit.determinize(SEALED, SEALED.redact(state, 0, 0), 0, random.Random(i)) for i in range(20)]
    assert all(s.hands[0] == state.hands[0] for s in samples)  # its own hand is known
    assert len({tuple(map(tuple, s.hands[1:])) for s in samples}) > 1  # the others are sampled


# --- Chicago Express knowledge ----------------------------------------------------------------


def _opening(players: int = 2):
    state = CHICAGO.setup([f"P{i}" for i in range(players)], {}, 0)
    assert state.phase == AUCTION and state.auction.kind == OPENING
    return state


def test_the_opening_share_is_worth_buying_but_not_with_all_the_cash() -> None:
    state = _opening()
    top = ceiling(state, 0)
    assert state.auction.min_bid <= top < state.cash[0]


def test_a_seat_that_cannot_afford_the_lowest_bid_passes() -> None:
    state = _opening()
    poor = msgspec.structs.replace(state, cash=[3, state.cash[1]])
    assert greedy_bid(poor, 0) == Pass()


def test_resolving_an_auction_sells_to_the_highest_ceiling_at_one_above_the_next() -> None:
    state = CHICAGO.apply(_opening(3), 0, Bid(7))
    ceilings = {seat: ceiling(state, seat) for seat in (1, 2)}
    after = resolve_auction(state)
    assert after.auction is None or after.auction.company != state.auction.company
    buyer = next(seat for seat in range(3) if after.shares[seat * 5] == 1)
    paid = state.cash[buyer] - after.cash[buyer]
    assert paid <= max(ceilings.get(buyer, 7), 7)
    assert after.companies[0].cash == paid


def test_values_are_cash_once_the_game_is_over(chicago_positions) -> None:
    over = [s for s in chicago_positions if s.phase == "over"]
    assert over
    for state in over:
        assert phases_left(state) == 0
        assert seat_values(state) == [float(c) for c in state.cash]


def test_values_grow_with_income_held(chicago_positions) -> None:
    state = next(s for s in chicago_positions if s.phase == "choose" and sum(s.shares[0::5]) > 0)
    holder = next(seat for seat in range(len(state.players)) if state.shares[seat * 5] > 0)
    richer = msgspec.structs.replace(
        state, companies=[msgspec.structs.replace(state.companies[0], income=state.companies[0].income + 5),
                          *state.companies[1:]]
    )
    assert seat_values(richer)[holder] > seat_values(state)[holder]
