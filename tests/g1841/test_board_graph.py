"""18xx.games' network walk as 1841's board reads it (shared/games/g1841/board/graph.py), on
hand-built positions of the real map, against the core's undirected walk."""

from __future__ import annotations

from shared.games.core18xx.board import network as N
from shared.games.core18xx.board import state as S
from shared.games.core18xx.board.tiles import placed
from shared.games.g1841 import data as D
from shared.games.g1841.board import graph as G
from shared.games.g1841.board import regions as RG

from tests.g1841.positions import M, board

# AFI at Busto Arsizio (E7), track to G7; G7 a green 23 (straight E7 - I7, curve I7 - Milano),
# I7 a curve on to Pavia (H8)
STRAIGHT_AND_CURVE = [("E7", "57", 0), ("G7", "23", 0), ("I7", "7", 3)]
PAVIA = ("H8", "57", 1)


def curve(b: S.BoardState) -> tuple[str, int]:
    t = S.tile_at(M, b, "G7")
    return "G7", next(i for i, p in enumerate(t.paths) if {p.a, p.b} == {0, 4})


def test_a_path_entered_across_an_edge_goes_on_by_its_other_end_only() -> None:
    b = RG.open_board(M, board([("AFI", "E7", 0)], STRAIGHT_AND_CURVE, phase=3))
    assert {(p.a, p.b) for p in placed(M.tiles["23"], 0).paths} == {(0, 3), (0, 4)}
    # the core joins the curve to the straight through the track across their shared edge;
    # 18xx.games does not: the walk leaves G7 by that edge and never comes back into it
    assert curve(b) in N.broad(M, b, "AFI").paths
    assert curve(b) not in G.network(M, b, "AFI").paths
    assert "F8" in N.broad(M, b, "AFI").hexes and "F8" not in G.network(M, b, "AFI").hexes
    # walked from Pavia's side, the walk enters G7 by the shared edge: the curve is walked
    pavia = RG.open_board(M, board([("AFI", "H8", 0)], STRAIGHT_AND_CURVE + [PAVIA], phase=3))
    assert curve(pavia) in G.network(M, pavia, "AFI").paths


def test_one_base_alone_and_the_whole_network() -> None:
    # a second base on the far side: its own walk takes the curve; the whole network too
    b = RG.open_board(M, board([("AFI", "E7", 0), ("AFI", "H8", 0)], STRAIGHT_AND_CURVE + [PAVIA], phase=3))
    assert curve(b) in G.from_base(M, b, "AFI", ("H8", 0)).paths
    assert curve(b) not in G.from_base(M, b, "AFI", ("E7", 0)).paths
    full = G.network(M, b, "AFI")
    assert curve(b) in full.paths
    assert full.paths <= G.from_base(M, b, "AFI", ("H8", 0)).paths | G.from_base(M, b, "AFI", ("E7", 0)).paths


def test_tokens_on_passes_are_no_bases() -> None:
    b = RG.open_board(M, board([("AFI", "E7", 0), ("AFI", "K7", 0)], STRAIGHT_AND_CURVE, phase=3))
    assert G.railheads(M, b, "AFI") == [("E7", 0)]
    assert ("K7", 0) not in G.network(M, b, "AFI").nodes      # the yellow pass has no track yet


def test_the_region_graph_skips_paths_touching_a_standing_border() -> None:
    # Busto's 57 toward Vercelli (F6) across phase 2's border, on to a town tile there
    b = RG.open_board(M, board([("AFI", "E7", 0)], [("E7", "57", 1), ("F6", "1", 0)]))
    plain, region = G.network(M, b, "AFI"), G.network(M, b, "AFI", RG.borders("default", 2))
    assert ("F6", 1) in plain.nodes and ("F6", 1) not in region.nodes
    skipped = {ref for ref in plain.paths if ref[0] == "E7"} - region.paths
    t = S.tile_at(M, b, "E7")
    assert skipped and all(1 in (t.paths[i].a, t.paths[i].b) for _, i in skipped)   # edge 1: the border
    # the token hex still opens all its edges to lays, the border's too (18xx.games' neighbors)
    assert 1 in region.hexes["E7"]


NEVER = frozenset(D.ports()) | M.no_start_hexes     # passes and ports: `route: :never`


def test_a_corporation_must_buy_a_train_when_one_base_reaches_two_mandatory_stops() -> None:
    # 18xx.games' `route_train_purchase`: counted over each base's own walk, whatever the trains
    # could run. From Busto Arsizio the walk goes straight through G7 and never takes the curve
    # to Milano (the core's undirected walk does): one stop, no purchase required
    alone = RG.open_board(M, board([("AFI", "E7", 0)], STRAIGHT_AND_CURVE, phase=3))
    assert "F8" in N.broad(M, alone, "AFI").hexes
    assert not G.route_train_purchase(M, alone, "AFI", NEVER)
    # with Pavia laid the same walk reaches a second city: a train must be bought
    pavia = RG.open_board(M, board([("AFI", "E7", 0)], STRAIGHT_AND_CURVE + [PAVIA], phase=3))
    assert G.route_train_purchase(M, pavia, "AFI", NEVER)


def test_passes_are_no_stops_that_require_a_train() -> None:
    # SFTC at Cuneo (M3) with track over two laid passes (L6, M5): 18xx.games' passes are
    # `route: :never`, so nothing obliges it to buy (a 2-train's route search would count them)
    tiles = [("K3", "26", 0), ("L4", "624", 0), ("L6", "613", 4), ("M3", "201", 3), ("M5", "613", 4), ("N4", "30", 3)]
    b = board([("SFTC", "M3", 0)], tiles, phase=3)
    reached = G.network(M, b, "SFTC").nodes
    assert {("L6", 0), ("M5", 0)} <= reached and {"L6", "M5"} <= NEVER
    assert not G.route_train_purchase(M, b, "SFTC", NEVER)
    assert G.route_train_purchase(M, b, "SFTC", frozenset())
