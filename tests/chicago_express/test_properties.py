"""Property tests over random legal games for 2-6 players.

Two policies drive the games: `uniform` picks uniformly among the legal actions (a value
uniformly in a range), `westward` prefers building and the westmost hex, so that games
reach Chicago and open Wabash (uniform play almost never gets that far).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from shared.engine import LegalAction, RuleError
from shared.games.chicago_express import events as ev
from shared.games.chicago_express.actions import Action, Bid, Build, Choose, Develop, Done, Forgo, Offer, Pass
from shared.games.chicago_express.board import BOARD
from shared.games.chicago_express.money import total_money
from shared.games.chicago_express.state import State

from .positions import ENGINE, encoded

MAX_ACTIONS = 5000  # far above any real game: dials force a dividend phase, Detroit ends it
COMPANY_IDS = [c.id for c in BOARD.companies] + ["XYZ"]
HEX_IDS = list(BOARD.hex_ids) + ["Z9"]


def with_value(la: LegalAction, value: int) -> Any:
    assert la.range is not None
    return msgspec.structs.replace(la.action, **{la.range.field: value})


def uniform(state: State, seat: int, rng: random.Random) -> Any:
    la = rng.choice(ENGINE.legal_actions(state, seat))
    return la.action if la.range is None else with_value(la, rng.randint(la.range.min, la.range.max))


def westward(state: State, seat: int, rng: random.Random) -> Any:
    legal = ENGINE.legal_actions(state, seat)
    builds = [la.action for la in legal if isinstance(la.action, Build)]
    if builds:
        return min(builds, key=lambda a: (a.hex[0], rng.random()))
    if any(la.action == Choose("build") for la in legal) and rng.random() < 0.6:
        return Choose("build")
    la = rng.choice(legal)
    return la.action if la.range is None else with_value(la, rng.randint(la.range.min, la.range.max))


POLICIES = {"uniform": uniform, "westward": westward}


def is_listed(legal: list[LegalAction], action: Any) -> bool:
    for la in legal:
        if la.range is None:
            if la.action == action:
                return True
        elif type(la.action) is type(action):
            value = getattr(action, la.range.field)
            if value is not None and with_value(la, value) == action and la.range.min <= value <= la.range.max:
                return True
    return False


def random_probe(state: State, rng: random.Random) -> tuple[int, Any]:
    """Any action of the title with arbitrary fields, by any seat: mostly illegal."""
    seat = rng.randrange(len(state.players) + 1) if rng.random() < 0.2 else next(iter(ENGINE.active_seats(state)))
    amount = rng.randint(-3, max(state.cash) + 3)
    kind = rng.randrange(9)
    return seat, [
        Bid(amount),
        Pass(),
        Choose(rng.choice(["auction", "build", "develop"])),
        Offer(rng.choice(COMPANY_IDS), amount),
        Build(rng.choice(COMPANY_IDS), rng.choice(HEX_IDS)),
        Done(),
        Develop(rng.choice(HEX_IDS)),
        Forgo(),
        Offer(rng.choice(COMPANY_IDS)),
    ][kind]


def check_probe(state: State, seat: int, action: Any) -> None:
    """An action applies exactly when it is listed for the seat to act; refusals change nothing."""
    before = encoded(state)
    legal = ENGINE.legal_actions(state, seat) if 0 <= seat < len(state.players) else []
    try:
        after = ENGINE.apply(state, seat, action)
    except RuleError as exc:
        assert exc.code != "internal_error", exc
        assert not is_listed(legal, action), (action, exc)
    else:
        assert is_listed(legal, action), action
        assert total_money(after) == 0
    assert encoded(state) == before


def check_views(state: State) -> None:
    spectator = ENGINE.view(state, None)
    msgspec.json.encode(spectator)
    for seat in range(len(state.players)):
        assert ENGINE.view(state, seat) == spectator


def play_game(n: int, rng: random.Random, policy: str) -> tuple[State, list[tuple[int, Any]]]:
    state = ENGINE.setup([f"p{k}" for k in range(n)], {}, rng.randrange(1 << 30))
    actions: list[tuple[int, Any]] = []
    choose = POLICIES[policy]
    while ENGINE.active_seats(state):
        assert len(actions) < MAX_ACTIONS, "the game did not end"
        [seat] = ENGINE.active_seats(state)
        assert ENGINE.legal_actions(state, seat), "a seat to act must have a legal action"
        for other in range(n):
            if other != seat:
                assert ENGINE.legal_actions(state, other) == []
        if rng.random() < 0.3:
            check_probe(state, *random_probe(state, rng))
        if rng.random() < 0.03:
            check_views(state)
        action = choose(state, seat, rng)
        before = encoded(state)
        after = ENGINE.apply(state, seat, action)
        assert encoded(state) == before, "apply changed its input"
        assert total_money(after) == 0, "money was created or destroyed"
        assert min(after.cash) >= 0 and min(c.cash for c in after.companies) >= 0
        assert all(c.locos_left >= 0 and c.shares_left >= 0 for c in after.companies)
        actions.append((seat, action))
        state = after
    return state, actions


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    policy=st.sampled_from(sorted(POLICIES)),
)
def test_random_games(n: int, seed: int, policy: str) -> None:
    # One seed drives the whole game: a game draws far too many values for hypothesis to
    # generate (and shrink) each one.
    state, actions = play_game(n, random.Random(seed), policy)
    result = ENGINE.result(state)
    assert result is not None and result.scores == state.cash
    assert state.end_reasons and result.reason
    best = max(state.cash)
    assert result.winners == [s for s in range(n) if state.cash[s] == best]
    assert all(result.ranks[s] == 1 + sum(1 for c in state.cash if c > state.cash[s]) for s in range(n))
    check_views(state)
    assert ENGINE.view(state, None)["result"] == msgspec.to_builtins(result)

    # Replaying the same log gives the same game.
    replay = ENGINE.setup(state.players, {}, 0)
    for seat, action in actions:
        replay = ENGINE.apply(replay, seat, action)
    assert encoded(replay) == encoded(state)
    assert ENGINE.result(replay) == result

    # Wire round trip: the log as JSON decodes to the same actions.
    wire = msgspec.json.encode([a for _, a in actions])
    assert msgspec.json.decode(wire, type=list[Action]) == [a for _, a in actions]


def test_westward_games_reach_chicago() -> None:
    """The westward policy exercises the Chicago phase and Wabash (a check on the test itself)."""
    rng = random.Random(2024)
    reached = 0
    for _ in range(10):
        state, _ = play_game(rng.randint(2, 6), rng, "westward")
        reached += any(isinstance(e, ev.WabashOpened) for e in state.log)
    assert reached >= 8
