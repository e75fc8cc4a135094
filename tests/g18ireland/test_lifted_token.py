"""A lay that lifts a home token (the first track tile on a two-city hex) stops the turn until
the token is back: 18xx.games' home-token step comes before every other, so nothing after the
lay (a second lay, the route, an automatic withhold) happens first. Hand-built position."""

from __future__ import annotations

from shared.families import expand
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B

from .positions import ENGINE, M, operating


def test_the_turn_waits_for_the_lifted_home_token() -> None:
    # UR (home Belfast, J4: two cities, no track yet), phase 2, too poor for a second lay, no train
    b = B.place_token(M, B.initial(M), "UR", "J4", 0)
    state = operating(b, "UR", presidents={"UR": "0"}, cash={"UR": 10}, phase="2")
    lay = next(a for la in ENGINE.legal_actions(state, 0) for a in expand(la)
               if isinstance(a, A.LayTile) and a.hex == "J4" and a.tile.startswith("IR1-"))
    price = state.money.price_of("UR")
    after = ENGINE.apply(state, 0, lay)
    assert [(p.corp, p.kind) for p in after.pending] == [("UR", "relocate")]
    assert after.operating.turn.stage == "track" and after.money.price_of("UR") == price
    token = next(a for la in ENGINE.legal_actions(after, 0) for a in expand(la) if isinstance(a, A.PlaceToken))
    placed = ENGINE.apply(after, 0, token)
    # now the turn moves on: nothing to run, so UR withholds nothing and its price moves left
    assert not placed.pending and B.token_hexes(placed.board, "UR")
    assert placed.money.price_of("UR") < price


def test_the_company_that_laid_the_tile_puts_the_lifted_tokens_back() -> None:
    """18xx.games' TOKEN_PLACEMENT_ON_TILE_LAY_ENTITY is the current operator: GNRI, laying
    Belfast's first tile, places UR's lifted token too (UR's president does not)."""
    b = B.place_token(M, B.place_token(M, B.initial(M), "UR", "J4", 0), "GNRI", "J4", 1)
    state = operating(b, "GNRI", presidents={"GNRI": "1", "UR": "0"}, cash={"GNRI": 100}, phase="2")
    lay = next(a for la in ENGINE.legal_actions(state, 1) for a in expand(la)
               if isinstance(a, A.LayTile) and a.hex == "J4" and a.tile.startswith("IR1-"))
    after = ENGINE.apply(state, 1, lay)
    assert sorted(p.corp for p in after.pending) == ["GNRI", "UR"]
    while after.pending:
        assert ENGINE.active_seats(after) == {1}
        token = next(a for la in ENGINE.legal_actions(after, 1) for a in expand(la) if isinstance(a, A.PlaceToken))
        assert token.entity == "GNRI"
        after = ENGINE.apply(after, 1, token)
    assert B.token_hexes(after.board, "UR") and B.token_hexes(after.board, "GNRI")
