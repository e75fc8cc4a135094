"""Hex geometry, the tile code reader, and facts of the 18Ireland map data."""

import pytest

from shared.games.core18xx.board import hexgrid
from shared.games.core18xx.board.tiles import NODE, TileError, parse, path_subset, placed
from shared.games.g18ireland.map import board_map


def test_flat_neighbours_follow_18xx_edges():
    # flat layout: edge 0 is straight down (same letter, number + 2), then clockwise
    assert [hexgrid.neighbour("D4", e) for e in range(6)] == ["D6", "C5", "C3", "D2", "E3", "E5"]
    for e in range(6):
        n = hexgrid.neighbour("F10", e)
        assert hexgrid.direction(n, "F10") == hexgrid.invert(e)


def test_negative_rows_and_distance():
    assert hexgrid.xy("G-1") == (6, -2)
    assert hexgrid.neighbour("G1", 3) == "G-1"
    assert hexgrid.distance("D4", "D4") == 0
    assert hexgrid.distance("D4", "E5") == 1
    assert hexgrid.distance("D4", "D8") == 2
    assert hexgrid.distance("A11", "J4") == 9 + max(0, (7 - 9) // 2)


def test_tile_code_reader():
    t = parse("IR2", "yellow", "town=revenue:10;city=revenue:10;path=a:0,b:_0;path=a:2,b:_1;path=a:_1,b:3;"
                                "label=DD;upgrade=cost:40")
    assert [n.kind for n in t.nodes] == ["town", "city"]
    assert t.nodes[1].slots == 1 and t.label == "DD" and t.upgrade_cost == 40
    assert t.paths[0].a == 0 and t.paths[0].b == NODE
    off = parse("IM", "red", "offboard=revenue:green_20|brown_50|gray_0;path=a:5,b:_0")
    assert off.nodes[0].value(("yellow",)) == 0
    assert off.nodes[0].value(("yellow", "green")) == 20
    assert off.nodes[0].value(("yellow", "green", "brown", "gray")) == 0
    nar = parse("77", "yellow", "path=a:0,b:1,track:narrow")
    assert nar.paths[0].track == "narrow"
    with pytest.raises(TileError):
        parse("X", "yellow", "path=a:0,b:_0")


def test_rotation_and_path_containment():
    t7 = parse("7", "yellow", "path=a:0,b:1")
    t80 = parse("80", "green", "path=a:0,b:2;path=a:0,b:1;path=a:1,b:2")
    assert placed(t7, 2).exits == frozenset({2, 3})
    assert path_subset(placed(t7, 0), placed(t80, 0))
    assert not path_subset(placed(t7, 3), placed(t80, 0))
    # a narrow path is not kept by broad track
    assert not path_subset(placed(parse("77", "yellow", "path=a:0,b:1,track:narrow"), 0), placed(t80, 0))
    # junction tile 60 holds any path between two of its edges
    t60 = parse("60", "gray", "junction;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0")
    assert path_subset(placed(parse("X", "brown", "path=a:0,b:3;path=a:1,b:4"), 0), placed(t60, 0))


def test_ireland_map_facts():
    m = board_map()
    assert len(m.hexes) == 88
    assert len(m.tiles) == 105 and sum(m.counts.values()) == 223
    assert m.counts["IR5"] == 14 and m.counts["8"] == 18
    assert m.hexes["I11"].name == "Dublin" and m.hexes["I11"].tile.label == "DUB"
    assert m.hexes["I11"].tile.color == "yellow" and len(m.hexes["I11"].tile.cities) == 2
    assert m.hexes["J4"].tile.label == "BC" and m.hexes["E21"].name == "Cork"
    assert m.hexes["I15"].tile.upgrade_cost == 100 and m.hexes["I15"].tile.terrain == ("mountain",)
    assert m.hexes["F8"].tile.terrain == ("water",)
    assert m.hexes["F0"].tile.color == "blue"
    # impassable borders cut the link both ways
    assert m.geometry["D14"][2] is None
    assert m.geometry["C13"][5] is None
    assert m.homes["DDR"] == ("I11", 1) and m.homes["UR"] == ("J4", None)
    # every hex's printed code parses and its paths use real nodes
    for h in m.hexes.values():
        for p in h.tile.paths:
            for end in (p.a, p.b):
                assert end < NODE or end - NODE < len(h.tile.nodes)


def test_number_x_axes_as_1841_uses():
    # 1841 writes x as the number and y as the letter: "H4" is column 4, row H
    assert hexgrid.xy("H4", "number-x") == (3, 7)
    assert hexgrid.neighbour("H4", 0, "flat", "number-x") == "J4"
    assert hexgrid.neighbour("H4", 4, "flat", "number-x") == "G5"
    for e in range(6):
        n = hexgrid.neighbour("M7", e, "flat", "number-x")
        assert hexgrid.direction(n, "M7", "flat", "number-x") == hexgrid.invert(e)
    assert hexgrid.distance("H4", "H8", "flat", "number-x") == 4


def test_ireland_borders_are_listed_on_both_sides():
    m = board_map()
    count = 0
    for coord, h in m.hexes.items():
        for border in h.tile.borders:
            other = hexgrid.neighbour(coord, border.edge)
            assert other in m.hexes
            assert any(x.edge == hexgrid.invert(border.edge) and x.type == border.type
                       for x in m.hexes[other].tile.borders), (coord, border)
            count += 1
    assert count == 2 * 13  # 13 impassable crossings, each listed by both hexes
