"""1841's data: every option set's map loads through the core's readers, the real exports'
tile lays and tokens name hexes, tiles and cities our data has, and the counts are 18xx.games'
(lib/engine/game/g_1841: map.rb, entities.rb, game.rb)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from shared.games.core18xx.board import hexgrid
from shared.games.g1841 import data as D

from tests.exports import export_paths

EXPORTS = export_paths("1841")
needs_exports = pytest.mark.skipif(not EXPORTS, reason="1841 exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")


@pytest.mark.parametrize("name", D.VARIANTS)
def test_every_data_set_loads_through_the_core_readers(name: str) -> None:
    m = D.the_map(name)
    assert m.axes == "number-x" and m.layout == "flat"
    data = D.map_data(name)
    assert set(m.hexes) == set(data["hexes"])
    for coord, h in m.hexes.items():
        assert h.index == data["hexes"][coord]["index"]
    assert len(m.tile_ids) == sum(m.counts.values())
    # every corporation with a reserved home has a city there
    for corp, hexes in D.home_hexes(name).items():
        for coord in hexes:
            assert m.hexes[coord].tile.cities, (corp, coord)
        city = D.homes(name)[corp][1]
        if city is not None:
            assert city < len(m.hexes[hexes[0]].tile.cities)


def test_the_variant_of_an_option_set() -> None:
    assert D.variant({}) == "default"
    assert D.variant({"version_1": True, "p2p_purchases": True}) == "version_1"
    assert D.variant({"lite": True, "sfli_run_variant": True}) == "lite"
    assert D.variant({"lite": True, "version_1": True}) == "lite+version_1"
    with pytest.raises(ValueError, match="no 1841 data set"):
        D.map_data("v3")


# 18xx.games' counts, read off lib/engine/game/g_1841 (map.rb game_hexes/game_tiles, game.rb)
HEXES = {"default": 133, "version_1": 133, "lite": 122, "lite+version_1": 122}
TRAINS = {False: {"2": 8, "3": 6, "4": 4, "5": 3, "6": 2, "7": 2, "8": 7},
          True: {"2": 6, "3": 5, "4": 3, "5": 2, "6": 2, "7": 2, "8": 7}}


@pytest.mark.parametrize("name", D.VARIANTS)
def test_counts_are_18xx_games(name: str) -> None:
    lite, v1 = "lite" in name, "version_1" in name
    m = D.the_map(name)
    e = D.entities(name)
    assert len(m.hexes) == HEXES[name]
    assert sum(m.counts.values()) == 191 and len(m.counts) == 87
    assert ("608" in m.counts, "612" in m.counts) == (v1, not v1)
    assert {t["name"]: t["num"] for t in e["trains"]} == TRAINS[lite]
    assert [t.get("rusts_on") for t in e["trains"]] == ["4", "5", "7", "8", None, None, None]
    assert e["bank"] == (10_900 if lite else 14_400)
    assert e["starting_cash"] == ({"3": 840, "4": 630, "5": 504, "6": 420} if lite else
                                  {"3": 1120, "4": 840, "5": 672, "6": 560, "7": 480, "8": 420})
    assert e["player_range"] == ([3, 6] if lite else [3, 8])
    assert e["cert_limit"] == {"3": 21, "4": 16, "5": 13, "6": 11, "7": 10, "8": 9}
    assert [p["name"] for p in e["phases"]] == ["2", "3", "4", "5", "6", "7", "8"]
    assert [(p["train_limit"]["minor"], p["train_limit"]["major"]) for p in e["phases"]] == \
        [(2, 4), (2, 4), (2, 3), (2, 3), (1, 2), (1, 2), (1, 2)]
    assert len(e["market"]) == 13 and e["market"][0][-1] == "516e"
    corps = {c["sym"]: c for c in e["corporations"]}
    general = [s for s, c in corps.items() if not c["historical"]]
    assert sorted(general) == ["AFI", "ATFA", "CFCC", "CGTF", "CTDA", "CTLP", "CTS", "FTP", "ICSF", "IFAI",
                               "ILTF", "RATF", "RSFS", "SLDV"]
    assert sorted(s for s in general if corps[s]["type"] == "minor") == ["CTLP", "FTP", "SLDV"]
    historical = sorted(s for s, c in corps.items() if c["historical"] and c["startable"])
    assert historical == sorted(["IRSFF", "SFTG", "SFTN", "SFTC", *([] if lite else ["SFMA", "SFLP", "SSFL"])])
    unstartable = sorted(s for s, c in corps.items() if not c["startable"])
    assert unstartable == sorted(["SFL", "Holding", "SFV" if v1 else "SB", *([] if lite else ["SFLi"])])
    for sym, c in corps.items():
        minor = c["type"] == "minor"
        assert c["shares"] == ([40, 20, 20, 20] if minor else [20, 10, 10, 10, 10, 10, 10, 10, 10]), sym
        assert c["float_percent"] == (40 if minor else 20) and len(c["tokens"]) == (1 if minor else 2), sym
    # SFTC and SFL are minors in version 1, majors otherwise
    assert (corps["SFTC"]["type"], corps["SFL"]["type"]) == (("minor", "minor") if v1 else ("major", "major"))
    concessions = {c["sym"]: c for c in e["companies"]}
    assert concessions["Bayard"]["revenue"] == 20 and concessions["Bayard"].get("corporation") is None
    assert sorted(s for s in concessions if s != "Bayard") == \
        sorted(["SFTC", "SFTN", "SFTG", "IRSFF", *([] if lite else ["SFLP", "SFMA", "SSFL"])])
    assert all(c["value"] == 50 for c in concessions.values())
    assert all(concessions[s]["corporation"] == s for s in concessions if s != "Bayard")


@pytest.mark.parametrize("name", D.VARIANTS)
def test_regions_zones_offboards_passes_and_ports_name_real_hexes(name: str) -> None:
    m = D.the_map(name)
    data = D.map_data(name)
    for phase, borders in data["regions_by_phase"].items():
        assert phase in ("2", "4", "5")
        for coord, edges in borders.items():
            for edge in edges:
                # 18xx.games adds the border on both sides, so the hex across must exist too
                assert hexgrid.neighbour(coord, edge, "flat", "number-x") in m.hexes, (phase, coord, edge)
    zone_hexes = [c for hexes in data["zones"].values() for c in hexes]
    assert len(zone_hexes) == len(set(zone_hexes))
    # the lite map ends at Tuscany's edge: Livorno (S11) is not on it
    missing = {"S11"} if "lite" in name else set()
    for coord in [*zone_hexes, *data["major_cities"], *data["historical_cities"], *data["veneto"]]:
        assert (coord in m.hexes) == (coord not in missing), coord
    for group, hexes in data["offboard_groups"].items():
        for coord in hexes:
            tile = m.hexes[coord].tile
            assert tile.color == "red" and any(n.kind == "offboard" for n in tile.nodes), group
    for coord, size in D.passes(name).items():
        assert size in (1, 2) and m.hexes[coord].tile.color in ("yellow", "green") and m.hexes[coord].tile.upgrade_cost >= 100
    assert set(D.pass_tiles(name)) == {"610", "613", "614", "615", "616", "617", "618"}
    for coord in D.ports(name):
        assert m.hexes[coord].tile.color == "blue"


def _actions(export: dict) -> list[dict]:
    out = []
    for a in export["actions"]:
        out.append(a)
        out.extend(a.get("auto_actions") or [])
    return out


@needs_exports
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_every_lay_and_token_of_a_real_export_names_our_hexes_and_tiles(path: Path) -> None:
    export = json.loads(path.read_text())
    rules = export["settings"].get("optional_rules") or []
    name = D.variant({r: True for r in rules})
    m = D.the_map(name)
    laid: set[str] = set()
    checked: Counter[str] = Counter()
    for a in _actions(export):
        if a["type"] == "lay_tile":
            tile, _, copy = a["tile"].rpartition("-")
            assert a["hex"] in m.hexes, a
            assert tile in m.tiles and int(copy) < m.counts[tile], a
            assert 0 <= a["rotation"] <= 5
            laid.add(a["tile"])
            checked["lay_tile"] += 1
        elif a["type"] in ("place_token", "remove_token"):
            tile_id, _, city = a["city"].rpartition("-")
            tile_name, _, copy = tile_id.rpartition("-")
            if tile_name in m.hexes:            # a preprinted tile: "HEX-index"
                assert m.hexes[tile_name].index == int(copy), a
                cities = m.hexes[tile_name].tile.cities
            else:                               # a laid tile, laid before
                assert tile_id in laid and tile_name in m.tiles, a
                cities = m.tiles[tile_name].cities
            assert int(city) < len(cities), a
            checked[a["type"]] += 1
    assert checked["lay_tile"] > 50 and checked["place_token"] > 5


@pytest.mark.parametrize("name", D.VARIANTS)
def test_region_borders_change_in_phases_4_and_5(name: str) -> None:
    by_phase = {p: D.region_borders(name, p) for p in range(2, 9)}
    assert by_phase[2] == by_phase[3] and by_phase[5] == by_phase[6] == by_phase[7] == by_phase[8]
    assert len({by_phase[2], by_phase[4], by_phase[5]}) == 3
    for borders in by_phase.values():
        for coord, edge in borders:
            # both sides of every border, and only between hexes on the map
            other = hexgrid.neighbour(coord, edge, "flat", "number-x")
            assert (other, hexgrid.invert(edge)) in borders and coord in D.the_map(name).hexes
    # Lugano's (C7) border with Switzerland stands all game; the Conservative Zone's (K9 edge 1)
    # goes in phase 4, when the Austrian possessions shrink to Veneto (F12 edge 1); phase 5
    # leaves only Lugano's
    assert all({("C7", 0), ("C7", 5)} <= b for b in by_phase.values())
    assert ("K9", 1) in by_phase[2] and ("K9", 1) not in by_phase[4]
    assert ("F12", 1) not in by_phase[2] and ("F12", 1) in by_phase[4]
    assert {c for c, _ in by_phase[5]} == {"C7", *(hexgrid.neighbour("C7", e, "flat", "number-x") for e in (0, 5))}
    with pytest.raises(ValueError):
        D.region_borders(name, 1)
