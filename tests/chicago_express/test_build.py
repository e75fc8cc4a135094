"""The build action and the Chicago phase it can trigger."""

from __future__ import annotations

from shared.games.chicago_express import events as ev
from shared.games.chicago_express.actions import Bid, Build, Choose, Done, Forgo, Offer, Pass
from shared.games.chicago_express.board import BOARD

from .positions import ENGINE, arrange, assert_illegal, company, events, holding, open_game, play

# open_game(3): seat 0 holds PRR and NYC, seat 1 B&O, seat 2 C&O; seat 0 starts.


def building(**kw):
    """Seat 0 has chosen build; PRR and NYC have $20 unless `companies` says otherwise."""
    companies = {"PRR": {"cash": 20}, "NYC": {"cash": 20}, **kw.pop("companies", {})}
    return play(arrange(open_game(), companies=companies, **kw), (0, Choose("build")))


def build_hexes(s, cid: str) -> set[str]:
    return {la.action.hex for la in ENGINE.legal_actions(s, 0) if isinstance(la.action, Build) and la.action.company == cid}


def test_legal_builds_are_next_to_the_network() -> None:
    s = building()
    # NYC from New York (S3): S2, R2, R3, S4; PRR from Philadelphia (R5): R4, S5, S6?, Q5, Q6, R6.
    assert build_hexes(s, "NYC") == {BOARD.hex_ids[n] for n in BOARD.neighbours[BOARD.hex_index["S3"]]}
    prr = build_hexes(s, "PRR")
    assert prr == {BOARD.hex_ids[n] for n in BOARD.neighbours[BOARD.hex_index["R5"]]}
    assert not build_hexes(s, "BO") and not build_hexes(s, "CO")  # seat 0 holds no share of them
    assert_illegal(s, 0, Build("NYC", "R4"), "not_adjacent")


def test_branching_networks_and_income() -> None:
    s = building()
    s = play(s, (0, Build("NYC", "S2")), (0, Build("NYC", "S4")), (0, Build("NYC", "S1")))
    # Three locomotives end the build on their own; branches from New York are fine.
    assert s.phase == "choose" and s.current == 1
    assert company(s, "NYC").cash == 20 - 1 - 1 - 1 and company(s, "NYC").locos_left == 20
    s = arrange(s, current=0)
    s = play(s, (0, Choose("build")), (0, Build("NYC", "S0")), (0, Done()))
    # Albany: a city without a house, income value 1.
    assert company(s, "NYC").income == 8 + 1 and company(s, "NYC").cash == 17 - 2


def test_income_from_developed_cities_mountains_and_industry() -> None:
    s = building(
        companies={"PRR": {"cash": 40}},
        locos={"PRR": ["L5", "J6", "K5"], "CO": ["K6"]},
        houses=["L4", "M4"],
        industry={"K4": 2},
    )
    income = company(s, "PRR").income
    s = play(s, (0, Build("PRR", "L4")))  # mountain with a house: 1 + 2
    assert company(s, "PRR").income == income + 3
    s = play(s, (0, Build("PRR", "K4")))  # Pittsburgh at its third space: 8
    assert company(s, "PRR").income == income + 3 + 8
    s = play(s, (0, Build("PRR", "M4")))  # Altoona developed: 1 + 1
    assert company(s, "PRR").income == income + 3 + 8 + 2
    built = events(s, ev.Built)
    assert [(b.hex, b.cost, b.income_gain) for b in built] == [("L4", 3, 3), ("K4", 4, 8), ("M4", 2, 2)]


def test_forest_and_plain_earn_nothing() -> None:
    s = play(building(), (0, Build("NYC", "R3")), (0, Build("NYC", "S2")))
    assert company(s, "NYC").income == 8 and company(s, "NYC").cash == 20 - 2 - 1


