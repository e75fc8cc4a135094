"""1841's track lays on hand-built positions of the real map: lays per base, a base per lay,
borders in phase 2 only, passes, Venezia's fixed rotation (shared/games/g1841/board/track.py)."""

from __future__ import annotations

import pytest

from shared.games.core18xx.board import state as S
from shared.games.core18xx.board.state import BoardError
from shared.games.g1841.board import regions as RG
from shared.games.g1841.board import track as T

from tests.g1841.positions import M, board


def hexes(lays) -> set[str]:
    return {x.hex for x in lays}


@pytest.mark.parametrize("phase,bases,expected", [
    (2, 1, 1), (2, 3, 3), (2, 5, 5), (3, 3, 2), (4, 1, 1), (4, 4, 2), (5, 4, 1), (8, 2, 1)])
def test_a_major_lays_one_tile_per_base_in_phase_2_two_in_3_and_4_then_one(phase, bases, expected) -> None:
    assert T.lays_allowed("major", phase, bases) == expected
    assert T.lays_allowed("minor", phase, bases) == 1


def test_each_lay_of_a_turn_connects_to_a_base_not_used_before() -> None:
    # IRSFF at Milano and Venezia in phase 2: two lays, one from each base
    b = board([("IRSFF", "F8", 0), ("IRSFF", "F16", 0)])
    first = T.legal_lays(M, b, "default", 2, "IRSFF", "major", b)
    assert hexes(first) == {"D8", "E9", "F16"}
    lay = next(x for x in first if x.hex == "E9")
    after = S.lay(M, b, lay.hex, lay.tile, lay.rotation)
    assert T.unused_bases(M, after, "IRSFF", b, ["E9"]) == [("F16", 0)]
    second = T.legal_lays(M, after, "default", 2, "IRSFF", "major", b, ["E9"])
    assert hexes(second) == {"F16"}          # Milano's base is used: only Venezia's reach
    # Milano's hex D8 is still legal for the core, but not for 1841
    with pytest.raises(BoardError) as err:
        T.check_lay(M, after, "default", 2, "IRSFF", "major", b, ["E9"], "D8", "57", 1)
    assert err.value.code == "illegal_lay"
    # no third lay for two bases; a minor never has a second
    done = S.lay(M, after, "F16", "601", 0)
    assert T.legal_lays(M, done, "default", 2, "IRSFF", "major", b, ["E9", "F16"]) == []
    with pytest.raises(BoardError) as err:
        T.check_lay(M, done, "default", 2, "IRSFF", "major", b, ["E9", "F16"], "D8", "57", 1)
    assert err.value.code == "no_lays_left"
    assert T.legal_lays(M, after, "default", 2, "IRSFF", "minor", b, ["E9"]) == []


def test_an_earlier_lay_claims_the_first_base_in_token_order_that_reaches_it() -> None:
    # AFI at Busto Arsizio (track toward Como) and Como: a tile on Como reaches both bases
    b = board([("AFI", "E7", 0), ("AFI", "D8", 0)], [("E7", "57", 1)], phase=3)
    after = S.lay(M, b, "D8", "57", 1)
    assert T.unused_bases(M, after, "AFI", b, ["D8"], order=[("E7", 0), ("D8", 0)]) == [("D8", 0)]
    assert T.unused_bases(M, after, "AFI", b, ["D8"], order=[("D8", 0), ("E7", 0)]) == [("E7", 0)]


def test_a_standing_border_stops_track_reach_in_phase_2_only() -> None:
    # Busto Arsizio (E7) has phase 2 borders on edges 1 (to F6) and 2 (to D6)
    b = board([("AFI", "E7", 0)])
    lays = T.legal_lays(M, b, "default", 2, "AFI", "major", b)
    # a tile's exit may face the border: 18xx.games' rotations do not read province borders
    assert {x.rotation for x in lays if x.tile == "57"} == set(range(6))
    laid = board([("AFI", "E7", 0)], [("E7", "57", 1)])        # exits to F6 (border) and D8
    assert hexes(T.legal_lays(M, laid, "default", 2, "AFI", "major", laid)) == {"D8"}
    later = RG.phase_board(M, laid, "default", 3)
    assert hexes(T.legal_lays(M, later, "default", 3, "AFI", "major", later)) == {"D8", "E7", "F6"}
    # the board passed in may hold any borders: the phase decides
    assert hexes(T.legal_lays(M, later, "default", 2, "AFI", "major", later)) == {"D8"}


