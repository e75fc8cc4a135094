"""Which started company's president places its home token (18xx.games' `place_home_token`):
a major (no printed home); a minor reserving its whole home hex (no city named, Belfast's two
cities for UR) once track lies there; not a minor on a hex with no track yet (its token goes
to the first city, and moves when the first tile is laid), nor one with a named city."""

from __future__ import annotations

from shared.games.core18xx.board import state as B
from shared.games.g18ireland import board_ops as BO

from .positions import M, operating


def _state(board: B.BoardState):
    return operating(board, "DKR", presidents={"DKR": "0"})


def test_a_minor_reserving_its_whole_hex_chooses_once_track_lies_there() -> None:
    bare = B.initial(M)
    assert any(r.corp == "UR" and r.city < 0 for r in bare.reservations["J4"])
    assert not BO.needs_home(_state(bare), "UR")                  # no track on Belfast yet
    tracked = B.lay(M, bare, "J4", "IR1", 0)
    assert BO.needs_home(_state(tracked), "UR")
    assert [s.city for s in BO.home_spots(_state(tracked), "UR")] == [0, 1]
    assert not BO.needs_home(_state(B.place_token(M, tracked, "UR", "J4", 1)), "UR")   # placed already


def test_a_named_city_or_a_major() -> None:
    bare = B.initial(M)
    assert not BO.needs_home(_state(bare), "DDR")                 # Dublin, city 1 named
    assert BO.needs_home(_state(bare), "GSWR")                    # majors have no printed home
