"""The reconstructed England and Wales map: it loads, it is consistent, it is playable, it
looks like England and Wales, and the loader rejects broken maps with a precise message."""

from __future__ import annotations

import copy
import importlib
import json
import random
import subprocess
import sys
from collections import Counter, deque
from pathlib import Path
from typing import Any

import pytest

from shared.games.rotw_england_wales.board import (
    BASE_COLOURS as GOODS_COLORS,
)
from shared.games.rotw_england_wales.board import (
    DATA_FILE,
    TERRAIN_COST,
    Board,
    City,
    MapError,
    hex_id,
    load_board,
    parse_hex,
)
from shared.games.rotw_england_wales.hexgrid import LAYOUTS, are_neighbours, distance, neighbours

from services.offline.rotw_map import build_map, design, preview

REPO = Path(__file__).resolve().parents[2]


Coord = tuple[int, int]


def parse_map(raw) -> Board:
    return load_board("test", raw)


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("england_wales", DATA_FILE.read_bytes())


def coords(board: Board) -> dict[Coord, str]:
    """Playable hexes by (col, row), with their terrain."""
    return {parse_hex(h): t for h, t in board.terrain.items()}


def city_hex(board: Board) -> dict[str, Coord]:
    return {name: parse_hex(h) for name, h in board.city_by_name.items()}


def city_of(board: Board, name: str) -> City:
    return board.cities[board.city_by_name[name]]


def reachable(board: Board, start: Coord, through_cities: bool = True) -> set[Coord]:
    """Hexes a line of track could reach from `start`; with `through_cities` false a route
    stops at the first city it enters, as a Railways of the World link does."""
    seen, queue = {hex_id(*start)}, deque([hex_id(*start)])
    while queue:
        h = queue.popleft()
        if h != hex_id(*start) and not through_cities and h in board.cities:
            continue
        for n in board.neighbours(h):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return {parse_hex(h) for h in seen}


def track_hexes_between(board: Board, a: str, b: str) -> int | None:
    """Fewest track hexes of a single link from city a to city b (None if none exists)."""
    start, goal = board.city_by_name[a], board.city_by_name[b]
    dist, queue = {start: 0}, deque([start])
    while queue:
        h = queue.popleft()
        for n in board.neighbours(h):
            if n == goal:
                return dist[h]
            if n in dist or n in board.cities:
                continue
            dist[n] = dist[h] + 1
            queue.append(n)
    return None


def link_length(board: Board, a: str, b: str) -> int:
    """`track_hexes_between` two cities a link is known to join."""
    n = track_hexes_between(board, a, b)
    assert n is not None, f"no single link from {a} to {b}"
    return n


@pytest.fixture(scope="module")
def raw() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def hex_of(lat: float, lon: float) -> tuple[int, int]:
    return build_map.hex_at(build_map.project(lat, lon))


# --- contents -------------------------------------------------------------------------

def test_size_and_terrain_mix(board: Board) -> None:
    terrain = Counter(board.terrain.values())
    assert 400 <= len(board.terrain) <= 600, len(board.terrain)
    assert set(terrain) == {"plain", "water", "mountain", "mountain_water"}
    # Mostly open country, with real upland and river areas.
    assert terrain["plain"] > len(board.terrain) / 2
    assert terrain["mountain"] + terrain["mountain_water"] >= 40
    assert terrain["water"] + terrain["mountain_water"] >= 30
    assert set(TERRAIN_COST) == set(terrain)


def test_every_designed_city_is_on_the_board_once(board: Board) -> None:
    assert sorted(board.city_by_name) == sorted(spec.name for spec in design.CITIES)
    for spec in design.CITIES:
        city = city_of(board, spec.name)
        assert city.color == spec.color
        assert city.goods == design.GOODS_BY_COLOR[spec.color]
        assert city.reconstructed