def test_the_border_changes_of_phases_4_and_5() -> None:
    b2, b4, b5 = (RG.borders("default", p) for p in (2, 4, 5))
    assert ("E7", 1) in b2 and ("E7", 1) not in b4           # the Conservative Zone's goes
    assert ("H12", 0) in b4 and ("H12", 0) not in b5         # Austria's Veneto border goes in 5
    assert ("C7", 0) in b2 and ("C7", 0) in b4 and ("C7", 0) in b5     # Lugano's stays
    assert RG.borders("default", 3) == b2 and RG.borders("default", 8) == b5
    b = board([("AFI", "E7", 0)])
    assert set(RG.phase_board(M, b, "default", 5).closed) == b5
    assert not RG.open_board(M, b).closed
    assert set(RG.track_board(M, b, "default", 2).closed) == b2
    assert not RG.track_board(M, b, "default", 4).closed
    with pytest.raises(ValueError):
        RG.borders("default", 9)


def test_passes_only_take_passes_of_their_size_and_tokens_there_are_no_bases() -> None:
    # a token on a pass is no base: nothing is laid from it
    b = board([("AFI", "C15", 0)], phase=3)
    assert T.railheads(M, b, "AFI") == []
    assert T.legal_lays(M, b, "default", 3, "AFI", "major", b) == []
    assert T.pass_size(M, b, "C15", "default") == 1 and T.pass_size(M, b, "A5", "default") == 2
    assert T.pass_size(M, b, "E7", "default") == 0
    # Parma (K11) with track toward the yellow pass M11: the core alone would let green city
    # tiles onto it; 1841 takes only the green passes, at the pass's cost
    b = board([("AFI", "K11", 0)], [("K11", "57", 0)], phase=3)
    on_pass = {(x.tile, x.cost) for x in T.legal_lays(M, b, "default", 3, "AFI", "major", b) if x.hex == "M11"}
    assert on_pass == {("613", 100), ("614", 100), ("615", 100)}
    with pytest.raises(BoardError) as err:
        T.check_lay(M, b, "default", 3, "AFI", "major", b, [], "M11", "14", 0)
    assert err.value.code == "illegal_lay"
    assert T.pass_size(M, S.lay(M, b, "M11", "613", 0), "M11", "default") == 1


def test_venezia_601_lies_in_its_printed_rotation_only() -> None:
    b = board([("IRSFF", "F8", 0), ("IRSFF", "F16", 0)])
    assert {(x.tile, x.rotation) for x in T.legal_lays(M, b, "default", 2, "IRSFF", "major", b)
            if x.hex == "F16"} == {("601", 0)}
    with pytest.raises(BoardError) as err:
        T.check_lay(M, b, "default", 2, "IRSFF", "major", b, [], "F16", "601", 3)
    assert err.value.code == "bad_rotation"
    lay = T.check_lay(M, b, "default", 2, "IRSFF", "major", b, [], "F16", "601", 0)
    assert lay.cost == 50                         # Venezia's swamp


def test_terrain_cost_must_be_affordable() -> None:
    b = board([("IRSFF", "F8", 0), ("IRSFF", "F16", 0)])
    assert "F16" not in hexes(T.legal_lays(M, b, "default", 2, "IRSFF", "major", b, cash=40))
    assert "F16" in hexes(T.legal_lays(M, b, "default", 2, "IRSFF", "major", b, cash=50))


def test_phase_colours() -> None:
    assert T.phase_colors("default", 2) == ("yellow",)
    assert T.phase_colors("default", "5") == ("yellow", "green", "brown")


def test_the_track_graphs_nodes() -> None:
    # Venezia's 601: its town's track runs to the port G17; in phase 2 the region graph
    b = board([("IRSFF", "F16", 0)], [("F16", "601", 0)])
    assert {("F16", 0), ("F16", 1), ("G17", 0)} <= T.reached_nodes(M, b, "default", 2, "IRSFF")
    # Busto Arsizio's track over the Conservative Zone border: beyond it only from phase 3
    busto = board([("AFI", "E7", 0)], [("E7", "57", 1), ("F6", "1", 0)])
    assert ("F6", 1) not in T.reached_nodes(M, busto, "default", 2, "AFI")
    assert ("F6", 1) in T.reached_nodes(M, busto, "default", 3, "AFI")
