"""Map loading (MAP_FORMAT.md): hex geometry for every layout, barriers, validation errors."""

from __future__ import annotations

import pytest

from shared.games.rotw_england_wales.board import LAYOUTS, MapError, load_board, raw_neighbour


def _grid(layout: str, **extra) -> dict:
    hexes = [{"col": c, "row": r, "terrain": "plain"} for r in range(6) for c in range(6)]
    return {"layout": layout, "hexes": hexes, **extra}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_neighbours_are_symmetric_and_distinct(layout: str) -> None:
    board = load_board("g", _grid(layout))
    for h in board.terrain:
        seen = set()
        for e in range(6):
            n = board.neighbour(h, e)
            if n is None:
                continue
            assert board.neighbour(n, (e + 3) % 6) == h
            seen.add(n)
        assert len(seen) == sum(1 for e in range(6) if board.neighbour(h, e))


def test_pointy_odd_r_directions() -> None:
    # odd rows are shifted right: the east neighbour of (1,1) is (2,1), south-east is (2,2)
    assert [raw_neighbour("pointy-odd-r", "1,1", e) for e in range(6)] == ["2,1", "2,2", "1,2", "0,1", "1,0", "2,0"]
    assert [raw_neighbour("pointy-odd-r", "1,2", e) for e in range(6)] == ["2,2", "1,3", "0,3", "0,2", "0,1", "1,1"]


def test_barrier_blocks_both_directions() -> None:
    board = load_board("g", _grid("pointy-odd-r", barriers=[{"between": [[1, 1], [2, 1]]}]))
    assert board.neighbour("1,1", 0) is None and board.neighbour("2,1", 3) is None
    assert board.neighbour("1,1", 1) == "2,2"


@pytest.mark.parametrize("bad,message", [
    ({"layout": "square"}, "layout"),
    ({"barriers": [{"between": [[0, 0], [3, 3]]}]}, "not neighbours"),
    ({"major_lines": [{"id": "x", "from": "Nowhere", "to": "Else"}]}, "which is no city"),
])
def test_broken_maps_are_refused(bad: dict, message: str) -> None:
    data = _grid("pointy-odd-r")
    data.update(bad)
    with pytest.raises(MapError) as err:
        load_board("g", data)
    assert message in str(err.value)
