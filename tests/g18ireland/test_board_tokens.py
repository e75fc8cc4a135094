"""Station tokens: reach, free slots, reservations, one per hex, homes, mergers."""

import pytest

from shared.games.core18xx.board import network as N
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import tokens as K
from shared.games.core18xx.board.state import BoardError
from shared.games.core18xx.choice import flatten
from shared.games.g18ireland.map import TRACK_RULES, board_map
from shared.games.g18ireland.map import lay_slot as MAP_LAY_SLOT

M = board_map()


def test_homes_are_reserved_and_placed_in_the_reserved_slot():
    b = B.initial(M)
    assert {r.corp for r in b.reservations["F6"]} == {"EBSR", "SLNCR"}
    assert K.home_spots(M, b, "DDR") == [K.TokenSpot("I11", 1, 0)]
    b = B.place_token(M, b, "SLNCR", "F6", 0)
    assert B.slots(M, b, "F6") == (("", "SLNCR"),)  # its reserved second slot
    # SLNCR's used reservation stays as a hole holding its place in the city's list
    assert {r.corp for r in b.reservations["F6"] if r.corp != B.HOLE} == {"EBSR"}
    # the other slot stays EBSR's: nobody else may take it
    assert not K.free_slot(M, b, "GNRI", "F6", 0)
    assert K.free_slot(M, b, "EBSR", "F6", 0)
    assert not K.free_slot(M, B.unreserve(b, "EBSR"), "SLNCR", "F6", 0)  # one per hex
    assert K.free_slot(M, B.unreserve(b, "EBSR"), "GNRI", "F6", 0)


def test_a_tile_laid_keeps_tokens_out_of_reserved_slots():
    """SLNCR's home sits in F6's second slot, the first reserved for EBSR. The first tile on F6
    moves the token to the new city as 18xx.games' `exchange_token` does: into a slot free and
    reserved by no one, so EBSR's slot stays free and EBSR can still start (a token moved into
    it left EBSR no room: the engine failed with `city_full` when EBSR started)."""
    b = B.place_token(M, B.initial(M), "SLNCR", "F6", 0)
    assert B.slots(M, b, "F6") == (("", "SLNCR"),)
    after = B.lay(M, b, "F6", "IR4", 5)       # the lay met in a game of heuristic bots
    new_city = B.tile_def(M, after, "F6").cities[0]
    assert B.slots(M, after, "F6")[new_city] == ("", "SLNCR")
    assert [r.corp for r in after.reservations["F6"] if r.corp != B.HOLE] == ["EBSR"]
    assert not K.free_slot(M, after, "GNRI", "F6", new_city)
    after = B.place_token(M, after, "EBSR", "F6", new_city)
    assert B.slots(M, after, "F6")[new_city] == ("EBSR", "SLNCR")


def wexford_line():
    """CIR (test owner) stationed at Wexford I17, track laid legally I17 - H18 - G19 (Waterford,
    reserved as WKR's home). Each lay is checked legal first."""
    from shared.games.core18xx.board import track as T
    from shared.games.g18ireland.map import PHASE_COLORS

    b = B.place_token(M, B.unreserve(B.initial(M), "CIR"), "CIR", "I17", 0)
    slot = MAP_LAY_SLOT(0, False)
    assert slot is not None
    for hex_, tile, rot in (("I17", "644", 0), ("H18", "9", 1), ("G19", "5", 3)):
        T.check_lay(M, b, "CIR", PHASE_COLORS["2"], slot, hex_, tile, rot, rules=TRACK_RULES)
        b = B.lay(M, b, hex_, tile, rot)
    return b


def test_tokens_need_reach_and_a_free_slot():
    b = wexford_line()
    reach = N.broad(M, b, "CIR")
    assert ("G19", 0) in reach.nodes
    # Waterford's only slot is WKR's reservation
    assert K.legal_tokens(M, b, "CIR", 40) == []
    free = B.unreserve(b, "WKR")
    assert K.legal_tokens(M, free, "CIR", 40) == [K.TokenSpot("G19", 0, 40)]
    assert K.legal_tokens(M, free, "CIR", 40, cash=39) == []
    # never a second token on a hex it holds; never a city it does not reach
    assert all(s.hex != "I17" for s in K.legal_tokens(M, free, "CIR", 40))
    assert K.legal_tokens(M, free, "GNRI", 40) == []
    after = K.place(M, free, "CIR", "G19", 0, K.legal_tokens(M, free, "CIR", 40))
    assert B.slots(M, after, "G19") == (("CIR",),)