def test_one_company_per_build_and_three_locomotives_at_most() -> None:
    s = play(building(), (0, Build("NYC", "S2")))
    assert_illegal(s, 0, Build("PRR", "R4"), "one_company_per_build")
    assert {type(la.action) for la in ENGINE.legal_actions(s, 0)} == {Build, Done}
    assert all(la.action.company == "NYC" for la in ENGINE.legal_actions(s, 0) if isinstance(la.action, Build))
    assert_illegal(s, 0, Forgo(), "already_building")


def test_done_needs_a_locomotive_first() -> None:
    s = building()
    assert_illegal(s, 0, Done(), "nothing_built")
    s = play(s, (0, Forgo()))
    assert s.current == 1 and s.dials == [0, 1, 0] and company(s, "NYC").cash == 20


def test_one_locomotive_per_company_per_hex() -> None:
    s = building(locos={"NYC": ["S2"]})
    assert_illegal(s, 0, Build("NYC", "S2"), "already_there")


def test_other_companies_start_hexes_are_closed_but_fort_wayne_is_a_city() -> None:
    s = building(locos={"PRR": ["S4"], "NYC": ["D4"]})
    assert_illegal(s, 0, Build("PRR", "S3"), "start_hex")
    assert "S3" not in build_hexes(s, "PRR")
    s = play(s, (0, Build("NYC", "D3")))
    assert company(s, "NYC").income == 8 + 1  # Fort Wayne pays its city income


def test_forests_and_mountains_take_one_company() -> None:
    s = building(locos={"PRR": ["R3", "R4"]})
    assert_illegal(s, 0, Build("NYC", "R3"), "exclusive_taken")
    assert "R3" not in build_hexes(s, "NYC")
    s = building(locos={"CO": ["L4"], "PRR": ["L5"]})
    assert_illegal(s, 0, Build("PRR", "L4"), "exclusive_taken")
    # Cities and plains are shared: B&O and NYC both stand on plain S2.
    s = building(locos={"BO": ["S2"]})
    s = play(s, (0, Build("NYC", "S2")))
    assert [b.cost for b in events(s, ev.Built)] == [2]


def test_the_company_pays_and_needs_the_cash() -> None:
    s = building(companies={"NYC": {"cash": 1}})
    assert build_hexes(s, "NYC") == {"S2", "S4"}  # the forests R2 and R3 cost $2
    assert_illegal(s, 0, Build("NYC", "R3"), "company_cash")
    s = building(companies={"NYC": {"cash": 0}})
    assert not build_hexes(s, "NYC")
    assert_illegal(s, 0, Build("NYC", "S2"), "company_cash")


def test_building_needs_a_share_and_locomotives() -> None:
    s = building(companies={"BO": {"cash": 20}})
    assert_illegal(s, 0, Build("BO", "Q6"), "no_share")
    s = building(companies={"NYC": {"cash": 20, "locos_left": 0}})
    assert_illegal(s, 0, Build("NYC", "S2"), "no_locomotives")
    assert not build_hexes(s, "NYC")


def test_wabash_cannot_be_built_or_bought_before_chicago() -> None:
    s = building(holdings={(0, "WAB"): 1})
    assert_illegal(s, 0, Build("WAB", "D4"), "company_not_open")
    assert_illegal(s, 0, Build("NYC", "Z9"), "unknown_hex")
    assert_illegal(s, 0, Build("NYC", 7), "unknown_hex")  # type: ignore[arg-type]
    assert_illegal(s, 0, Build("ATSF", "S2"), "unknown_company")


def chicago_position(**kw):
    """NYC (seat 0: 2 shares, seat 1: 1) stands next to Chicago with $20; seat 0 builds."""
    holdings = {(0, "NYC"): 2, (1, "NYC"): 1, **kw.pop("holdings", {})}
    return building(locos={"NYC": ["B2"]}, holdings=holdings, companies={"NYC": {"cash": 20, "income": 10}}, **kw)


