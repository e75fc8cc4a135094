"""Company turns of the advanced game: order, building, issuing shares, bonds, deliveries
(seed III.1 'Tahy společností', 'Postavit trať', 'Doručit kostku', 'Vydávání akcií',
'Dluhopisy'). Each test names the seed sentence it checks."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.families import expand
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Deliver, EndBuild, LayTrack, Pass
from shared.games.rotw_england_wales.advanced import shares
from shared.games.rotw_england_wales.advanced.shares import adv
from shared.games.rotw_england_wales.state import Link

from .adv_helpers import AVON, BRENT, CALDER, DOVE, ESK, FAL, act, company_game, lay_path, lay_towards, one

TARN = "3,0"  # a town
AVON_TARN = [("2,0", 2, 0)]  # one plain hex
TARN_BRENT = [("3,1", 4, 0)]  # one plain hex
AVON_CALDER = [("1,2", 5, 2), ("0,3", 5, 1)]  # two plain hexes


def test_companies_play_in_share_price_order_ties_last_arrival_first() -> None:
    """'Pořadí hry je určeno cenou akcií počínaje společností s nejvyšší cenou akcií ... V případě
    shody společnost na vrchu balíčku má přednost, tj. společnost, která se jako poslední
    přesunula na tuto cenu za akcii.'"""
    s = company_game(3)
    assert [adv(s).companies[i].id for i in adv(s).order] == ["red", "blue", "green"]
    assert one(s) == adv(s).companies[0].controller
    shares.set_price(s, 2, 8)  # green moves up to red's space: on top of it
    assert [adv(s).companies[i].id for i in shares.price_order(s, [0, 1, 2])] == ["green", "red", "blue"]


def test_three_company_turns_then_dividends() -> None:
    """'V první fázi společnosti mají tři kola na stavbu tratí a přesun zboží.'"""
    s = company_game(3)
    for _ in range(3 * 3):
        assert s.phase == "company_turn"
        s = act(s, Pass())
    assert s.phase != "company_turn"


def test_first_link_from_any_city_and_it_must_be_completed() -> None:
    """'Při první stavbě může být postavena linka z libovolného města na mapě.' 'Linka musí být
    dokončena ve stejné akci, v jaké byla zahájena - tj. nekompletní linky jsou zakázány.'"""
    s = company_game(3)
    fam = next(f for f in ENGINE.legal_actions(s, one(s)) if isinstance(f.action, LayTrack))
    starts = {a.hex for a in expand(fam)}
    assert {"1,2", "5,1", "1,3"} <= starts  # next to Avon, Brent and Calder alike
    s = lay_path(s, AVON_CALDER[:1])
    assert s.phase == "company_build"
    # Stopping now cannot leave the link unfinished: end_build takes it back whole.
    back = act(s, EndBuild())
    assert back.phase == "company_turn" and not back.links and not back.track
    s = lay_path(s, AVON_CALDER[1:])
    link = s.links[0]
    assert link.complete and {link.a, link.b} == {AVON, CALDER} and link.owner == 0
    assert adv(s).companies[0].cash == 8000 - 4000  # the terrain cost only


def test_a_link_taken_back_returns_its_cost_and_the_shares_and_bonds_it_raised() -> None:
    """'Linka musí být dokončena ve stejné akci, v jaké byla zahájena - tj. nekompletní linky jsou
    zakázány.' Reading (README): a started link may be taken back before it is finished; it
    is undone whole - tiles, money, the shares issued and bonds taken to pay for them."""
    s = company_game(3)
    red = adv(s).companies[0]
    red.cash, red.price = 1000, 4
    before = (red.cash, red.card, red.issued, red.bonds)
    s = lay_path(s, AVON_CALDER[:1])  # $2,000: one share at $4k issued
    red = adv(s).companies[0]
    assert (red.card, red.issued, red.cash) == (before[1] - 1, 1, 3000)
    view = ENGINE.view(s, one(s))["build"]
    assert view["open_spent"] == 2000 and view["open_shares"] == 1
    assert view["finish_cost"] == 2000 and (view["finish_shares"], view["finish_bonds"]) == (0, 0)
    s = act(s, EndBuild())
    red = adv(s).companies[0]
    assert (red.cash, red.card, red.issued, red.bonds) == before
    assert s.phase == "company_turn" and adv(s).build is None and not s.links and not s.track
    assert "takes back the unfinished link" in s.log[-1] and "1 share returned" in s.log[-1]
    # The second link of an action, taken back, leaves the first and ends the action.
    s = lay_path(s, AVON_TARN)
    cash_after_first = adv(s).companies[0].cash
    build = adv(s).build
    assert s.phase == "company_build" and build is not None and build.links == 1
    s = lay_towards(s, DOVE)
    build = adv(s).build
    assert build is not None and build.open_link >= 0, "the second link is still open"
    s = act(s, EndBuild())
    assert adv(s).companies[0].cash == cash_after_first and len(s.links) == 1 and s.links[0].complete
    assert s.phase == "company_turn" and adv(s).order[adv(s).pos] == 1  # blue's turn


def test_second_link_costs_2000_more_per_hex_and_ends_the_action() -> None:
    """'První linka stojí normálně dle ceny terénu. Druhá linka stojí navíc k ceně terénu $ 2,000
    za každý hex.' 'Společnost může postavit jednu nebo dvě linky.'"""
    s = company_game(3)
    s = lay_path(s, AVON_TARN)  # $2,000
    s = lay_path(s, TARN_BRENT)  # $2,000 + $2,000
    red = adv(s).companies[0]
    assert red.cash == 8000 - 2000 - 4000 and red.issued == 0
    assert s.phase == "company_turn" and adv(s).order[adv(s).pos] == 1  # the action is over: blue's turn


