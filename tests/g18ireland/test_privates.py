"""Private companies' tile lays (18xx.games' tile_lay abilities in 18Ireland's entities): each
test hands a private to the company operating at a real position of an export (a position
built by giving the private, as a purchase would) and plays its ability through the engine."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from shared.engine import RuleError
from shared.families import expand
from shared.games import get_engine
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as TR
from shared.games.core18xx.export_log import decisions
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import from_18xx as X

from .exports import export_paths

EXPORTS = export_paths("18Ireland")
pytestmark = pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures "
                                                    "(or $ROUNDHOUSE_SHARED): no real positions")
ENGINE = get_engine("18ireland")


def _track_step(min_moves: int, yellow: bool = False) -> Any:
    """The first position after `min_moves` decisions where a company waits at its track step
    (with `yellow`: where it could lay a yellow tile on an empty hex)."""
    export = json.loads(EXPORTS[0].read_text())
    seats, options, seed = X.table(export)
    ids = X.player_ids(export)
    state = ENGINE.setup(seats, options, seed)
    for raw in decisions(export["actions"]):
        op = state.operating
        if state.moves >= min_moves and op is not None and op.turn is not None and op.turn.stage == "track" \
                and op.turn.lays == 0 and not state.pending and (not yellow or any(
                    B.tile_at(BO.the_map(), state.board, x.hex).tile.color == "white"
                    for x in BO.legal_lays(state, op.turn.corp, 0, False))):
            return state
        action = X.action(raw, ids)
        state = ENGINE.apply(state, X.actor(state, action), action)
    raise AssertionError("no track step")


def _give(state: Any, company: str) -> Any:
    corp = state.operating.turn.corp
    money = msgspec.structs.replace(state.money, companies={**state.money.companies, company: corp})
    return msgspec.structs.replace(state, money=money)


def _company_lays(state: Any, seat: int, company: str) -> list[Any]:
    return [la for la in ENGINE.legal_actions(state, seat)
            if isinstance(la.action, A.LayTile) and la.action.entity == company]


def test_donegal_lays_two_joined_tiles_first_on_donegal_then_closes() -> None:
    """DR: 'two connected yellow narrow-gauge tiles: one in Donegal and one in a hex next to it.
    Using it closes the company.'"""
    state = _give(_track_step(100), "DR")
    seat = next(iter(ENGINE.active_seats(state)))
    family = _company_lays(state, seat, "DR")
    assert family, "DR has a lay on Donegal"
    firsts = list(expand(family[0]))
    assert {a.hex for a in firsts} == {"F4"}
    state = ENGINE.apply(state, seat, firsts[0])
    assert state.pair == ("DR", "F4")
    # nothing else until the pair is complete
    others = [la for la in ENGINE.legal_actions(state, seat)
              if not isinstance(la.action, A.ProgramAction.__args__)]   # programs: at any time
    assert others and all(la.action.entity == "DR" for la in others)
    with pytest.raises(RuleError):
        ENGINE.apply(state, seat, A.Pass(entity=state.operating.turn.corp, entity_type="corporation"))
    seconds = list(expand(others[0]))
    assert seconds and all(a.hex != "F4" for a in seconds)
    m = BO.the_map()
    for a in seconds:
        name = a.tile.rpartition("-")[0]
        assert TR.tiles_connect(m, B.lay(m, state.board, a.hex, name, a.rotation), "F4", a.hex)
    done = ENGINE.apply(state, seat, seconds[0])
    assert done.pair is None and "DR" not in done.money.companies
    assert done.board.tiles["F4"][0] == firsts[0].tile.rpartition("-")[0]


def test_board_of_works_uses_one_of_the_company_lays_free_of_terrain() -> None:
    """BoW: 'may lay a yellow tile (as one of its tile lays) without paying terrain costs'."""
    state = _give(_track_step(100, yellow=True), "BoW")
    seat = next(iter(ENGINE.active_seats(state)))
    corp = state.operating.turn.corp
    family = _company_lays(state, seat, "BoW")
    assert family
    lays = list(expand(family[0]))
    m = BO.the_map()
    costly = [a for a in lays if B.tile_at(m, state.board, a.hex).tile.upgrade_cost > 0]
    action = costly[0] if costly else lays[0]
    cash = state.money.cash[corp]
    after = ENGINE.apply(state, seat, action)
    assert after.money.cash[corp] == cash                 # first lay: no terrain, no fee
    assert after.operating.turn.lays == 1                  # it was one of the company's lays
    assert after.special_used["BoW"] == 1 and after.money.companies.get("BoW") == corp


def test_a_private_the_company_does_not_own_cannot_lay() -> None:
    state = _track_step(100)
    seat = next(iter(ENGINE.active_seats(state)))
    assert state.money.companies.get("TIM") != state.operating.turn.corp
    with pytest.raises(RuleError):
        ENGINE.apply(state, seat, A.LayTile(entity="TIM", entity_type="company", hex="H0", tile="IM-0", rotation=0))
