"""Track-laying legality and costs on the 18Ireland map (facts from 18xx.games' rules)."""

import pytest

from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as T
from shared.games.core18xx.board.state import BoardError
from shared.games.core18xx.board.tiles import placed
from shared.games.core18xx.choice import flatten
from shared.games.g18ireland.map import PHASE_COLORS, TRACK_RULES, board_map
from shared.games.g18ireland.map import lay_slot as MAP_LAY_SLOT

M = board_map()


def open_slot(slot: T.LaySlot | None) -> T.LaySlot:
    """A lay the tile-lay table allows (None: no more lays this turn)."""
    assert slot is not None, "the table allows no such lay"
    return slot


FIRST = open_slot(MAP_LAY_SLOT(0, False))
SECOND = open_slot(MAP_LAY_SLOT(1, False))


def der_start():
    """DER (Dundalk) with its home token at I9 and the Dundalk/Drogheda tile IR2 laid."""
    b = B.place_token(M, B.initial(M), "DER", "I9", 0)
    return B.lay(M, b, "I9", "IR2", 0)


def test_first_lay_on_the_home_hex():
    b = B.place_token(M, B.initial(M), "DER", "I9", 0)
    lays = T.legal_lays(M, b, "DER", PHASE_COLORS["2"], FIRST, rules=TRACK_RULES)
    # the DD hex takes only its DD tile, and only where every exit meets a map hex
    assert [(x.hex, x.tile) for x in lays] == [("I9", "IR2")]
    assert all(set(placed(M.tiles["IR2"], x.rotation).exits) <= {0, 1, 2, 3} for x in lays)


def test_reach_terrain_and_second_lay_cost():
    b = der_start()
    lays = T.legal_lays(M, b, "DER", PHASE_COLORS["2"], FIRST, rules=TRACK_RULES)
    # the city's track leaves towards H8 and I7 (the town's edge towards Dublin is not DER's)
    assert {x.hex for x in lays} == {"H8", "I7"}
    assert {x.cost for x in lays if x.hex == "I7"} == {40}  # mountain
    assert {x.cost for x in lays if x.hex == "H8"} == {0}
    assert all(M.tiles[x.tile].color == "yellow" for x in lays)
    second = T.legal_lays(M, b, "DER", PHASE_COLORS["2"], SECOND, rules=TRACK_RULES)
    assert {(x.hex, x.tile, x.rotation) for x in second} == {(x.hex, x.tile, x.rotation) for x in lays}
    assert {x.cost for x in second if x.hex == "H8"} == {20}
    # new exits must face the network: a lay on H8 must use its edge towards I9
    for x in lays:
        if x.hex == "H8":
            assert 5 in placed(M.tiles[x.tile], x.rotation).exits


def test_upgrades_follow_phase_and_label():
    b = der_start()
    in2 = T.legal_lays(M, b, "DER", PHASE_COLORS["2"], FIRST, rules=TRACK_RULES)
    assert "I9" not in {x.hex for x in in2}  # green not yet
    in4 = T.legal_lays(M, b, "DER", PHASE_COLORS["4"], FIRST, rules=TRACK_RULES)
    upgrades = {(x.tile, x.cost) for x in in4 if x.hex == "I9"}
    assert {t for t, _ in upgrades} == {"IR7", "IR8"}  # DD label
    assert {c for _, c in upgrades} == {40}  # IR2 carries a water cost
    # no upgrade as a second lay in 18Ireland (without William Dargan)
    assert "I9" not in {x.hex for x in T.legal_lays(M, b, "DER", PHASE_COLORS["4"], SECOND, rules=TRACK_RULES)}
    dargan = open_slot(MAP_LAY_SLOT(1, False, True))
    assert {x.cost for x in T.legal_lays(M, b, "DER", PHASE_COLORS["4"], dargan, rules=TRACK_RULES)
            if x.hex == "I9"} == {40 + 30}
    assert MAP_LAY_SLOT(1, True) == T.LaySlot(False, False, 20, 20)
    assert MAP_LAY_SLOT(2, False) is None