def test_later_links_start_from_the_company_network() -> None:
    """'Všechny budoucí musí navazovat na jednu z předešlých linek.'"""
    s = company_game(3)
    s = lay_path(s, AVON_TARN)
    s = act(s, EndBuild())
    s = act(s, Pass())  # blue
    s = act(s, Pass())  # green
    fam = next(f for f in ENGINE.legal_actions(s, one(s)) if isinstance(f.action, LayTrack))
    origins = set()
    from shared.games.rotw_england_wales.board import get_board
    board = get_board(s.board)
    for a in expand(fam):
        origins.add(board.neighbour(a.hex, a.entry))
    assert origins == {AVON, TARN}
    with pytest.raises(RuleError):
        act(s, LayTrack(hex="1,3", entry=2, exit=0))  # next to Calder, which red does not reach


def test_shares_are_issued_only_as_needed() -> None:
    """'Vydány mohou být pouze akcie potřebné k provedení nákupu. (Například jestliže hráč má $ 0
    a potřebuje $ 16,000 na vybudování tratě, může hráč vydat 4 akcie ...)'; 'Akcie je přesunuta
    z karty společnosti na box vydaných akcií. Společnost získá ... momentální hodnota akcie.'"""
    s = company_game(3)
    red = adv(s).companies[0]
    red.cash, red.price = 0, 4
    shares.pay(s, 0, 16000, "track")
    assert (red.card, red.issued, red.cash) == (1, 4, 0)
    shares.pay(s, 0, 1000, "track")
    assert (red.card, red.issued, red.cash) == (0, 5, 3000)


def test_bonds_only_after_every_share_is_issued_and_at_most_one_per_link() -> None:
    """'Jestliže společnost vydala všechny své akcie, potom si může vzít dluhopis. Každý dluhopis
    dá společnosti $5,000.' 'Maximální počet dluhopisů je roven počtu kompletních spojů.'"""
    s = company_game(3)
    s = lay_path(s, AVON_TARN)
    red = adv(s).companies[0]
    red.card, red.cash = 0, 0
    shares.pay(s, 0, 4000, "track")
    assert (red.bonds, red.cash) == (1, 1000)
    with pytest.raises(RuleError) as err:
        shares.pay(s, 0, 6000, "track")  # a second bond would exceed its one link
    assert err.value.code == "not_enough_money"


def _links(s, spec):
    s.links = [Link(id=i, owner=o, a=a, b=b, start_edge=0, hexes=[], exit=0, complete=True)
               for i, (o, a, b) in enumerate(spec)]
    return s


def test_delivery_starts_on_an_own_link_and_needs_as_many_own_links_as_others() -> None:
    """'První použitá trať musí patřit společnosti na tahu.' 'Společnost musí použít počet svých
    tratí stejný nebo větší než celkový počet všech tratí ostatních soupeřů použitých při tomto
    převozu.'"""
    s = company_game(3)  # red (0) is to act
    s = _links(s, [(0, AVON, BRENT), (2, BRENT, FAL), (2, FAL, DOVE), (2, BRENT, ESK)])
    s.cubes = {AVON: ["black", "purple"], BRENT: ["black"]}
    fam = next(f for f in ENGINE.legal_actions(s, one(s)) if isinstance(f.action, Deliver))
    offered = {(a.city, a.color, tuple(a.path)) for a in expand(fam)}
    assert offered == {(AVON, "black", (0, 3))}  # 1 own + 1 other; purple needs 2 others; Brent starts on green
    for bad in (Deliver(city=AVON, color="purple", path=[0, 1, 2]), Deliver(city=BRENT, color="black", path=[3])):
        with pytest.raises(RuleError):
            act(s, bad)


def test_no_engine_limit_and_each_link_moves_its_company_income_marker() -> None:
    """'Kostka může být přepravena přes libovolný počet tratí - není úroveň lokomotiv.' 'posune
    značka příjmů dané společnosti ... o 1 místo vpřed ... za každou použitou trať.'"""
    s = company_game(3)
    s = _links(s, [(0, AVON, BRENT), (0, BRENT, FAL), (0, FAL, CALDER), (1, CALDER, DOVE)])
    s.cubes = {AVON: ["purple"], BRENT: ["blue"]}
    s = act(s, Deliver(city=AVON, color="purple", path=[0, 1, 2, 3]))
    assert [c.income for c in adv(s).companies[:3]] == [3, 1, 0]
    assert AVON in s.empty and AVON not in s.cubes  # 'je umístěna na město značka prázdného města'


def test_only_tiles_from_which_the_link_can_be_completed_are_offered() -> None:
    """'Linka musí být dokončena ve stejné akci, v jaké byla zahájena' - so a tile is offered only
    when the company can still pay for a way to finish its link (no stranded half links)."""
    from shared.games.rotw_england_wales.board import get_board
    s = company_game(3)
    red = adv(s).companies[0]
    red.cash, red.card = 2000, 0  # $2,000 and nothing to issue: one plain hex at most
    board = get_board(s.board)
    fam = next(f for f in ENGINE.legal_actions(s, one(s)) if isinstance(f.action, LayTrack))
    offered = list(expand(fam))
    assert offered
    for a in offered:
        nxt = board.neighbour(a.hex, a.exit)
        assert nxt in board.cities or nxt in board.towns, a  # each finishes a link at once
        assert board.terrain[a.hex] == "plain"
    red.cash = 4000  # two plain hexes: Avon - Calder's first tile is now offered
    fam = next(f for f in ENGINE.legal_actions(s, one(s)) if isinstance(f.action, LayTrack))
    assert AVON_CALDER[0] in {(a.hex, a.entry, a.exit) for a in expand(fam)}
