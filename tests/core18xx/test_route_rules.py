"""Route rules on small hand-made maps: terminals, blocked cities, stop counts, overlap."""

import pytest

from shared.games.core18xx.board import autoroute as A
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board.mapdef import from_data
from shared.games.core18xx.board.state import BoardError

# One column of hexes joined by straight track (edge 3 up, edge 0 down): an offboard, cities,
# a town, plain track, a city with terminal track and a dead-end city beyond it.
LINE = {
    "layout": "flat",
    "hexes": {
        "A1": {"color": "red", "code": "offboard=revenue:yellow_30|brown_60;path=a:0,b:_0"},
        "A3": {"color": "yellow", "code": "city=revenue:20;path=a:3,b:_0;path=a:_0,b:0"},
        "A5": {"color": "yellow", "code": "town=revenue:10;path=a:3,b:_0;path=a:_0,b:0"},
        "A7": {"color": "yellow", "code": "city=revenue:30,slots:2;path=a:3,b:_0;path=a:_0,b:0"},
        "A9": {"color": "yellow", "code": "path=a:3,b:0"},
        "A11": {"color": "yellow", "code": "city=revenue:40;path=a:3,b:_0,terminal:1;path=a:_0,b:0,terminal:1"},
        "A13": {"color": "yellow", "code": "city=revenue:50;path=a:3,b:_0"},
    },
    "tiles": {},
}
M = from_data(LINE)
YEL = ("yellow",)
PLAIN_RULES = R.RouteRules()


def spec(train, *stops_and_hexes):
    nodes = [s for s in stops_and_hexes[::2]]
    conns = [list(h) for h in stops_and_hexes[1::2]]
    return R.RouteSpec(train, conns, nodes)


def run(b, corp, specs, trains, rules=PLAIN_RULES, colors=YEL):
    return R.run_routes(M, b, R.RouteContext(corp, colors, rules), trains, specs)


def test_offboard_revenue_by_phase_and_stop_counting():
    b = B.place_token(M, B.BoardState(), "X", "A3", 0)
    t = {"2": R.Train("2", 2), "3": R.Train("3", 3)}
    _, total = run(b, "X", [spec("2", "A1-0", ["A1", "A3"], "A3-0")], t)
    assert total == 30 + 20
    _, total = run(b, "X", [spec("2", "A1-0", ["A1", "A3"], "A3-0")], t, colors=("yellow", "green", "brown"))
    assert total == 60 + 20
    with pytest.raises(BoardError) as e:  # three stops on a 2-train (the town counts)
        run(b, "X", [spec("2", "A1-0", ["A1", "A3"], "A3-0", ["A3", "A5"], "A5-0")], t)
    assert e.value.code == "route_too_long"
    _, total = run(b, "X", [spec("3", "A1-0", ["A1", "A3"], "A3-0", ["A3", "A5"], "A5-0")], t)
    assert total == 60


def test_hex_trains_count_edges_not_stops():
    b = B.place_token(M, B.BoardState(), "X", "A3", 0)
    h = R.RouteRules("hexes")
    t = {"2H": R.Train("2H", 2)}
    # A3 -> A5 -> A7 crosses two edges and pays three stops
    _, total = run(b, "X", [spec("2H", "A3-0", ["A3", "A5"], "A5-0", ["A5", "A7"], "A7-0")], t, h)
    assert total == 20 + 10 + 30
    with pytest.raises(BoardError) as e:
        run(b, "X", [spec("2H", "A1-0", ["A1", "A3"], "A3-0", ["A3", "A5"], "A5-0", ["A5", "A7"], "A7-0")], t, h)
    assert e.value.code == "route_too_long"


def test_terminal_and_blocked_cities_end_routes():
    b = B.place_token(M, B.BoardState(), "X", "A7", 0)
    t = {"9": R.Train("9", 9)}
    # A11's track is terminal: a route may end there but not pass
    _, total = run(b, "X", [spec("9", "A7-0", ["A7", "A9", "A11"], "A11-0")], t)
    assert total == 70
    with pytest.raises(BoardError) as e:
        run(b, "X", [spec("9", "A7-0", ["A7", "A9", "A11"], "A11-0", ["A11", "A13"], "A13-0")], t)
    assert e.value.code == "route_through_terminal"
    # an offboard is never passed (it has one track end anyway) and routes need a token
    with pytest.raises(BoardError) as e:
        run(B.BoardState(), "X", [spec("9", "A3-0", ["A3", "A5"], "A5-0")], t)
    assert e.value.code == "route_needs_token"
    # A3 full of another company's token: X may end there, not pass through
    full = B.place_token(M, b, "Y", "A3", 0)
    _, total = run(full, "X", [spec("9", "A7-0", ["A7", "A5"], "A5-0", ["A5", "A3"], "A3-0")], t)
    assert total == 60
    with pytest.raises(BoardError) as e:
        run(full, "X", [spec("9", "A7-0", ["A7", "A5"], "A5-0", ["A5", "A3"], "A3-0", ["A3", "A1"], "A1-0")], t)
    assert e.value.code == "route_blocked"
    best = A.best_routes(M, full, R.RouteContext("X", YEL), [R.Train("9", 9)])
    assert best.total == 30 + 10 + 20 + 40 and best.exact  # A3..A11, stopping at the terminal