def test_every_goods_colour_has_enough_cities(board: Board) -> None:
    colours = Counter(c.color for c in board.cities.values())
    for colour in GOODS_COLORS:
        assert colours[colour] >= 6, (colour, colours)
    assert colours["grey"] >= 5
    # More cities than the 15 empty-city markers a five-player game ends with (seed rules).
    assert sum(1 for c in board.cities.values() if c.goods > 0) > 15
    # The bag holds 25 cubes of each of the five colours (S5, S6); set-up needs fewer.
    assert board.goods_bag == {c: 25 for c in GOODS_COLORS}
    assert sum(c.goods for c in board.cities.values()) <= 125


def test_every_goods_colour_is_spread_over_the_country(board: Board) -> None:
    north = {spec.name for spec in design.CITIES if spec.lat >= 53.0}
    south = {spec.name for spec in design.CITIES if spec.lat < 53.0}
    for colour in GOODS_COLORS:
        named = {c.name for c in board.cities.values() if c.color == colour}
        assert named & north and named & south, colour


def test_no_two_cities_touch(board: Board) -> None:
    coords = list(city_hex(board).values())
    for i, a in enumerate(coords):
        for b in coords[i + 1:]:
            assert distance(board.layout, a, b) >= 2, (a, b)


def test_cities_stay_within_two_hexes_of_the_real_town(board: Board) -> None:
    for spec in design.CITIES:
        assert distance(board.layout, city_hex(board)[spec.name], hex_of(spec.lat, spec.lon)) <= 2


def test_provenance_on_every_fact(board: Board, raw: dict) -> None:
    for h in raw["hexes"]:
        assert h["src"] and all(s in board.sources for s in h["src"])
    for b in raw["barriers"]:
        assert b["src"] and b["reconstructed"] is True and b["note"]
    for line in board.major_lines:
        assert line.src and line.reconstructed
    assert all(t["src"] == ["S5"] and t["reconstructed"] is False for t in raw["new_cities"])


def test_new_city_tiles_are_the_base_game_set(board: Board) -> None:
    assert Counter(board.new_cities) == {
        "yellow": 3, "black": 3, "blue": 3, "purple": 3}


# --- playability ----------------------------------------------------------------------

def test_every_city_reaches_every_other_without_crossing_a_barrier(board: Board) -> None:
    cities = list(city_hex(board).values())
    reach = reachable(board, cities[0])
    assert all(c in reach for c in cities)


def test_every_city_has_a_link_to_another_city(board: Board) -> None:
    """A link stops at the first city it enters; every city must have at least one."""
    for name, coord in city_hex(board).items():
        others = [c for c in reachable(board, coord, through_cities=False)
                  if c != coord and hex_id(*c) in board.cities]
        assert others, name