def test_token_choices_trie():
    c = K.token_choices([K.TokenSpot("D6", 0, 40), K.TokenSpot("I9", 0, 40)])
    assert flatten(c) == [("D6", 0), ("I9", 0)]
    with pytest.raises(BoardError) as e:
        K.place(M, B.initial(M), "DKR", "D6", 0, [])
    assert e.value.code == "illegal_token"


def test_blocked_city_stops_other_companies():
    b = B.initial(M)
    b = B.place_token(M, b, "DER", "I9", 0)
    b = B.lay(M, b, "I9", "IR2", 0)
    b = B.lay(M, b, "H8", "5", 5)  # a one-slot city at H8 joined to I9's city
    b = B.place_token(M, b, "GJR", "H8", 0)
    assert N.blocks(M, b, "H8", 0, "DER") and not N.blocks(M, b, "H8", 0, "GJR")
    reach = N.broad(M, b, "DER")
    assert ("H8", 0) in reach.nodes  # reached (a route may end there) ...
    other_paths = [i for i, p in enumerate(B.tile_at(M, b, "H8").paths) if 5 not in (p.a, p.b)]
    assert all(("H8", i) not in reach.paths for i in other_paths)  # ... but not passed


def test_merger_keeps_one_token_per_hex():
    b = B.initial(M)
    b = B.place_token(M, b, "DKR", "I11", 0)
    b = B.place_token(M, b, "DDR", "I11", 1)
    b = B.place_token(M, b, "DER", "I9", 0)
    m = B.replace_tokens(B.replace_tokens(b, "DKR", "GNRI"), "DDR", "GNRI")
    assert B.slots(M, m, "I11") == (("GNRI",), ("",))
    assert sorted(B.token_hexes(m, "GNRI")) == [("I11", 0)]


def test_lifted_home_token_on_first_multi_city_tile():
    b = B.initial(M)
    b = B.place_token(M, b, "UR", "J4", 0)  # Belfast: two cities, no track yet
    after, lifted = B.lay_lifting(M, b, "J4", "IR1", 0)
    assert lifted == ("UR",)
    assert B.token_hexes(after, "UR") == []
    assert [s.city for s in K.relocation_spots(M, after, "UR", "J4")] == [0, 1]
    again, lifted2 = B.lay_lifting(M, B.place_token(M, after, "UR", "J4", 1), "J4", "IR6", 0)
    assert lifted2 == ()  # only the first track tile lifts tokens


def test_tile_copies_and_node_ids_follow_18xx_games():
    b = B.initial(M)
    assert B.next_tile_id(M, b, "IR2") == "IR2-0"
    assert B.node_id(M, b, "I9", 0) == "I9-0-0"  # preprinted: "HEX-index-part"
    assert B.node_id(M, b, "G13", 0) == "G13-1-0"  # second hex of its map group
    assert B.find_node(M, b, "G13-1-0") == ("G13", 0)
    b = B.lay(M, b, "I9", "IR2", 0)
    assert b.ids["I9"] == "IR2-0" and B.node_id(M, b, "I9", 1) == "IR2-0-1"
    assert B.find_node(M, b, "IR2-0-1") == ("I9", 1)
    b = B.lay(M, b, "H8", "9", 2)
    assert b.ids["H8"] == "9-0" and B.next_tile_id(M, b, "9") == "9-1"
    b = B.lay(M, b, "H8", "82", 0)  # the 9 goes back and queues behind the unused copies
    assert b.returned == ("9-0",)
    assert B.supply(M, b)[-1] == "9-0" and B.next_tile_id(M, b, "9") == "9-1"
    with pytest.raises(BoardError) as e:
        B.lay(M, b, "H10", "9", 0, instance="IR2-0")
    assert e.value.code == "tile_unavailable"
    with pytest.raises(BoardError):
        B.find_node(M, b, "7-0-0")
