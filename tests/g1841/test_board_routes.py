"""1841's routes on hand-built positions of the real map: towns free, passes counted (but not
by the 8-train) and paying nothing, ports, off-boards by revenue phase, two stops that count,
yellow Milano once, borders not stopping trains (shared/games/g1841/board/routes.py)."""

from __future__ import annotations

import pytest

from shared.games.core18xx.board import routes as CR
from shared.games.core18xx.board import state as S
from shared.games.core18xx.board.state import BoardError
from shared.games.g1841.board import routes as R

from tests.g1841.positions import M, board


def route(train, *stops_and_hexes) -> CR.RouteSpec:
    return CR.RouteSpec(train, [list(h) for h in stops_and_hexes[1::2]], list(stops_and_hexes[::2]))


def test_trains_count_cities_offboards_and_passes_and_run_towns_free() -> None:
    two, eight = R.train("default", "2", "2-0"), R.train("default", "8", "8-1")
    assert (two.name, two.distance, two.free) == ("2-0", 2, ("port", "town"))
    assert (eight.distance, eight.free) == (8, ("pass", "port", "town"))
    with pytest.raises(BoardError):
        R.train("default", "9")


def test_offboards_pay_by_revenue_phase_not_tile_colour() -> None:
    assert R.revenue_colors("default", 2) == ("white",) == R.revenue_colors("default", 3)
    assert R.revenue_colors("default", 5) == ("white", "gray")
    assert R.revenue_colors("default", 6) == ("white", "gray", "black")
    # Venezia's green 602: city (10) and town (30), the town on the track to East (E17)
    b = board([("IRSFF", "F16", 0)], [("F16", "602", 0)], phase=3)
    east = [route("2-0", "F16-0", ["F16"], "F16-1", ["F16", "E17"], "E17-0")]
    for phase, total in ((3, 10 + 30 + 50), (4, 10 + 30 + 80), (5, 120), (6, 10 + 30 + 120), (8, 160)):
        got = R.run_routes(M, b, "default", phase, "IRSFF", {"2-0": "2"}, east)
        assert got[1] == total, phase     # city + off-board on a 2-train: the town runs free


def test_a_port_pays_but_a_route_needs_two_other_stops() -> None:
    b = board([("IRSFF", "F16", 0)], [("F16", "601", 0)])       # city to G15, town to the port G17
    res, total = R.run_routes(M, b, "default", 2, "IRSFF", {"2-0": "2"},
                              [route("2-0", "F16-0", ["F16"], "F16-1", ["F16", "G17"], "G17-0")])
    assert total == 10 + 20 + 40 and res[0].stops == ("F16-0", "F16-1", "G17-0")
    # a green Venezia whose city runs straight to the port: city and port alone are no route
    port = board([("IRSFF", "F16", 0)], [("F16", "602", 2)], phase=3)
    with pytest.raises(BoardError) as err:
        R.run_routes(M, port, "default", 3, "IRSFF", {"2-0": "2"}, [route("2-0", "F16-0", ["F16", "G17"], "G17-0")])
    assert err.value.code == "route_too_short"
    best = R.best_routes(M, b, "default", 2, "IRSFF", [("2-0", "2")])
    assert best.total == 70 and best.exact


def parma_pass_reggio() -> S.BoardState:
    # AFI at Parma (K11, a 57 toward the pass M11), the pass as green 615 on to Reggio (L12)
    return board([("AFI", "K11", 0)], [("K11", "57", 0), ("M11", "615", 3), ("L12", "57", 1)], phase=3)


def test_a_pass_is_a_stop_that_pays_nothing_and_makes_no_route() -> None:
    b = parma_pass_reggio()
    over = [route("t", "K11-0", ["K11", "M11"], "M11-0", ["M11", "L12"], "L12-0")]
    with pytest.raises(BoardError) as err:               # three stops for a 2-train
        R.run_routes(M, b, "default", 3, "AFI", {"t": "2"}, over)
    assert err.value.code == "route_too_long"
    assert R.run_routes(M, b, "default", 3, "AFI", {"t": "3"}, over)[1] == 20 + 0 + 20
    assert R.run_routes(M, b, "default", 8, "AFI", {"t": "8"}, over)[1] == 40
    with pytest.raises(BoardError) as err:               # Parma and the pass: one stop that counts
        R.run_routes(M, b, "default", 3, "AFI", {"t": "2"}, [route("t", "K11-0", ["K11", "M11"], "M11-0")])
    assert err.value.code == "route_too_short"
    assert R.best_routes(M, b, "default", 3, "AFI", [("t", "2")]).total == 0
    assert R.best_routes(M, b, "default", 3, "AFI", [("t", "3")]).total == 40
    # a token on the pass is a station a route may use, though no base for track
    on_pass = S.place_token(M, b, "CTS", "M11", 0)
    assert R.run_routes(M, on_pass, "default", 3, "CTS", {"t": "3"}, over)[1] == 40


def test_a_full_pass_blocks_other_companies() -> None:
    b = S.place_token(M, parma_pass_reggio(), "CTS", "M11", 0)      # 615 has one slot
    with pytest.raises(BoardError) as err:
        R.run_routes(M, b, "default", 3, "AFI", {"t": "3"},
                     [route("t", "K11-0", ["K11", "M11"], "M11-0", ["M11", "L12"], "L12-0")])
    assert err.value.code == "route_blocked"


def test_yellow_milano_is_visited_by_one_route_only() -> None:
    # IRSFF at Milano (yellow, terminal track to Como D8 and Bergamo E9), cities on both
    b = board([("IRSFF", "F8", 0)], [("D8", "57", 0), ("E9", "621", 1)])
    two = [route("a", "F8-0", ["F8", "D8"], "D8-0"), route("b", "F8-0", ["F8", "E9"], "E9-0")]
    with pytest.raises(BoardError) as err:
        R.run_routes(M, b, "default", 2, "IRSFF", {"a": "2", "b": "2"}, two)
    assert err.value.code == "route_reuses_hex"
    assert R.run_routes(M, b, "default", 2, "IRSFF", {"b": "2"}, two[1:])[1] == 60 + 30
    best = R.best_routes(M, b, "default", 2, "IRSFF", [("a", "2"), ("b", "2")])
    assert best.total == 90 and len(best.routes) == 1
    # green Milano (604) lifts the rule
    assert R.milano_yellow(M, b, "default") and not R.milano_yellow(M, S.lay(M, b, "F8", "604", 0), "default")


def test_borders_do_not_stop_trains() -> None:
    # Busto Arsizio (E7) to a town of Vercelli & Novara (F6) across a phase 2 border
    b = board([("AFI", "E7", 0)], [("E7", "57", 1), ("F6", "1", 0)])
    assert ("E7", 1) in b.closed
    across = [route("t", "E7-0", ["E7", "F6"], "F6-1")]
    assert R.run_routes(M, b, "default", 2, "AFI", {"t": "2"}, across)[1] == 20 + 10
    assert R.best_routes(M, b, "default", 2, "AFI", [("t", "2")]).total == 30