def test_chicago_interrupts_the_build_when_the_locomotive_lands() -> None:
    """"Pokaždé, když jedna z 5 železničních společností umístí svoji lokomotivu na pole
    Chicago (dorazí tam tedy jejich železniční síť), je hra přerušena a nastává fáze
    Chicago": the Chicago phase runs as the locomotive lands, on the income at that moment,
    and the build goes on afterwards."""
    s = play(chicago_position(), (0, Build("NYC", "A2")))
    # 10 + 7 (Chicago) = 17 over 3 shares: $6 a share as an extra dividend, at once.
    [paid] = events(s, ev.DividendPaid)
    assert (paid.kind, paid.company, paid.income, paid.per_share, paid.payouts) == ("chicago", "NYC", 17, 6, [12, 6, 0])
    assert events(s, ev.ChicagoReached) == [ev.ChicagoReached(seat=0, company="NYC", first=True)]
    # The first arrival opens Wabash and its auction before the build goes on.
    assert s.phase == "auction" and s.auction is not None and s.auction.kind == "wabash" and s.auction.to_act == 0
    assert s.build is not None and s.build.placed == (BOARD.chicago,)
    view = ENGINE.view(s, None)
    assert view["build"]["placed"] == ["A2"] and view["build"]["remaining"] == 2
    assert view["build"]["reached_chicago"] and view["build"]["interrupted"]
    err = assert_illegal(s, 0, Build("NYC", "A3"), "wrong_phase")
    assert "interrupted" in err.message and "reached Chicago" in err.message
    s = play(s, (0, Pass()), (1, Pass()), (2, Pass()))
    # The build continues where it stopped: same company, two locomotives left.
    assert s.phase == "build" and s.current == 0 and ENGINE.active_seats(s) == frozenset({0})
    assert not ENGINE.view(s, None)["build"]["interrupted"]
    assert {type(la.action) for la in ENGINE.legal_actions(s, 0)} == {Build, Done}
    assert_illegal(s, 0, Build("PRR", "R4"), "one_company_per_build")
    s = play(s, (0, Build("NYC", "A3")), (0, Build("NYC", "A4")))
    assert s.phase == "choose" and s.current == 1
    assert len(events(s, ev.DividendPaid)) == 1 and len(events(s, ev.ChicagoReached)) == 1


def test_locomotives_after_chicago_do_not_count_in_its_dividend() -> None:
    """"Pokaždé, když … umístí svoji lokomotivu na pole Chicago …, je hra přerušena":
    in a 2-player game PRR (income 10, one share out) reaches Chicago and then builds
    South Bend (+1). The Chicago dividend is 10 + 7 = $17, not the $18 a dividend on the
    income after the whole build would pay."""
    s = arrange(
        play(ENGINE.setup(["a", "b"], {}, 0), (0, Bid(7)), (1, Pass()), (0, Pass()), (1, Bid(6)),
             (1, Pass()), (0, Bid(5)), (0, Pass()), (1, Bid(8))),
        companies={"PRR": {"cash": 20, "income": 10}},
        locos={"PRR": ["B2"]},
        current=0,
    )
    assert [holding(s, seat, "PRR") for seat in (0, 1)] == [1, 0]
    s = play(s, (0, Choose("build")), (0, Build("PRR", "A2")), (0, Pass()), (1, Pass()))
    s = play(s, (0, Build("PRR", "C2")), (0, Done()))
    [paid] = events(s, ev.DividendPaid)
    assert (paid.kind, paid.income, paid.per_share, paid.payouts) == ("chicago", 17, 17, [17, 0])
    assert company(s, "PRR").income == 18  # South Bend counts from now on


