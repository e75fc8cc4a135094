"""Operations cards and barons (cards.json is a reconstruction: README 'Cards', 'Scoring')."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE, rules
from shared.games.rotw_england_wales.actions import TakeCard
from shared.games.rotw_england_wales.end import baron_met
from shared.games.rotw_england_wales.state import Link

from .helpers import AVON, BRENT, ESK, TARN, expand, forgo, game, start, to_act


def _take(s, card: str, city: str = ""):
    return ENGINE.apply(s, to_act(s), TakeCard(card=card, city=city))


def test_display_holds_players_plus_two_and_refills_from_the_deck() -> None:
    # reading (README 'Set-up'): players + 2 face up; a taken card is replaced from the deck
    s = start(4)
    assert len(s.display) == 6
    top = s.deck[0]
    s.display[0] = "engine#1"
    s = _take(s, "engine#1")
    assert len(s.display) == 6 and s.display[-1] == top and top not in s.deck


def test_locomotive_upgrade_card_raises_the_engine_for_free() -> None:
    s = start()
    me = to_act(s)
    s.display[0] = "engine#1"
    s = _take(s, "engine#1")
    assert s.players[me].engine == 2 and s.players[me].cash == 50000
    while to_act(s) != me:
        s = forgo(s)
    s.players[me].engine = rules.MAX_ENGINE
    s.display[0] = "engine#2"
    fam = [f for f in ENGINE.legal_actions(s, me) if isinstance(f.action, TakeCard)]
    assert all(a.card != "engine#2" for f in fam for a in expand(f))
    with pytest.raises(RuleError) as err:
        _take(s, "engine#2")
    assert err.value.code == "engine_max"


def test_city_growth_draws_two_goods_into_a_chosen_city() -> None:
    s = start()
    s.display[0] = "city_growth#1"
    fam = next(f for f in ENGINE.legal_actions(s, to_act(s)) if isinstance(f.action, TakeCard))
    options = {(a.card, a.city) for a in expand(fam)}
    assert ("city_growth#1", ESK) in options
    with pytest.raises(RuleError) as err:
        _take(s, "city_growth#1", "nowhere")
    assert err.value.code == "bad_city"
    before = len(s.cubes[ESK])
    s = _take(s, "city_growth#1", ESK)
    assert len(s.cubes[ESK]) == before + 2


def test_kept_cards_go_to_the_hand_and_the_passenger_line_cannot_be_taken() -> None:
    s = start()
    me = to_act(s)
    s.display = ["railway_inspector#1", "passenger_line#1", "tunnel_engineer#1"]
    fam = next(f for f in ENGINE.legal_actions(s, me) if isinstance(f.action, TakeCard))
    assert {a.card for a in expand(fam)} == {"railway_inspector#1", "tunnel_engineer#1"}
    with pytest.raises(RuleError) as err:
        _take(s, "passenger_line#1")
    assert err.value.code == "not_takeable"
    s = _take(s, "railway_inspector#1")
    assert s.players[me].hand == ["railway_inspector#1"]
    assert ENGINE.view(s, None)["players"][me]["hand"][0]["name"] == "Railway Inspector"


def test_baron_conditions_most_and_ties() -> None:
    # seed: the baron is revealed and scored at the end if its condition is met (reading:
    # 'most' means not beaten, ties all score, and at least one)
    s = start()
    s.links = [Link(id=0, owner=0, a=AVON, start_edge=0, hexes=["2,1"], exit=0, b=TARN, complete=True),
               Link(id=1, owner=1, a=TARN, start_edge=1, hexes=["3,1"], exit=0, b=BRENT, complete=True)]
    assert baron_met(s, 0, "links") and baron_met(s, 1, "links") and not baron_met(s, 2, "links")
    s.players[2].delivered = {"red": 2}
    s.players[0].delivered = {"red": 1}
    assert baron_met(s, 2, "red") and not baron_met(s, 0, "red") and not baron_met(s, 1, "blue")
    assert baron_met(s, 0, "cities") and baron_met(s, 1, "cities")  # Avon; Brent (Tarn is a town)
    s.players[1].engine = 3
    assert baron_met(s, 1, "engine") and not baron_met(s, 0, "engine")


def test_every_baron_in_the_data_can_be_evaluated() -> None:
    s = game(5)
    for b in rules.card_data()["barons"]:
        for seat in range(5):
            assert baron_met(s, seat, b["id"]) in (True, False)
    assert len(rules.card_data()["barons"]) >= 10  # two per player for five players (seed)


def test_the_operations_deck_is_the_successor_maps_size_and_marked_reconstructed() -> None:
    # GBREV (Railways of Great Britain, which re-implements England & Wales): 27 operations cards
    # and 10 barons; SEED "Nové operační karty": Passenger Line is one card ("získá tuto kartu")
    data = rules.card_data()
    assert data["reconstructed"] is True and {"GBREV", "SEED", "GB2"} <= set(data["sources"])
    counts = {c["kind"]: c["count"] for c in data["operations"]}
    assert sum(counts.values()) == 27 and len(data["barons"]) == 10
    assert counts["passenger_line"] == 1
    assert {"tunnel_engineer", "railway_inspector", "passenger_line"} <= set(counts)  # the seed's new cards
    s = game(3)
    assert len(s.display) + len(s.deck) == 27 and len(set(s.display + s.deck)) == 27


def test_passenger_line_asks_four_colours_of_the_bags_five() -> None:
    # SEED "Pasažérská linka": "První hráč, který dodá 4 ze 6 barev zboží" - reading (README
    # 'Passenger Line'): no source names a sixth goods colour (GB2: 125 cubes in five colours;
    # BGA: red, blue, black, yellow, purple), so the card asks 4 of the five the bag holds
    from shared.games.rotw_england_wales.board import get_board
    assert rules.card_value("passenger_line", "colours") == 4
    assert set(get_board("england_wales").goods_bag) == {"red", "yellow", "blue", "purple", "black"}
