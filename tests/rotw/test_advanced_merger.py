"""Mergers with simultaneous secret votes (seed III.2-III.3 'Fůze'), and the round's share
auction phase. Each test names the seed sentence it checks."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Pass
from shared.games.rotw_england_wales.advanced.actions import ProposeMerger, StartAuction, Vote
from shared.games.rotw_england_wales.advanced.shares import adv
from shared.games.rotw_england_wales.state import Link

from .adv_helpers import AVON, BRENT, ESK, act, adv_game, buy, finish_opening, one


def merger_table(blue_issued: int = 0):
    """red: seats f and f+2 hold one share each (f controls); blue: f+1. red Avon-Brent,
    blue Brent-Esk; no money in the companies, so the dividends pass by themselves (-2 each)."""
    s = adv_game(3)
    f = s.first
    s = buy(s, "red")
    s = buy(s, "blue")
    s = buy(s, "red")
    s = finish_opening(s)
    s.links = [Link(id=0, owner=0, a=AVON, b=BRENT, start_edge=0, hexes=[], exit=0, complete=True),
               Link(id=1, owner=1, a=BRENT, b=ESK, start_edge=0, hexes=[], exit=0, complete=True)]
    for c in adv(s).companies:
        c.cash = 0
    adv(s).companies[1].issued = blue_issued
    adv(s).companies[1].card -= blue_issued
    while s.phase == "company_turn":
        s = act(s, Pass())
    assert s.phase == "merger"
    return s, f


def test_lowest_price_first_and_only_connected_companies() -> None:
    """'Pořadí hry je od nejnižší ceny akcie po nejvyšší.' 'Společnosti se mohou sloučit pouze
    v případě, že jsou spolu propojeny.'"""
    s, f = merger_table()
    assert [adv(s).companies[i].price for i in adv(s).order] == [5, 6]  # blue, then red
    assert one(s) == (f + 1) % 3
    fam = ENGINE.legal_actions(s, one(s))[0]
    assert fam.choices.values == ["red"]  # green and the others are not connected (nor in play)
    with pytest.raises(RuleError):
        act(s, ProposeMerger(target="green"))
    s = act(s, Pass())
    assert one(s) == f


def propose(s, f):
    s = act(s, Pass())  # blue proposes nothing
    return act(s, ProposeMerger(target="blue"))


def test_votes_are_secret_until_every_shareholder_has_voted() -> None:
    """'Každá akcie v dané společnosti má hodnotu jednoho hlasu. Hráči odhalují své hlasy současně.'"""
    s, f = merger_table()
    s = propose(s, f)
    other = (f + 2) % 3
    assert ENGINE.active_seats(s) == frozenset({f, other})
    s = ENGINE.apply(s, f, Vote(yes=True))
    assert ENGINE.active_seats(s) == frozenset({other})
    view = ENGINE.view(s, other)
    assert view["merger"]["voted"][f] is True and view["merger"]["my_vote"] is None
    assert "yes" not in " ".join(view["log"][-2:])
    assert ENGINE.view(s, f)["merger"]["my_vote"] is True
    samples = [ENGINE.redact(s, other, k) for k in range(12)]
    assert {r.adv.merger.votes[f] for r in samples} == {0, 1}  # the cast vote is re-sampled
    legal = msgspec.json.encode(ENGINE.legal_actions(s, other))
    for r in samples:
        assert ENGINE.view(r, other) == view
        assert msgspec.json.encode(ENGINE.legal_actions(r, other)) == legal
    after = ENGINE.apply(s, other, Vote(yes=False))
    assert ENGINE.reveals(s, after)  # undo never takes a revealed vote back


def test_tie_is_decided_by_the_controller_then_the_target_votes_and_the_merger_happens() -> None:
    """'V případě shody hráč ovládající společnost rozhodne volbu.' 'Pokud je volba úspěšná,
    proběhne stejným způsobem hlasování i v cílové společnosti.' III.3: 'fůzující společnost
    koupit každou dostupnou akcii cílové společnosti za aktuální cenu jejich akcií plus $1,000.
    Fůzující společnost může kvůli tomu vydat akcie.' 'Aktivní společnost nahradí všechny značky
    kontroly na tratích náležejících cílové společnosti svými vlastními.'"""
    s, f = merger_table()
    s = propose(s, f)
    s = ENGINE.apply(s, f, Vote(yes=True))
    s = ENGINE.apply(s, (f + 2) % 3, Vote(yes=False))  # 1 share each: the controller (yes) decides
    assert s.phase == "merger_vote" and ENGINE.active_seats(s) == frozenset({(f + 1) % 3})
    cash = s.players[(f + 1) % 3].cash
    s = ENGINE.apply(s, (f + 1) % 3, Vote(yes=True))
    assert s.players[(f + 1) % 3].cash == cash + (5 + 1) * 1000
    red, blue = adv(s).companies[0], adv(s).companies[1]
    assert (red.card, red.issued, red.cash) == (4, 1, 0)  # one share issued at 6 to pay $6,000
    assert [link.owner for link in s.links] == [0, 0]
    # 'Cílová společnost zanikne ... Umístěte pět značek akcií na box dostupných akcií a zbylé na
    # kartu společnosti. Vraťte cenu akcií na jejich startovní (přípravnou) hodnotu.'
    assert (blue.price, blue.available, blue.card, blue.issued, sum(blue.held), blue.controller) == (7, 5, 5, 0, 0, -1)
    assert s.phase == "share_auction"


def test_the_controller_breaks_a_tie_against_the_merger() -> None:
    """'V případě shody hráč ovládající společnost rozhodne volbu.'"""
    s, f = merger_table()
    s = propose(s, f)
    s = ENGINE.apply(s, (f + 2) % 3, Vote(yes=True))
    s = ENGINE.apply(s, f, Vote(yes=False))
    assert s.phase == "share_auction" and adv(s).companies[1].controller == (f + 1) % 3
    assert [link.owner for link in s.links] == [0, 1]


def test_issued_box_shares_are_bought_too_money_to_the_bank() -> None:
    """'Akcie v boxu vydaných akcií musí být odkoupeny - tyto peníze jdou do banky.'"""
    s, f = merger_table(blue_issued=1)
    s = propose(s, f)
    s = ENGINE.apply(s, f, Vote(yes=True))
    s = ENGINE.apply(s, (f + 2) % 3, Vote(yes=True))
    s = ENGINE.apply(s, (f + 1) % 3, Vote(yes=True))
    red = adv(s).companies[0]
    assert (red.card, red.issued, red.cash) == (3, 2, 0)  # $12,000: two shares at 6


def test_a_merged_company_returns_at_its_starting_price_in_the_share_auction() -> None:
    """'Jestliže společnost byla vyřazena ze hry prostřednictvím fůze, tak se může do hry vrátit v
    této fázi.' 'minimální nabídka je aktuální cena akcie, ne startovní cena akcie.'"""
    s, f = merger_table()
    s = propose(s, f)
    for seat in (f, (f + 2) % 3, (f + 1) % 3):
        s = ENGINE.apply(s, seat, Vote(yes=True))
    assert s.phase == "share_auction"
    with pytest.raises(RuleError):
        act(s, StartAuction(company="blue", source="available", amount=6000))
    with pytest.raises(RuleError):
        act(s, StartAuction(company="red", source="available", amount=5000))  # below red's current price, 6
    s = act(s, StartAuction(company="red", source="issued", amount=6000))  # the issued box: money to the bank
    while adv(s).auction is not None:
        s = act(s, Pass())
    assert adv(s).companies[0].cash == 0 and adv(s).companies[0].issued == 0
