"""Borders that change during a game (1841's province borders open by phase): held in the board
state, read by reach, lays and routes, and part of every cache key. On a small synthetic map:
two cities joined by track across one hex edge, and two blank hexes beyond."""

from __future__ import annotations

import pytest

from shared.games.core18xx.board import hexgrid
from shared.games.core18xx.board import network as N
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as T
from shared.games.core18xx.board.mapdef import from_data
from shared.games.core18xx.board.view import board_view
from shared.games.core18xx.memo import clear_all

WEST = "D2"
EDGE = 0     # WEST's edge toward EAST: four hexes in a column, WEST, EAST, BLANK, END
EAST = hexgrid.neighbour(WEST, EDGE)
BLANK = hexgrid.neighbour(EAST, EDGE)
END = hexgrid.neighbour(BLANK, EDGE)
BACK = (EDGE + 3) % 6

MAP = from_data({
    "title": "synthetic", "layout": "flat",
    "hexes": {
        WEST: {"color": "yellow", "code": f"city=revenue:20;path=a:{EDGE},b:_0"},
        EAST: {"color": "yellow", "code": f"city=revenue:30;path=a:{BACK},b:_0;path=a:{EDGE},b:_0"},
        BLANK: {"color": "white", "code": ""},
        END: {"color": "white", "code": ""},
    },
    "tiles": {"8": {"color": "yellow", "count": 2, "code": "path=a:0,b:2;path=a:2,b:0"},
              "9": {"color": "yellow", "count": 2, "code": "path=a:0,b:3"}},
    "homes": {"X": [WEST, 0]},
})

# the title's data: which borders each phase keeps shut (phase "2": the province border between
# WEST and EAST; from phase "3" on, open)
CLOSED_BY_PHASE = {"2": [(WEST, EDGE)], "3": []}
ROUTE = R.RouteSpec(train="2-0", connections=[[WEST, EAST]], nodes=[f"{WEST}-0", f"{EAST}-0"])
CTX = R.RouteContext("X", ("yellow",), R.RouteRules(distance="stops"))


def board(phase: str) -> B.BoardState:
    b = B.place_token(MAP, B.initial(MAP), "X", WEST, 0)
    return B.with_closed(MAP, b, CLOSED_BY_PHASE[phase])


def test_both_sides_of_a_closed_border_are_closed() -> None:
    b = board("2")
    assert set(b.closed) == {(WEST, EDGE), (EAST, BACK)}
    assert B.linked(MAP, b, WEST, EDGE) is None and B.linked(MAP, b, EAST, BACK) is None
    assert B.with_closed(MAP, b, CLOSED_BY_PHASE["2"]) is b      # same borders: the same board


def test_the_border_opens_with_the_phase() -> None:
    shut, open_ = board("2"), board("3")
    # the same tiles and tokens, read one after the other: no cache may answer for the other
    for _ in range(2):
        assert (EAST, 0) not in N.broad(MAP, shut, "X").nodes
        assert (EAST, 0) in N.broad(MAP, open_, "X").nodes
    with pytest.raises(B.BoardError):
        R.run_routes(MAP, shut, CTX, {"2-0": R.Train("2-0", 2)}, [ROUTE])
    _, total = R.run_routes(MAP, open_, CTX, {"2-0": R.Train("2-0", 2)}, [ROUTE])
    assert total == 50


def test_lays_beyond_a_closed_border_need_it_open() -> None:
    slot = T.LaySlot(True, False)
    beyond = {x.hex for x in T.legal_lays(MAP, board("3"), "X", ("yellow",), slot)}
    assert BLANK in beyond                           # reached through EAST
    assert BLANK not in {x.hex for x in T.legal_lays(MAP, board("2"), "X", ("yellow",), slot)}


def test_the_view_shows_closed_borders_only_while_closed() -> None:
    assert board_view(MAP, board("2"), ("yellow",))["closed"] == sorted([[WEST, EDGE], [EAST, BACK]])
    assert "closed" not in board_view(MAP, board("3"), ("yellow",))


@pytest.mark.parametrize("phase", ["2", "3"])
def test_a_lay_keeps_the_compiled_track_of_the_hexes_it_does_not_touch(phase: str) -> None:
    # The view of a board after one lay inherits its parent's compiled track except where the
    # lay changed something, with borders shut or not (comparing the parent's shut borders
    # with the child's must compare like with like: a lost inheritance recompiles every hex).
    clear_all()
    parent = board(phase)
    N.broad(MAP, parent, "X")
    before = N.tiles_view(MAP, parent).compiled("broad")
    assert WEST in before
    child = B.lay(MAP, parent, END, "9", EDGE)
    after = N.tiles_view(MAP, child).compiled("broad")
    assert after.get(WEST) is before[WEST]


def test_a_lay_keeps_the_borders_shut() -> None:
    shut = board("2")
    assert B.lay(MAP, shut, END, "9", EDGE).closed == shut.closed