def test_trains_of_one_company_cannot_share_track():
    b = B.place_token(M, B.BoardState(), "X", "A7", 0)
    t = {"a": R.Train("a", 2), "b": R.Train("b", 2)}
    with pytest.raises(BoardError) as e:
        run(b, "X", [spec("a", "A5-0", ["A5", "A7"], "A7-0"), spec("b", "A7-0", ["A7", "A5"], "A5-0")], t)
    assert e.value.code in ("route_reuses_track", "route_not_connected")
    _, total = run(b, "X", [spec("a", "A5-0", ["A5", "A7"], "A7-0"), spec("b", "A7-0", ["A7", "A9", "A11"], "A11-0")], t)
    assert total == 40 + 70
    best = A.best_routes(M, b, R.RouteContext("X", YEL), [R.Train("a", 2), R.Train("b", 2)])
    assert best.total == 110  # A7-A11 and A7-A5; A7-A3 would pass the town (three stops)
    with pytest.raises(BoardError) as e:
        run(b, "X", [spec("a", "A5-0", ["A5", "A7"], "A7-0"), spec("a", "A7-0", ["A7", "A9", "A11"], "A11-0")], t)
    assert e.value.code == "train_reused"


def narrow_map(loop: bool):
    hexes = {
        # S: a city with broad track up and narrow track down (and, with the loop, to B4)
        "A3": {"color": "yellow", "code": "city=revenue:20;path=a:0,b:_0,track:narrow;path=a:3,b:_0"
                                          + (";path=a:5,b:_0,track:narrow" if loop else "")},
        # M: a town on narrow track that also has broad track (to edge 5)
        "A5": {"color": "yellow", "code": "town=revenue:10;path=a:3,b:_0,track:narrow;path=a:_0,b:0,track:narrow;"
                                          "path=a:_0,b:5" + (";path=a:4,b:_0,track:narrow" if loop else "")},
        # T: a town on narrow track only, beyond M
        "A7": {"color": "yellow", "code": "town=revenue:30;path=a:3,b:_0,track:narrow"},
        "B6": {"color": "yellow", "code": "town=revenue:0;path=a:2,b:_0"},
    }
    if loop:  # X: a narrow-only town between S and M
        hexes["B4"] = {"color": "yellow", "code": "town=revenue:5;path=a:2,b:_0,track:narrow;path=a:_0,b:1,track:narrow"}
    return from_data({"layout": "flat", "hexes": hexes, "tiles": {}})


def test_narrow_bonus_follows_the_18xx_walk():
    for loop, want in ((False, 0), (True, 5 + 30)):
        m = narrow_map(loop)
        assert R.narrow_bonus(m, B.BoardState(), ("A3", 0), YEL) == want
    # from the all-narrow town T the walk counts nothing past the mixed town M
    m = narrow_map(False)
    assert R.narrow_bonus(m, B.BoardState(), ("A7", 0), YEL) == 0
    assert R.narrow_bonus(m, B.BoardState(), ("B6", 0), YEL) == 0  # no narrow track of its own


def test_routes_without_named_stops():
    b = B.place_token(M, B.BoardState(), "X", "A3", 0)
    t = {"3": R.Train("3", 3)}
    res, total = run(b, "X", [R.RouteSpec("3", [["A1", "A3"], ["A3", "A5"]])], t)
    assert total == 60 and res[0].stops == ("A1-0", "A3-0", "A5-0")


def test_one_stop_per_group():
    # an offboard drawn over two hexes (18xx.games "groups"): a route may use only one of them
    m = from_data({"layout": "flat", "tiles": {}, "hexes": {
        "A1": {"color": "red", "code": "offboard=revenue:yellow_30,groups:West;path=a:0,b:_0"},
        "A3": {"color": "yellow", "code": "city=revenue:20;path=a:3,b:_0;path=a:_0,b:0"},
        "A5": {"color": "red", "code": "offboard=revenue:yellow_40,groups:West;path=a:3,b:_0"},
    }})
    b = B.place_token(m, B.BoardState(), "X", "A3", 0)
    ctx = R.RouteContext("X", YEL)
    with pytest.raises(BoardError) as e:
        R.run_routes(m, b, ctx, {"3": R.Train("3", 3)}, [spec("3", "A1-0", ["A1", "A3"], "A3-0", ["A3", "A5"], "A5-0")])
    assert e.value.code == "route_reuses_group"
    best = A.best_routes(m, b, ctx, [R.Train("3", 3)])
    assert best.total == 60 and best.exact


def test_unmodelled_stop_rules_are_refused():
    from shared.games.core18xx.board.tiles import TileError, parse

    with pytest.raises(TileError):
        parse("P", "blue", "town=revenue:40,route:never,loc:2;path=a:_0,b:2")
    with pytest.raises(TileError):
        parse("V", "yellow", "city=revenue:20,visit_cost:0;path=a:0,b:_0")
