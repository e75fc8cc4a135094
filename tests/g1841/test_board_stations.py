"""1841's station tokens on hand-built positions of the real map: reserved homes, historical
homes placed, general homes by zone and phase, Firenze held for SFMA, token prices by distance,
founding purchases, buying another corporation's token (shared/games/g1841/board/stations.py)."""

from __future__ import annotations

import pytest

from shared.games.core18xx.board import state as S
from shared.games.core18xx.board.state import BoardError
from shared.games.g1841 import data as D
from shared.games.g1841.board import stations as ST

M = D.the_map()


def start() -> S.BoardState:
    return ST.initial(M, "default")


def pisa_to_firenze() -> S.BoardState:
    # SSFL home at Pisa (Q11), track Q11 - R12 - S13 - Firenze's first city (R14)
    b = ST.place_homes(M, start(), "default", "SSFL")
    return S.lay(M, S.lay(M, b, "R12", "9", 2), "S13", "8", 2)


def test_every_home_hex_is_reserved_and_historical_homes_are_placed() -> None:
    b = start()
    assert {r.corp for r in b.reservations["F16"]} == {"IRSFF"}       # IRSFF's second home
    assert {(r.corp, r.city) for r in b.reservations["J6"]} == {("SFTG", 0)}
    assert b.closed and ("E7", 1) in b.closed                          # phase 2's borders
    both = ST.place_homes(M, b, "default", "IRSFF")
    assert both.tokens["F8"] == (("IRSFF",),) and both.tokens["F16"][0] == ("IRSFF",)
    sftg = ST.place_homes(M, b, "default", "SFTG")
    assert sftg.tokens["H4"] == (("SFTG",), ("",)) and sftg.tokens["J6"] == (("SFTG",),)
    sftn = ST.place_homes(M, sftg, "default", "SFTN")
    assert sftn.tokens["H4"] == (("SFTG",), ("SFTN",))
    assert ST.places_homes_itself("default", "SFTN") and not ST.places_homes_itself("default", "SFMA")
    assert ST.places_homes_itself("version_1", "SFMA") and not ST.places_homes_itself("default", "AFI")
    # SFMA (default game) chooses one of Firenze's two cities
    assert [(s.hex, s.city) for s in ST.home_choices(M, b, "default", 2, "SFMA")] == [("R14", 0), ("R14", 1)]


def test_general_homes_by_zone_and_phase() -> None:
    b = start()
    # before phase 4: no historical city, nothing in Lombardy or Veneto
    assert ST.home_hexes(M, b, "default", 3, "AFI") == ["M7", "S11", "K11", "L12", "K13", "L14", "K15"]
    later = ST.home_hexes(M, b, "default", 4, "AFI")
    assert "F8" in later and "D16" in later and "C7" not in later      # Lugano never
    # a second token in the home's zone, not the home
    assert ST.home_hexes(M, b, "default", 3, "AFI", "K11") == ["L12", "K13", "L14", "K15"]
    assert ST.home_hexes(M, b, "default", 4, "AFI", "D16") == ["H12", "G13", "F14", "G15", "F16"]
    assert "D16" not in ST.home_hexes(M, b, "default", 4, "AFI", "K11")
    assert len(ST.home_hexes(M, b, "default", 5, "AFI", "K11")) == len(later) - 1
    # a minor: no major city, no hex holding a token
    assert ST.home_hexes(M, b, "default", 3, "CTLP") == ["S11", "K11", "L12", "K13", "K15"]
    taken = S.place_token(M, b, "AFI", "K13", 0)
    assert "K13" not in ST.home_hexes(M, taken, "default", 3, "CTLP")
    # a reserved slot is no choice for another corporation
    assert ("F8", 0) not in {(s.hex, s.city) for s in ST.home_choices(M, b, "default", 4, "AFI")}


def test_firenze_waits_for_sfma_or_phase_4_in_the_default_game() -> None:
    b = pisa_to_firenze()
    assert ("R14", 0) not in {(s.hex, s.city) for s in ST.legal_tokens(M, b, "default", 3, "SSFL")}
    for phase, sfma_floated in ((4, False), (3, True)):
        assert ("R14", 0) in {(s.hex, s.city) for s in ST.legal_tokens(M, b, "default", phase, "SSFL", sfma_floated=sfma_floated)}
    assert ST.firenze_open("version_1", 2, "SSFL", False) and ST.firenze_open("lite", 2, "SSFL", False)
    assert ST.firenze_open("default", 2, "SFMA", False)


def test_tokens_go_only_where_the_region_graph_reaches() -> None:
    # AFI at Busto Arsizio (E7) with track to Como (D8) and to Lugano (C7), whose border
    # stands all game: Como takes a token, Lugano never, though track and trains cross
    b = S.place_token(M, start(), "AFI", "E7", 0)
    b = S.lay(M, S.lay(M, S.lay(M, b, "E7", "57", 0), "C7", "57", 0), "D8", "57", 1)
    b = S.lay(M, b, "E7", "15", 3)          # green Busto: exits 0, 3 (Lugano), 4 (Como), 5
    for phase in (2, 5, 8):
        assert [(s.hex, s.city) for s in ST.legal_tokens(M, b, "default", phase, "AFI")] == [("D8", 0)]
    assert ("C7", 0) not in ST.reached(M, b, "default", 8, "AFI")


