"""The view's `turn_options` (what each action of the turn allows, and why not) and hex
`label`s (words for hexes the map prints no name on), checked against the rules' own legal
actions over random games and against the board's adjacency."""

from __future__ import annotations

import random
from collections import deque

import pytest

from shared.games.chicago_express.actions import ActionName, Build, Choose, Develop, Offer
from shared.games.chicago_express.board import ACTIONS, BOARD
from shared.games.chicago_express.labels import LABELS
from shared.games.chicago_express.state import BUILD, CHOOSE, DEVELOP, OFFER, State

from .positions import ENGINE
from .test_properties import POLICIES

PHASE_OF = {"auction": OFFER, "build": BUILD, "develop": DEVELOP}


def games(seed: int, players: int, policy: str):
    """Every state of one random game."""
    rng = random.Random(seed)
    state = ENGINE.setup([f"p{i}" for i in range(players)], {}, 0)
    yield state
    while ENGINE.result(state) is None:
        seat = next(iter(ENGINE.active_seats(state)))
        state = ENGINE.apply(state, seat, POLICIES[policy](state, seat, rng))
        yield state


def what_it_allows(state: State, name: ActionName) -> list | None:
    """The legal actions once `name` is chosen (or now, when it is being carried out); None
    when it is not being carried out, or its dial is on red."""
    seat = state.current
    if state.phase == CHOOSE:
        if all(la.action != Choose(name) for la in ENGINE.legal_actions(state, seat)):
            return None
        state = ENGINE.apply(state, seat, Choose(name))
    elif state.phase != PHASE_OF[name]:
        return None
    kind = {"auction": Offer, "build": Build, "develop": Develop}[name]
    return [la.action for la in ENGINE.legal_actions(state, seat) if isinstance(la.action, kind)]


@pytest.mark.parametrize(("seed", "players", "policy"), [(1, 3, "uniform"), (2, 4, "westward"), (3, 2, "westward"), (4, 6, "uniform")])
def test_turn_options_say_what_the_legal_actions_allow(seed: int, players: int, policy: str) -> None:
    seen_impossible = 0
    for state in games(seed, players, policy):
        options = ENGINE.view(state, None)["turn_options"]
        if state.phase not in (CHOOSE, OFFER, BUILD, DEVELOP):
            assert options is None
            continue
        assert options["seat"] == state.current
        for name in ACTIONS:
            allowed = what_it_allows(state, name)
            option = options[name]
            if allowed is not None:
                assert option["possible"] is bool(allowed), (name, option, allowed)
                assert (option["why_not"] is None) is option["possible"]
                seen_impossible += not option["possible"]
            if name == "build" and allowed is not None:
                for company in option["companies"]:
                    count = sum(1 for a in allowed if a.company == company["company"])
                    assert company["hexes"] == count, company
                    assert (company["why_not"] is None) is (count > 0), company
    assert seen_impossible, "the games never met an action that can do nothing"


def test_a_player_without_shares_is_told_why_build_does_nothing() -> None:
    state = next(s for s in games(5, 3, "uniform") if s.phase == CHOOSE)
    holder = ENGINE.view(state, None)["players"][state.current]
    options = ENGINE.view(state, None)["turn_options"]["build"]
    if not any(holder["shares"].values()):
        assert options["why_not"].startswith("you hold no share")
    else:
        assert all(c["shares"] > 0 for c in options["companies"])


def graph_distance(a: int, b: int) -> int:
    seen, todo = {a: 0}, deque([a])
    while todo:
        h = todo.popleft()
        if h == b:
            return seen[h]
        for n in BOARD.neighbours[h]:
            if n not in seen:
                seen[n] = seen[h] + 1
                todo.append(n)
    raise AssertionError("not connected")


def test_every_hex_has_a_unique_label_the_map_can_explain() -> None:
    assert len(set(LABELS)) == len(LABELS) == len(BOARD.hex_ids)
    names = {name: h for h, name in enumerate(BOARD.names) if name}
    for h, label in enumerate(LABELS):
        if BOARD.names[h]:
            assert label == BOARD.names[h]
            continue
        # "<terrain> [<n> ]<direction> of <city>": the terrain is the hex's, the city a named
        # hex at that many steps over the board's own adjacency.
        terrain, rest = label.split(" ", 1)
        assert terrain == BOARD.terrain[h], label
        city = rest.split(" of ", 1)[1]
        steps = int(rest.split()[0]) if rest[0].isdigit() else 1
        assert graph_distance(h, names[city]) == steps, label
        assert "(" not in label and BOARD.hex_ids[h] not in label
