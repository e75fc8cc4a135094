"""Deliveries, the Railway Inspector, Passenger Line and major lines (sources named per test)."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Allow, Deliver, Inspect, UpgradeEngine, Urbanize
from shared.games.rotw_england_wales.majors import check as check_majors
from shared.games.rotw_england_wales.state import Link

from .helpers import AVON, BRENT, DOVE, TARN, end_build, expand, forgo, lay, start, to_act


def _network():
    """Seat order[0] builds Avon-Tarn, order[1] Tarn-Brent; order[2] is to act."""
    s = start()
    a, b, c = s.order
    s = lay(s, "2,0", 2, 0)
    s = end_build(s)
    s = lay(s, "3,1", 4, 0)
    s = end_build(s)
    assert to_act(s) == c
    return s, a, b, c


def _deliveries(s):
    fams = [f for f in ENGINE.legal_actions(s, to_act(s)) if isinstance(f.action, Deliver)]
    return {(d.city, d.color, tuple(d.path)) for f in fams for d in expand(f)}


def test_delivery_length_is_limited_by_the_engine() -> None:
    # base rules (lehi RotW summary; 0kelvin description): links used <= engine level
    s, a, b, c = _network()
    s.cubes = {AVON: ["blue"]}
    assert _deliveries(s) == set()  # level 1 engine, Avon-Brent needs 2 links
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, c, Deliver(city=AVON, color="blue", path=[0, 1]))
    assert err.value.code == "bad_path"
    s = ENGINE.apply(s, c, UpgradeEngine())
    s = forgo(forgo(s))  # round 2: a and b pass
    assert to_act(s) == c
    assert _deliveries(s) == {(AVON, "blue", (0, 1))}


def test_each_link_used_moves_its_owner_up_one_space() -> None:
    # base rules (0kelvin description: "for each link traversed the player whose link was used
    # gains a point on the income track")
    s, a, b, c = _network()
    s.cubes = {AVON: ["blue", "red"]}
    s.players[c].engine = 2
    bag = s.bag["blue"]
    s = ENGINE.apply(s, c, Deliver(city=AVON, color="blue", path=[0, 1]))
    assert [s.players[i].vp for i in (a, b, c)] == [1, 1, 0]
    assert s.bag["blue"] == bag + 1  # README 'Deliveries' (reading): the cube goes back to the bag
    assert s.cubes == {AVON: ["red"]} and s.players[c].delivered == {"blue": 1}


def test_a_cube_stops_at_the_first_city_of_its_colour() -> None:
    # base rules (seed III, repeated from the base game: the cube must end in the first city of
    # its colour; README 'Deliveries')
    s, a, b, c = _network()
    s = ENGINE.apply(s, c, Urbanize(hex=TARN, color="blue"))
    s.cubes = {AVON: ["blue"]}
    s.players[a].engine = 2
    assert to_act(s) == a
    assert _deliveries(s) == {(AVON, "blue", (0,))}


def test_emptied_city_gets_a_marker_and_grey_cities_take_nothing() -> None:
    # base rules (README 'End'): the last cube leaving a city places an empty-city marker
    s, a, b, c = _network()
    s.cubes = {BRENT: ["red"], AVON: ["black"]}  # red city Avon; no black city reachable
    s.players[c].engine = 2
    opts = _deliveries(s)
    assert opts == {(BRENT, "red", (1, 0))}
    s = ENGINE.apply(s, c, Deliver(city=BRENT, color="red", path=[1, 0]))
    assert s.empty == [BRENT] and BRENT not in s.cubes
    # Fal is grey: a cube of any colour can never be delivered there
    from shared.games.rotw_england_wales.deliver import paths
    assert all(paths(s, AVON, colour, 8) == [] for colour in ("black", "yellow", "purple"))


def test_railway_inspector_stops_a_delivery_once() -> None:
    # seed: played during another player's delivery; the cube stays, the action is lost; nobody
    # is stopped more than once a game
    s, a, b, c = _network()
    s.players[b].hand.append("railway_inspector#1")
    s.cubes = {AVON: ["blue", "blue"]}
    s.players[c].engine = 2
    s = ENGINE.apply(s, c, Deliver(city=AVON, color="blue", path=[0, 1]))
    assert s.phase == "inspect" and ENGINE.active_seats(s) == frozenset({b})
    assert [type(f.action) for f in ENGINE.legal_actions(s, b)] == [Inspect, Allow]
    assert ENGINE.legal_actions(s, c) == []
    s = ENGINE.apply(s, b, Inspect())
    assert s.cubes[AVON] == ["blue", "blue"] and s.players[c].stopped and s.players[b].hand == []
    assert s.phase == "action" and s.round == 2 and to_act(s) == a
    # a second Inspector cannot stop the same player again
    s.players[a].hand.append("railway_inspector#2")
    s = forgo(forgo(s))
    s = ENGINE.apply(s, c, Deliver(city=AVON, color="blue", path=[0, 1]))
    assert s.phase == "action" and s.cubes[AVON] == ["blue"]


def test_inspector_holder_may_allow() -> None:
    s, a, b, c = _network()
    s.players[a].hand.append("railway_inspector#1")
    s.cubes = {AVON: ["blue"]}
    s.players[c].engine = 2
    s = ENGINE.apply(s, c, Deliver(city=AVON, color="blue", path=[0, 1]))
    s = ENGINE.apply(s, a, Allow())
    assert s.empty == [AVON] and s.players[a].hand == ["railway_inspector#1"]


def test_passenger_line_goes_to_the_first_to_deliver_four_colours() -> None:
    # seed: Passenger Line - first to deliver 4 of the goods colours; tracking cubes go back
    s, a, b, c = _network()
    s.display = ["passenger_line#1"]
    s.deck = []
    s.players[c].passenger = ["red", "yellow", "black"]
    s.players[a].passenger = ["red"]
    s.cubes = {AVON: ["blue"]}
    s.players[c].engine = 2
    bag = dict(s.bag)
    s = ENGINE.apply(s, c, Deliver(city=AVON, color="blue", path=[0, 1]))
    assert s.players[c].bonus == [["Passenger Line", 5]]
    assert s.display == [] and all(p.passenger == [] for p in s.players)
    assert s.bag["red"] == bag["red"] + 2 and s.bag["blue"] == bag["blue"] + 1
    assert s.bag["yellow"] == bag["yellow"] + 1 and s.bag["black"] == bag["black"] + 1


def test_passenger_line_keeps_the_first_cube_of_each_new_colour() -> None:
    # seed: one cube of each colour delivered is placed in front of the player for tracking
    s, a, b, c = _network()
    s.display = ["passenger_line#1"]
    s.cubes = {AVON: ["blue", "blue"]}
    s.players[c].engine = 2
    bag = s.bag["blue"]
    s = ENGINE.apply(s, c, Deliver(city=AVON, color="blue", path=[0, 1]))
    assert s.players[c].passenger == ["blue"] and s.bag["blue"] == bag
    s = forgo(forgo(s))
    s = ENGINE.apply(s, c, Deliver(city=AVON, color="blue", path=[0, 1]))
    assert s.players[c].passenger == ["blue"] and s.bag["blue"] == bag + 1


def test_major_line_is_claimed_once_by_the_first_to_complete_it() -> None:
    # seed: major lines printed on the board, each claimed once by the first to complete it
    s = start()
    me, other = s.order[0], s.order[1]
    s.links = [Link(id=0, owner=me, a=AVON, start_edge=0, hexes=["2,1"], exit=0, b=TARN, complete=True),
               Link(id=1, owner=me, a=TARN, start_edge=1, hexes=["3,1"], exit=0, b=DOVE, complete=True)]
    check_majors(s, other)
    assert s.majors == {}
    check_majors(s, me)
    assert s.majors == {"avon-dove": me} and s.players[me].bonus == [["Avon to Dove", 5]]
    s.links.append(Link(id=2, owner=other, a=AVON, start_edge=2, hexes=["1,2"], exit=0, b=DOVE, complete=True))
    check_majors(s, other)
    assert s.majors == {"avon-dove": me} and s.players[other].bonus == []
