"""18xx.games answers "can this company place a token?" from its graph's memo, emptied only
when a tile is laid or a token placed (Graph#can_token?, Tracker#lay_tile, Tokener#place_token):
an answer given before a company closed (its tokens leaving the map) stands after it, and the
company skips its token step although a slot is free now. Found replaying random games through
18xx.games' engine; `State.token_seen` keeps those answers. Hand-built position."""

from __future__ import annotations

from shared.families import expand
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.g18ireland import turn_context as TC

from .positions import ENGINE, M, operating, replace


def _ler_at_token_step(**kw):
    b = B.place_token(M, B.initial(M), "LER", "G1", 0)
    for coord, tile, rotation in (("G1", "5", 0), ("G3", "8", 3)):
        b = B.lay(M, b, coord, tile, rotation)
    return operating(b, "LER", presidents={"LER": "0"}, cash={"LER": 100}, phase="2", stage="token", **kw)


def test_an_answer_is_kept_until_the_board_changes() -> None:
    state = _ler_at_token_step()
    fresh = TC.can_token(state, "LER", 40)
    kept = TC.remember_token(state, "LER", 40)
    assert kept.token_seen == {"LER": fresh}
    # a stale "no" stands, whatever the board now says
    stale = replace(state, token_seen={"LER": not fresh})
    assert TC.can_token(stale, "LER", 40) is (not fresh)
    assert TC.remember_token(stale, "LER", 40) is stale
    # a tile laid or a token placed forgets every answer
    assert TC.board_changed(kept, kept.board).token_seen == {}


def test_a_lay_forgets_the_answers_of_every_company() -> None:
    state = _ler_at_token_step()
    state = replace(state, token_seen={"DDR": False, "UR": True},
                    operating=replace(state.operating, turn=replace(state.operating.turn, stage="track")))
    lay = next(a for la in ENGINE.legal_actions(state, 0) for a in expand(la) if isinstance(a, A.LayTile))
    after = ENGINE.apply(state, 0, lay)
    assert "DDR" not in after.token_seen and "UR" not in after.token_seen