def test_token_price_by_distance_from_track() -> None:
    b = start()
    assert ST.hex_distance("F8", "F16") == 8 and ST.hex_distance("E7", "F8") == 1 and ST.hex_distance("K13", "K13") == 0
    # Modena (K13) and its neighbours on an empty map: nothing connected within two hexes
    assert ST.hex_price(M, b, "default", 3, "K13") == 25
    assert ST.hex_price(M, b, "default", 3, "S11") == 100                  # Pisa's printed city beside it
    laid = S.lay(M, b, "K13", "57", 0)
    assert [ST.hex_price(M, laid, "default", 3, h) for h in ("K13", "L12", "K11")] == [200, 100, 50]
    assert ST.token_price(M, laid, "default", 3, "AFI", ["K11", "L12"]) == 100   # the dearer home
    assert ST.token_price(M, laid, "default", 3, "SSFL") == 50                   # historical
    with pytest.raises(BoardError):
        ST.token_price(M, laid, "default", 3, "AFI")


def test_tokens_bought_at_founding() -> None:
    assert ST.purchase_range("default", "major") == (2, 5) and ST.purchase_range("default", "minor") == (1, 2)
    assert ST.purchase_options(50, 50, 2, 5, 160) == {2: 100, 3: 150}
    assert ST.purchase_options(200, 200, 2, 5, 100) == {2: 400}           # the fewest, with emergency money
    assert ST.purchase_options(50, 100, 1, 4, 260) == {1: 50, 2: 150, 3: 250}   # a transformation's prices
    assert ST.purchase_options(50, 50, 0, 2, 60) == {0: 0, 1: 50}


def test_buying_another_corporations_token() -> None:
    b = pisa_to_firenze()
    b = S.place_token(M, b, "SFMA", "R14", 0)
    # SFMA has one city token: it cannot sell it; with a second one it can
    assert ST.buyable_tokens(M, b, "default", 4, "SSFL", sellers={"SFMA"}) == []
    two = S.place_token(M, b, "SFMA", "K13", 0)          # a second city token, out of SSFL's reach
    offer = ST.buyable_tokens(M, two, "default", 4, "SSFL", sellers={"SFMA"})
    assert [(o.hex, o.city, o.slot, o.owner) for o in offer] == [("R14", 0, 0, "SFMA")]
    assert ST.buyable_tokens(M, two, "default", 4, "SSFL", sellers=()) == []     # no player president
    after = ST.buy_token(M, two, "SSFL", "R14", 0, 0)
    assert after.tokens["R14"][0] == ("SSFL",)
    # not where the buyer already has a token on the hex
    assert all(o.hex != "R14" for o in ST.buyable_tokens(M, S.place_token(M, two, "SSFL", "R14", 1), "default", 4,
                                                         "SSFL", sellers={"SFMA"}))
    with pytest.raises(BoardError):
        ST.buy_token(M, two, "SSFL", "S13", 0, 0)


def test_the_buy_token_step_stops_for_a_token_it_may_not_buy() -> None:
    """G1841 BuyToken#any_buyable_tokens_placed? (its auto pass): a reached city holding the token
    of a corporation with two placed stops the step, though the buyer has a token in that city
    too (`can_token_city?` then refuses the purchase) or no player presides the seller."""
    b = pisa_to_firenze()
    b = S.place_token(M, S.place_token(M, b, "SFMA", "R14", 0), "SFMA", "K13", 0)
    assert ST.token_buy_stops(M, b, "default", 4, "SSFL")
    shared = S.place_token(M, b, "SSFL", "R14", 1)
    assert ST.buyable_tokens(M, shared, "default", 4, "SSFL", sellers={"SFMA"}) == []
    assert ST.token_buy_stops(M, shared, "default", 4, "SSFL")
    one = S.place_token(M, pisa_to_firenze(), "SFMA", "R14", 0)
    assert not ST.token_buy_stops(M, one, "default", 4, "SSFL")


def test_a_closed_firenze_still_keeps_the_token_step_waiting() -> None:
    """18xx.games' `Tokener#can_place_token?` asks the graph's `can_token?` (a reached city with
    a free slot) and not G1841's `check_token_hex`: the token step waits for a pass while only
    a closed Firenze is in reach (the differential's game 22), though no token may go there."""
    b = pisa_to_firenze()
    assert ("R14", 0) not in {(s.hex, s.city) for s in ST.legal_tokens(M, b, "default", 3, "SSFL")}
    assert ("R14", 0) in {(s.hex, s.city) for s in ST.legal_tokens(M, b, "default", 3, "SSFL", firenze_too=True)}


def test_a_used_home_reservation_keeps_its_place_when_an_upgrade_joins_the_cities() -> None:
    """Bergamo (H4): SFTG's home token uses its reservation in the first city, which 18xx.games
    leaves as a nil in that city's list; tile 606 joins the two cities and appends the second
    city's list (SFTN's reservation) after it (`Hex#lay`), so SFTG keeps slot 0 and SFTN's
    reservation moves to slot 1 (the differential's 6 December games 1 and 7: a merger's token
    removal named the slot)."""
    sftg = ST.place_homes(M, start(), "default", "SFTG")
    assert [r for r in sftg.reservations["H4"] if r.corp == "SFTN"] == [S.Reservation("SFTN", 1, 0)]
    joined = S.lay(M, sftg, "H4", "606", 4)
    assert joined.tokens["H4"] == (("SFTG", S.FREE),)
    assert [r for r in joined.reservations["H4"] if r.corp] == [S.Reservation("SFTN", 0, 1)]
    # SFTN's home token then takes its reserved slot, another corporation finds the city full
    sftn = S.place_token(M, joined, "SFTN", "H4", 0)
    assert sftn.tokens["H4"] == (("SFTG", "SFTN"),)