def test_major_lines_are_buildable_and_scored_by_length(board: Board, raw: dict) -> None:
    assert len(board.major_lines) >= 12
    for line, line_raw in zip(board.major_lines, raw["major_lines"], strict=True):
        tiles = 0
        for a, b in zip(line.cities, line.cities[1:]):
            n = track_hexes_between(board, a, b)
            assert n is not None, (line.id, a, b)
            tiles += n
        assert line_raw["min_track_hexes"] == tiles
        assert line.vp == max(2, -(-tiles // 3))
        assert 2 <= line.vp <= 8


def test_barriers_only_block_wide_estuaries(board: Board, raw: dict) -> None:
    notes = Counter(b["note"] for b in raw["barriers"])
    assert set(notes) <= set(build_map.geography.BARRIER_LINES)
    assert notes["Severn estuary and Bristol Channel"] >= 3
    assert notes["Humber estuary"] >= 3
    for b in raw["barriers"]:
        a, c = (tuple(x) for x in b["between"])
        assert are_neighbours(board.layout, a, c)


def test_severn_estuary_forces_the_route_round_by_gloucester(board: Board) -> None:
    # Bristol to Cardiff is about two hexes across the water; without a crossing the
    # link has to go up the English bank and down the Welsh one.
    assert link_length(board, "Bristol", "Cardiff") >= 6
    assert link_length(board, "Bristol", "Gloucester") <= 3
    assert link_length(board, "Gloucester", "Cardiff") <= 5


def test_mersey_separates_liverpool_from_the_wirral(board: Board) -> None:
    liverpool = city_hex(board)["Liverpool"]
    south = [n for n in neighbours(board.layout, *liverpool)
             if hex_id(*n) in board.terrain and n[1] > liverpool[1]]
    assert south and all(hex_id(*n) not in board.neighbours(hex_id(*liverpool)) for n in south)


# --- geography ------------------------------------------------------------------------

def test_cities_sit_where_the_towns_are(board: Board) -> None:
    at = city_hex(board)
    assert at["London"][0] > at["Bristol"][0]  # east
    assert at["London"][1] > at["Birmingham"][1]  # south
    assert at["Newcastle"][1] < at["Leeds"][1] < at["Birmingham"][1] < at["Southampton"][1]
    assert at["Holyhead"][0] < at["Liverpool"][0] < at["Hull"][0]
    assert min(at.values(), key=lambda c: c[0]) == at["Penzance"]
    assert min(at.values(), key=lambda c: c[1]) == at["Berwick"]
    assert max(at.values(), key=lambda c: c[0]) in (at["Great Yarmouth"], at["Norwich"])


@pytest.mark.parametrize(("place", "lat", "lon", "terrains"), [
    ("Snowdon", 53.07, -4.08, {"mountain", "mountain_water"}),
    ("Cader Idris", 52.70, -3.90, {"mountain", "mountain_water"}),
    ("Brecon Beacons", 51.88, -3.44, {"mountain", "mountain_water"}),
    ("Scafell", 54.45, -3.21, {"mountain", "mountain_water"}),
    ("Cross Fell", 54.70, -2.49, {"mountain", "mountain_water"}),
    ("Kinder Scout", 53.38, -1.87, {"mountain", "mountain_water"}),
    ("Dartmoor", 50.58, -3.95, {"mountain", "mountain_water"}),
    ("Windermere", 54.37, -2.94, {"mountain_water"}),
    ("Salisbury Plain", 51.25, -1.85, {"plain"}),
    ("the Fens", 52.60, 0.05, {"plain"}),
    ("Vale of York", 54.15, -1.40, {"plain"}),
    ("Cheshire Plain", 53.10, -2.60, {"plain"}),
])
def test_terrain_of_known_places(board: Board, place: str, lat: float, lon: float,
                                 terrains: set[str]) -> None:
    h = hex_id(*hex_of(lat, lon))
    assert board.terrain[h] in terrains, (place, h)


@pytest.mark.parametrize("river", ["Thames", "Severn", "Trent", "Wye", "Dee", "Tyne"])
def test_rivers_are_mostly_water_hexes(board: Board, river: str) -> None:
    """Walk the river's course in 2 km steps: at least half the land hexes it passes are water hexes
    (a river that only clips a hex's corner leaves it open terrain)."""
    course = build_map.geography.WATERS[river]
    passed = set()
    for (lat1, lon1), (lat2, lon2) in zip(course, course[1:]):
        steps = 1 + int(max(abs(lat2 - lat1) * 111, abs(lon2 - lon1) * 70) / 2)
        for i in range(steps + 1):
            t = i / steps
            h = hex_of(lat1 + t * (lat2 - lat1), lon1 + t * (lon2 - lon1))
            if hex_id(*h) in board.terrain and hex_id(*h) not in board.cities:
                passed.add(hex_id(*h))
    wet = [h for h in passed if board.terrain[h] in ("water", "mountain_water")]
    assert len(wet) >= 0.5 * len(passed), (river, len(wet), len(passed))


@pytest.mark.parametrize(("place", "lat", "lon"), [
    ("North Sea off Lincolnshire", 53.30, 0.80),
    ("Irish Sea", 53.80, -3.80),
    ("Bristol Channel off Lundy", 51.18, -4.67),
    ("English Channel", 50.40, -1.00),
    ("Scotland (Dumfries)", 55.07, -3.61),
    ("Scotland (Edinburgh)", 55.95, -3.19),
])
def test_off_the_board(board: Board, place: str, lat: float, lon: float) -> None:
    assert hex_id(*hex_of(lat, lon)) not in board.terrain, place


def test_sea_is_listed_around_the_coast_and_scotland_is_left_out(board: Board, raw: dict) -> None:
    sea = {(h["col"], h["row"]) for h in raw["hexes"] if h["terrain"] == "sea"}
    land = set(coords(board))
    listed = sea | land
    assert not sea & land
    for place, lat, lon in [("Isle of Wight", 50.67, -1.30), ("Irish Sea", 53.80, -3.80),
                            ("Cardigan Bay", 52.40, -4.60), ("The Wash", 52.92, 0.25),
                            ("North Sea off Norfolk", 53.10, 1.40)]:
        assert hex_of(lat, lon) in sea, place
    for place, lat, lon in [("Dumfries", 55.07, -3.61), ("Hawick", 55.42, -2.79),
                            ("Kelso", 55.60, -2.43)]:
        assert hex_of(lat, lon) not in listed, place
    # Every playable hex on the edge of the land borders sea or Scotland, never a gap.
    max_col = max(c for c, _ in listed)
    for coord in land:
        for n in neighbours(board.layout, *coord):
            if n not in listed:
                assert n[0] < 0 or n[1] < 0 or n[0] > max_col or \
                    build_map._inside(build_map.centre(*n),
                                      build_map._projected(build_map.geography.SCOTLAND)), n


def test_the_rules_engine_plays_this_map_to_the_end() -> None:
    """Integration with the rules engine (branch `rotw`): whole games on the default map,
    which is this map.json, end by emptied cities for 2 to 5 players."""
    engine = getattr(importlib.import_module("shared.games.rotw_england_wales"), "ENGINE", None)
    if engine is None:
        pytest.skip("the rules engine (branch rotw) is not in this tree yet")
    helpers = pytest.importorskip("tests.rotw.helpers",
                                  reason="the rules engine's test helpers are not in this tree")
    for players in (2, 3, 4, 5):
        state = engine.setup(["Ada", "Brunel", "Cole", "Dora", "Eve"][:players], {}, players)
        state, steps = helpers.greedy_playout(state, random.Random(players))
        result = engine.result(state)
        assert result is not None, f"{players} players: no result after {steps} steps"
        assert len(result.scores) == players


# --- the data file is what the generator makes ----------------------------------------

def test_map_json_is_the_generators_output() -> None:
    data, _ = build_map.build()
    assert build_map.render(data) == DATA_FILE.read_text(encoding="utf-8")


def test_build_map_check_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "services.offline.rotw_map.build_map", "--check"],
        cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_preview_draws_every_hex_city_and_barrier(board: Board, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert preview.main([str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count("<polygon") == len(board.terrain)
    assert svg.count('stroke-width="4"') == len(board.barriers)
    for name in board.city_by_name:
        assert f">{name} (" in svg.replace("&apos;", "'")


# --- the grid -------------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS)
def test_neighbours_are_symmetric_and_at_distance_one(layout: str) -> None:
    for col in range(1, 7):
        for row in range(1, 7):
            around = neighbours(layout, col, row)
            assert len(set(around)) == 6
            for n in around:
                assert (col, row) in neighbours(layout, *n)
                assert distance(layout, (col, row), n) == 1


# --- the loader rejects broken maps ---------------------------------------------------

def _small_map() -> dict[str, Any]:
    """A valid map file's JSON, for the tests below to break one part of."""
    hexes: list[dict[str, Any]] = [{"col": c, "row": r, "terrain": "plain", "city": None, "src": ["T"]}
             for r in range(3) for c in range(4)]
    hexes[0]["city"] = {"name": "Alpha", "color": "red", "goods": 3}
    hexes[11]["city"] = {"name": "Beta", "color": "grey", "goods": 1}
    return {"format": 1, "name": "test", "layout": "pointy-odd-r", "sources": {"T": "test"},
            "hexes": hexes,
            "barriers": [{"between": [[1, 0], [2, 0]]}],
            "major_lines": [{"id": "ab", "name": "A-B", "from": "Alpha", "to": "Beta",
                             "via": [], "vp": 3}],
            "new_cities": [{"id": "A", "color": "blue"}]}


def test_small_map_loads() -> None:
    board = parse_map(_small_map())
    assert city_of(board, "Beta").goods == 1
    assert "2,0" not in board.neighbours("1,0")
    assert track_hexes_between(board, "Alpha", "Beta") == 3
    assert parse_map(json.dumps(_small_map())).city_by_name == board.city_by_name


def _broken(change) -> dict:
    data = copy.deepcopy(_small_map())
    change(data)
    return data


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format=2), "unsupported map format 2"),
    (lambda d: d.update(layout="hexagonal"), "not 'hexagonal'"),
    (lambda d: d["hexes"].append(dict(d["hexes"][3])), "hex (3, 0) is listed twice"),
    (lambda d: d["hexes"][2].update(col=-1), "negative coordinate"),
    (lambda d: d["hexes"][2].update(terrain="swamp"), "unknown terrain 'swamp'"),
    (lambda d: d["hexes"][2].update(src=["X"]), "cites source 'X'"),
    (lambda d: d["hexes"][0].update(terrain="sea"), "city Alpha at hex (0, 0) is on a sea hex"),
    (lambda d: d["hexes"][11]["city"].update(name="Alpha"), "city name 'Alpha' is used twice"),
    (lambda d: d["hexes"][11]["city"].update(color="green"), "unknown colour 'green'"),
    (lambda d: d["hexes"][11]["city"].update(goods=-1), "starts with -1 goods"),
    (lambda d: d["hexes"][11]["city"].update(goods=22), "starts with 22 goods"),
    (lambda d: d["hexes"][11]["city"].pop("goods"), "does not match the format"),
    (lambda d: d["hexes"][11].update(town=True), "both a city and a town"),
    (lambda d: d["barriers"].append({"between": [[0, 0], [2, 0]]}), "not neighbours"),
    (lambda d: d["barriers"].append({"between": [[0, 0], [9, 9]]}), "[9, 9] is not a playable"),
    (lambda d: d["barriers"].append({"between": [[2, 0], [1, 0]]}), "is listed twice"),
    (lambda d: d["major_lines"][0].update(to="Gamma"), "names 'Gamma', which is no city"),
    (lambda d: d["major_lines"][0].update(via=["Beta"]), "names a city more than once"),
    (lambda d: d["major_lines"][0].update(vp=0), "awards nothing"),
    (lambda d: d["major_lines"].append(dict(d["major_lines"][0])), "'ab' is listed twice"),
    (lambda d: d["new_cities"].append({"id": "B", "color": "grey"}), "has colour 'grey'"),
    (lambda d: d.update(goods_bag={"red": 2, "grey": 1}), "goods_bag has colour 'grey'"),
    (lambda d: d.update(goods_bag={"red": -1}), "goods_bag has -1 red cubes"),
    (lambda d: d.update(goods_bag={"red": 3}), "set-up draws 4 cubes but the bag holds 3"),
    (lambda d: d.update(goods_bag={"red": 9, "green": 9}), "new city tile 'A' has colour 'blue'"),
])

def test_loader_rejects(change, message: str) -> None:
    with pytest.raises(MapError, match=None) as info:
        parse_map(_broken(change))
    assert message in str(info.value)


def test_a_sixth_goods_colour_comes_with_the_bag() -> None:
    data = _small_map()
    data["goods_bag"] = {"red": 9, "blue": 9, "white": 9}
    data["hexes"][11]["city"]["color"] = "white"
    assert city_of(parse_map(data), "Beta").color == "white"


def test_loader_rejects_bad_json() -> None:
    with pytest.raises(MapError, match="not valid JSON"):
        parse_map(b"{")
