"""Stop kinds in routes, on a small hand-made map: stops a train runs free, stops that never
count toward the two a route needs, and hexes only one route may touch (RouteContext.stop_kinds,
never_kinds, exclusive_hexes; Train.free). No title here: the kinds are made up."""

import pytest

from shared.games.core18xx.board import autoroute as A
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board.mapdef import from_data
from shared.games.core18xx.board.state import BoardError

# one column joined by straight track: city, town, city "G" (a gate: kind "gate"), city, city
M = from_data({"layout": "flat", "tiles": {}, "hexes": {
    "A3": {"color": "yellow", "code": "city=revenue:20;path=a:3,b:_0;path=a:_0,b:0"},
    "A5": {"color": "yellow", "code": "town=revenue:10;path=a:3,b:_0;path=a:_0,b:0"},
    "A7": {"color": "yellow", "code": "city=revenue:0;path=a:3,b:_0;path=a:_0,b:0"},
    "A9": {"color": "yellow", "code": "city=revenue:30;path=a:3,b:_0;path=a:_0,b:0"},
    "A11": {"color": "yellow", "code": "city=revenue:40;path=a:3,b:_0"},
}})
YEL = ("yellow",)


def spec(train, *stops_and_hexes):
    return R.RouteSpec(train, [list(h) for h in stops_and_hexes[1::2]], list(stops_and_hexes[::2]))


def test_a_train_runs_free_kinds_without_counting_them() -> None:
    b = B.place_token(M, B.BoardState(), "X", "A3", 0)
    route = [spec("2", "A3-0", ["A3", "A5"], "A5-0", ["A5", "A7"], "A7-0")]
    with pytest.raises(BoardError) as e:
        R.run_routes(M, b, R.RouteContext("X", YEL), {"2": R.Train("2", 2)}, route)
    assert e.value.code == "route_too_long"
    res, total = R.run_routes(M, b, R.RouteContext("X", YEL), {"2": R.Train("2", 2, free=("town",))}, route)
    assert total == 30 and res[0].distance == 2
    # the best route of a 2-train that runs towns free reaches further
    assert A.best_routes(M, b, R.RouteContext("X", YEL), [R.Train("2", 2)]).total == 30
    assert A.best_routes(M, b, R.RouteContext("X", YEL), [R.Train("2", 2, free=("town",))]).total == 30
    assert A.best_routes(M, b, R.RouteContext("X", YEL), [R.Train("3", 3, free=("town",))]).total == 60


def test_kinds_by_hex_and_stops_that_never_make_a_route() -> None:
    b = B.place_token(M, B.BoardState(), "X", "A7", 0)
    ctx = R.RouteContext("X", YEL, stop_kinds=(("A7", "gate"),), never_kinds=("gate",))
    assert R.stop_kind(M, b, R.RouteContext("X", YEL), ("A7", 0)) == "city"
    assert R.stop_kind(M, b, ctx, ("A7", 0)) == "gate" and R.stop_kind(M, b, ctx, ("A9", 0)) == "city"
    t = {"2": R.Train("2", 2)}
    with pytest.raises(BoardError) as e:        # the gate and one city: not two that count
        R.run_routes(M, b, ctx, t, [spec("2", "A7-0", ["A7", "A9"], "A9-0")])
    assert e.value.code == "route_too_short"
    _, total = R.run_routes(M, b, ctx, {"3": R.Train("3", 3)},
                            [spec("3", "A5-0", ["A5", "A7"], "A7-0", ["A7", "A9"], "A9-0")])
    assert total == 40
    # the search drops gate-and-one-city routes; a 2-train then has none from the gate
    assert A.best_routes(M, b, ctx, [R.Train("2", 2)]).total == 0
    assert A.best_routes(M, b, R.RouteContext("X", YEL), [R.Train("2", 2)]).total == 30
    # a train may run the gate free too: the gate, A9 and A11 are then a 2-stop route
    best = A.best_routes(M, b, ctx, [R.Train("2", 2, free=("gate",))])
    assert best.total == 30 + 40 and best.routes[0].stops == ("A7-0", "A9-0", "A11-0") and best.exact


def test_only_one_route_may_touch_an_exclusive_hex() -> None:
    b = B.place_token(M, B.BoardState(), "X", "A9", 0)
    ctx = R.RouteContext("X", YEL, exclusive_hexes=("A9",))
    t = {"a": R.Train("a", 2), "b": R.Train("b", 2)}
    # two routes from A9, one each way: no track shared, but both touch A9
    two = [spec("a", "A7-0", ["A7", "A9"], "A9-0"), spec("b", "A9-0", ["A9", "A11"], "A11-0")]
    _, total = R.run_routes(M, b, R.RouteContext("X", YEL), t, two)
    assert total == 30 + 70
    with pytest.raises(BoardError) as e:
        R.run_routes(M, b, ctx, t, two)
    assert e.value.code == "route_reuses_hex"
    trains = [R.Train("a", 2), R.Train("b", 2)]
    assert A.best_routes(M, b, R.RouteContext("X", YEL), trains).total == 100
    held = A.best_routes(M, b, ctx, trains)
    assert held.total == 70 and len(held.routes) == 1 and held.exact
