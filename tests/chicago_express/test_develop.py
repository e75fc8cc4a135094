"""The develop action."""

from __future__ import annotations

from shared.games.chicago_express import events as ev
from shared.games.chicago_express.actions import Choose, Develop, Forgo

from .positions import ENGINE, arrange, assert_illegal, company, events, open_game, play


def developing(**kw):
    """Seat 0 has chosen develop."""
    return play(arrange(open_game(), **kw), (0, Choose("develop")))


def develop_hexes(s) -> set[str]:
    return {la.action.hex for la in ENGINE.legal_actions(s, 0) if isinstance(la.action, Develop)}


def test_what_can_be_developed() -> None:
    s = developing(locos={"NYC": ["R3", "Q3", "S2"], "PRR": ["E0", "A2", "K4"]})
    # Forest R3, city Q3 and Pittsburgh; never the plain S2, Detroit, Chicago or start hexes.
    assert develop_hexes(s) == {"R3", "Q3", "K4"}
    assert {type(la.action) for la in ENGINE.legal_actions(s, 0)} == {Develop, Forgo}
    assert_illegal(s, 0, Develop("S2"), "not_developable")
    assert_illegal(s, 0, Develop("S3"), "not_developable")
    assert_illegal(s, 0, Develop("A2"), "not_developable")
    assert_illegal(s, 0, Develop("E0"), "not_developable")
    assert_illegal(s, 0, Develop("I9"), "no_locomotive")
    assert_illegal(s, 0, Develop("T1"), "unknown_hex")


def test_a_city_or_mountain_takes_one_house_and_lifts_everyone_there() -> None:
    s = developing(locos={"NYC": ["Q3"], "PRR": ["Q3"], "CO": ["L5"]})
    s = play(s, (0, Develop("Q3")))
    assert (company(s, "NYC").income, company(s, "PRR").income) == (9, 8)
    assert s.houses_supply == 19 and s.current == 1
    s = arrange(s, current=0)
    s = play(s, (0, Choose("develop")))
    assert_illegal(s, 0, Develop("Q3"), "already_developed")
    s = play(s, (0, Develop("L5")))  # a mountain: house value 2, whoever develops it
    assert company(s, "CO").income == 5 + 2


def test_a_forest_pays_its_company_from_the_bank() -> None:
    s = developing(locos={"NYC": ["R3"]})
    bank, cash = s.bank, company(s, "NYC").cash
    s = play(s, (0, Develop("R3")))
    assert company(s, "NYC").cash == cash + 2 and s.bank == bank - 2 and company(s, "NYC").income == 8
    assert events(s, ev.Developed)[-1].cash_bonus == 2 and s.houses_supply == 19


def test_pittsburgh_climbs_by_two_until_the_last_space() -> None:
    """"Pokud se nachází počítací kámen na ukazateli rozvoje průmyslových měst na posledním
    poli, zůstane tam. Příjmy z tohoto průmyslového města se již zvyšovat nedají." """
    s = developing(locos={"PRR": ["K4"], "BO": ["K4"]}, industry={"K4": 1})
    s = play(s, (0, Develop("K4")))
    assert (company(s, "PRR").income, company(s, "BO").income) == (9, 8)
    assert s.industry[2] == 2 and events(s, ev.Developed)[-1].industry_value == 8
    s = play(arrange(s, current=0), (0, Choose("develop")))
    assert "K4" not in develop_hexes(s)
    assert_illegal(s, 0, Develop("K4"), "industry_at_maximum")


def test_fort_wayne_develops_like_any_city() -> None:
    s = developing(locos={"NYC": ["D3"]}, companies={"WAB": {"open": True, "income": 1}})
    s = arrange(s, locos={"WAB": ["D3"]})
    s = play(s, (0, Develop("D3")))
    assert (company(s, "NYC").income, company(s, "WAB").income) == (8 + 2, 1 + 2)


def test_no_houses_left() -> None:
    s = developing(locos={"NYC": ["Q3", "R3"], "PRR": ["K4"]}, supply=0)
    assert develop_hexes(s) == {"K4"}  # industrial cities need no house
    assert_illegal(s, 0, Develop("Q3"), "no_houses")
    assert_illegal(s, 0, Develop("R3"), "no_houses")


def test_wheeling_stops_at_six() -> None:
    """Wheeling climbs by 1 ("U Detroitu a Wheelingu se tedy příjmy zvyšují každým rozvojem
    o 1") from 3 to its last space, 6; a marker on the last space stays there."""
    s = developing(locos={"PRR": ["I6"]}, industry={"I6": 2})
    income = company(s, "PRR").income
    s = play(s, (0, Develop("I6")))
    assert company(s, "PRR").income == income + 1 and events(s, ev.Developed)[-1].industry_value == 6
    s = play(arrange(s, current=0), (0, Choose("develop")))
    assert "I6" not in develop_hexes(s)
    assert_illegal(s, 0, Develop("I6"), "industry_at_maximum")