def test_upgrade_rules_between_tiles():
    t = M.tiles
    assert T.upgrades_to(t["7"], t["80"])
    assert T.upgrades_to(t["9"], t["82"])
    assert not T.upgrades_to(t["9"], t["80"])  # a straight is not in 80
    assert not T.upgrades_to(t["7"], t["IR44"])  # yellow to brown skips a colour
    assert not T.upgrades_to(t["77"], t["80"])  # narrow track is not kept by broad track
    assert T.upgrades_to(t["77"], t["IR35"])
    assert not T.upgrades_to(M.hexes["I11"].tile, t["IR6"])  # DUB takes DUB, not BC
    assert T.upgrades_to(M.hexes["I11"].tile, t["IR9"])
    assert not T.upgrades_to(t["3"], t["IR36"])  # a town never becomes a city
    assert T.upgrades_to(M.hexes["F0"].tile, t["IM"], water_offboard=True)
    assert not T.upgrades_to(M.hexes["F0"].tile, t["IM"])


def test_narrow_lays_are_free_of_terrain_and_follow_broad_rules_only_when_broad():
    mountain = placed(M.hexes["E15"].tile, 0)
    assert T.terrain_cost(mountain, placed(M.tiles["79"], 0), TRACK_RULES, None) == 0
    assert T.terrain_cost(mountain, placed(M.tiles["9"], 0), TRACK_RULES, None) == 80
    assert T.terrain_cost(mountain, placed(M.tiles["9"], 0), TRACK_RULES, T.Special(free=True)) == 0
    blank = placed(M.hexes["H8"].tile, 0)
    assert not T.uses_broad_rules(blank, placed(M.tiles["77"], 0))
    assert T.uses_broad_rules(blank, placed(M.tiles["7"], 0))
    # adding a broad branch to narrow track is a broad lay; re-using the broad part is not
    assert T.uses_broad_rules(placed(M.tiles["77"], 0), placed(M.tiles["IR35"], 0))


def test_blocked_hex_and_choice_trie_agree_with_check():
    b = der_start()
    lays = T.legal_lays(M, b, "DER", PHASE_COLORS["4"], FIRST, rules=TRACK_RULES)
    choice = T.lay_choices(lays)
    rows = flatten(choice)
    assert sorted(rows) == sorted((x.hex, x.tile, x.rotation) for x in lays)
    for hex_, tile, rot in rows:
        assert T.check_lay(M, b, "DER", PHASE_COLORS["4"], FIRST, hex_, tile, rot, rules=TRACK_RULES).tile == tile
    legal = set(rows)
    for hex_, tile, rot in [("H8", "7", r) for r in range(6)] + [("H10", "8", 0), ("I9", "IR9", 0)]:
        if (hex_, tile, rot) in legal:
            continue
        with pytest.raises(BoardError) as e:
            T.check_lay(M, b, "DER", PHASE_COLORS["4"], FIRST, hex_, tile, rot, rules=TRACK_RULES)
        assert e.value.code == "illegal_lay"
    blocked = T.legal_lays(M, b, "DER", PHASE_COLORS["4"], FIRST, rules=TRACK_RULES, blocked=frozenset({"H8"}))
    assert "H8" not in {x.hex for x in blocked}
    with pytest.raises(BoardError) as e:
        T.check_lay(M, b, "DER", PHASE_COLORS["4"], FIRST, "H8", "8", 0, rules=TRACK_RULES, blocked=frozenset({"H8"}))
    assert e.value.code == "hex_blocked"
    with pytest.raises(BoardError) as e:
        T.check_lay(M, b, "DER", PHASE_COLORS["4"], FIRST, "Z9", "8", 0, rules=TRACK_RULES)
    assert e.value.code == "no_such_hex"


def test_special_lay_without_connection():
    # Donegal Railway: narrow yellow tiles in the Donegal area, no connection needed
    b = B.initial(M)
    special = T.Special(hexes=("F4", "F2", "E3", "E5", "G3", "G5"), tiles=("IR5", "77", "78", "79"), reach="none")
    lays = T.legal_lays(M, b, "GNRI", PHASE_COLORS["4"], FIRST, rules=TRACK_RULES, special=special)
    assert lays and {x.hex for x in lays} <= set(special.hexes)
    assert {x.tile for x in lays} <= set(special.tiles)
    assert any(x.hex == "F4" and x.tile == "IR5" for x in lays)  # Donegal town
    assert {x.cost for x in lays} == {0}  # narrow track: terrain free
    # the second Donegal tile must join the first
    first = next(x for x in lays if x.hex == "F4" and x.tile == "IR5"
                 and M.geometry["F4"][next(iter(placed(M.tiles["IR5"], x.rotation).exits))] in special.hexes)
    b2 = B.lay(M, b, first.hex, first.tile, first.rotation)
    nxt = T.legal_lays(M, b2, "GNRI", PHASE_COLORS["4"], FIRST, rules=TRACK_RULES,
                       special=T.Special(hexes=("F2", "E3", "E5", "G3", "G5"), tiles=special.tiles, reach="none"))
    joined = [x for x in nxt if T.tiles_connect(M, B.lay(M, b2, x.hex, x.tile, x.rotation), "F4", x.hex)]
    assert joined and len(joined) < len(nxt)


