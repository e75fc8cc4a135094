"""The board hooks titles set on a synthetic map: hexes whose tokens start no network,
borders read on the listing side only, and a title's own network for track reach."""

from shared.games.core18xx.board import network as N
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as T
from shared.games.core18xx.board.mapdef import from_data

# a column: A1 city, A3 city ("gate"), A5 blank; A3 lists an impassable border toward A5
HEXES = {
    "A1": {"color": "yellow", "code": "city=revenue:20;path=a:0,b:_0"},
    "A3": {"color": "yellow", "code": "city=revenue:0;path=a:3,b:_0;border=edge:0,type:impassable"},
    "A5": {"color": "white", "code": ""},
}
TILES = {"9": {"color": "yellow", "count": 2, "code": "path=a:0,b:3"}}


def board_map(**extra):
    return from_data({"layout": "flat", "hexes": HEXES, "tiles": TILES, **extra})


def test_tokens_on_no_start_hexes_start_no_network() -> None:
    plain, gated = board_map(), board_map(no_start_hexes=["A3"])
    for m in (plain, gated):
        b = B.place_token(m, B.BoardState(), "X", "A3", 0)
        assert N.railhead_nodes(m, b, "X") == ([("A3", 0)] if m is plain else [])
        assert (("A1", 0) in N.broad(m, b, "X").nodes) == (m is plain)
        assert N.token_nodes(m, b, "X") == [("A3", 0)]      # still the corporation's station


def test_one_sided_borders_block_only_the_listing_hex() -> None:
    both, one = board_map(), board_map(one_sided_borders=True)
    assert both.geometry["A3"][0] is None and both.geometry["A5"][3] is None
    assert one.geometry["A3"][0] is None and one.geometry["A5"][3] == "A3"


def test_legal_lays_reads_a_given_reach() -> None:
    # A1's city has track only off the map: the core's walk reaches no neighbour
    m = from_data({"layout": "flat", "tiles": TILES, "hexes": {
        "A1": {"color": "yellow", "code": "city=revenue:20;path=a:3,b:_0"},
        "A3": {"color": "white", "code": ""}, "A5": {"color": "white", "code": ""}}})
    b = B.place_token(m, B.BoardState(), "X", "A1", 0)
    slot = T.LaySlot(True, True)
    assert T.legal_lays(m, b, "X", ("yellow",), slot) == []
    reach = N.Reach()                  # a title's network that does reach A3 from A1's side
    reach.marks.append((("A3", 3),))
    lays = T.legal_lays(m, b, "X", ("yellow",), slot, reach=reach, rules=T.TrackRules(restriction="permissive"))
    assert {(x.hex, x.tile) for x in lays} == {("A3", "9")}