def test_chicago_as_the_third_locomotive_ends_the_build() -> None:
    s = building(locos={"NYC": ["B3"]}, holdings={(0, "NYC"): 2}, companies={"NYC": {"cash": 20, "income": 10}})
    s = play(s, (0, Build("NYC", "A3")), (0, Build("NYC", "B2")), (0, Build("NYC", "A2")))
    assert s.phase == "auction" and s.build is None  # the build is complete
    s = play(s, (0, Pass()), (1, Pass()), (2, Pass()))
    assert s.phase == "choose" and s.current == 1


def test_first_arrival_opens_wabash_and_its_auction() -> None:
    s = play(chicago_position(), (0, Build("NYC", "A2")))
    wabash = company(s, "WAB")
    assert (wabash.open, wabash.income, wabash.locos_left) == (True, 1, 10)
    assert s.locos[BOARD.hex_index["D3"]] == 1 << BOARD.company_index["WAB"]
    assert s.phase == "auction" and s.auction is not None and s.auction.kind == "wabash" and s.auction.to_act == 0
    # Nobody buys: the share stays with Wabash, which is open all the same.
    s = play(s, (0, Pass()), (1, Pass()), (2, Pass()))
    assert events(s, ev.ShareUnsold) == [ev.ShareUnsold(company="WAB")]
    assert company(s, "WAB").shares_left == 2 and company(s, "WAB").open
    s = play(s, (0, Done()))
    assert s.phase == "choose" and s.current == 1
    s = play(s, (1, Choose("auction")))
    assert "WAB" in [la.action.company for la in ENGINE.legal_actions(s, 1) if isinstance(la.action, Offer)]


def test_others_may_bid_in_the_first_wabash_auction() -> None:
    s = play(chicago_position(), (0, Build("NYC", "A2")), (0, Pass()), (1, Bid(3)), (2, Pass()))
    assert company(s, "WAB").cash == 3 and company(s, "WAB").shares_left == 1
    assert events(s, ev.ShareSold)[-1] == ev.ShareSold(seat=1, company="WAB", price=3)
    assert s.phase == "build" and s.current == 0


def test_wabash_opens_at_three_when_fort_wayne_has_a_house() -> None:
    s = play(chicago_position(houses=["D3"]), (0, Build("NYC", "A2")))
    assert company(s, "WAB").income == 3
    assert s.auction is not None and s.auction.min_bid == 3


def test_later_arrivals_pay_the_chicago_dividend_only() -> None:
    s = play(chicago_position(), (0, Build("NYC", "A2")), (0, Bid(2)), (1, Pass()), (2, Pass()), (0, Done()))
    s = arrange(s, locos={"PRR": ["B2"]}, current=0)
    s = play(s, (0, Choose("build")), (0, Build("PRR", "A2")))
    assert events(s, ev.ChicagoReached)[-1] == ev.ChicagoReached(seat=0, company="PRR", first=False)
    # PRR 7 + 7 = 14, one share out (seat 0): $14, paid as the locomotive lands.
    assert events(s, ev.DividendPaid)[-1].payouts == [14, 0, 0]
    assert len(events(s, ev.WabashOpened)) == 1 and s.phase == "build"
    s = play(s, (0, Build("PRR", "A3")), (0, Done()))
    assert s.phase == "choose" and len(events(s, ev.DividendPaid)) == 2
    assert [b.cost for b in events(s, ev.Built)] == [3, 6, 1]  # second locomotive on Chicago: 2 x 3


def test_wabash_builds_like_any_company_once_open() -> None:
    s = play(chicago_position(), (0, Build("NYC", "A2")), (0, Bid(5)), (1, Pass()), (2, Pass()), (0, Done()))
    s = arrange(s, current=0)
    s = play(s, (0, Choose("build")))
    assert build_hexes(s, "WAB") == {BOARD.hex_ids[n] for n in BOARD.neighbours[BOARD.hex_index["D3"]]}
    s = play(s, (0, Build("WAB", "D2")), (0, Build("WAB", "C2")))
    assert company(s, "WAB").income == 1 + 1 and company(s, "WAB").cash == 5 - 1 - 2