def test_board_of_works_and_dcr_special_reach():
    b = der_start()
    bow = T.Special(free=True)
    lays = T.legal_lays(M, b, "DER", PHASE_COLORS["2"], FIRST, rules=TRACK_RULES, special=bow)
    normal = T.legal_lays(M, b, "DER", PHASE_COLORS["2"], FIRST, rules=TRACK_RULES)
    assert {(x.hex, x.tile, x.rotation) for x in lays} == {(x.hex, x.tile, x.rotation) for x in normal}
    assert {x.cost for x in lays} == {0}  # I7's mountain is free
    # DCR-style: the hex must be reached, but any rotation on the map is fine
    hexonly = T.Special(hexes=("I7",), reach="hex")
    some = T.legal_lays(M, b, "DER", PHASE_COLORS["2"], FIRST, rules=TRACK_RULES, special=hexonly)
    assert {x.hex for x in some} == {"I7"}
    assert len(some) > len([x for x in normal if x.hex == "I7"])
    assert T.legal_lays(M, b, "DER", PHASE_COLORS["2"], FIRST, rules=TRACK_RULES,
                        special=T.Special(hexes=("G5",), reach="hex")) == []


def test_tile_supply_counts_and_returns_replaced_tiles():
    b = der_start()
    assert B.available_tiles(M, b)["IR2"] == 0
    b2 = B.lay(M, b, "I9", "IR7", 0)
    assert B.available_tiles(M, b2)["IR2"] == 1 and B.available_tiles(M, b2)["IR7"] == 0
    lays = T.legal_lays(M, b2, "DER", PHASE_COLORS["4"], FIRST, rules=TRACK_RULES)
    assert "IR7" not in {x.tile for x in lays}
    # the home token moved to the upgraded city
    assert B.token_hexes(b2, "DER") == [("I9", 0)]


def test_water_offboard_offboard_on_a_sea_hex():
    # The Irish Mail (TIM): the red IM tile on one of the sea hexes, facing land
    b = B.initial(M)
    special = T.Special(hexes=("F0", "H0", "G-1", "J12", "G21", "H20"), tiles=("IM",), reach="none",
                        water_offboard=True)
    lays = T.legal_lays(M, b, "GNRI", PHASE_COLORS["4"], FIRST, rules=TRACK_RULES, special=special)
    assert lays and {x.tile for x in lays} == {"IM"}
    for x in lays:
        exit_edge = next(iter(placed(M.tiles["IM"], x.rotation).exits))
        assert M.geometry[x.hex][exit_edge] is not None
    assert {x.hex for x in lays} == set(special.hexes)  # every sea placeholder faces land (G-1 faces G1)
    # once laid, the sea hex is linked to the land hex it faces
    x = lays[0]
    after = B.lay(M, b, x.hex, "IM", x.rotation)
    e = next(iter(placed(M.tiles["IM"], x.rotation).exits))
    land = M.geometry[x.hex][e]
    assert land is not None
    assert B.linked(M, b, land, (e + 3) % 6) is None and B.linked(M, after, land, (e + 3) % 6) == x.hex


def test_tile_lay_tables():
    # William Dargan: after an upgrade, a second upgrade (not a yellow) for 30
    assert MAP_LAY_SLOT(1, True, True) == T.LaySlot(False, True, 20, 30)
    assert MAP_LAY_SLOT(1, False, True) == T.LaySlot(True, True, 20, 30)
    # a 1841-style table: five lays, no hex twice after the first
    table = [{"lay": True, "upgrade": True, "cost": 0}] + [
        {"lay": True, "upgrade": True, "cost": 0, "cannot_reuse_same_hex": True}] * 4
    assert open_slot(T.lay_slot(table, 4, True)).cannot_reuse_same_hex and T.lay_slot(table, 5, False) is None
    b = der_start()
    slot = open_slot(T.lay_slot(table, 1, False))
    again = T.legal_lays(M, b, "DER", PHASE_COLORS["4"], slot, rules=TRACK_RULES, laid_hexes=frozenset({"I9"}))
    assert "I9" not in {x.hex for x in again}
    assert "I9" in {x.hex for x in T.legal_lays(M, b, "DER", PHASE_COLORS["4"], slot, rules=TRACK_RULES)}
