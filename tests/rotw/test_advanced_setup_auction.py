"""Advanced game set-up and the opening share auctions (seed III.1 'Začátek hry',
'Ovládnutí společnosti'). Each test names the seed sentence it checks."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Bid, ChooseBaron, Pass
from shared.games.rotw_england_wales.advanced import data
from shared.games.rotw_england_wales.advanced.actions import StartAuction
from shared.games.rotw_england_wales.advanced.shares import adv

from .adv_helpers import act, adv_game, buy, finish_opening, one


@pytest.mark.parametrize("n,cash", [(2, 25000), (3, 25000), (4, 20000), (5, 20000)])
def test_starting_money(n: int, cash: int) -> None:
    """'Každý hráč začíná s $ 20,000 (s $25,000 při hře dvou nebo tří hráčů).'"""
    s = adv_game(n)
    assert [p.cash for p in s.players] == [cash] * n


def test_companies_start_with_five_shares_on_each_box_at_their_starting_price() -> None:
    """'Za každou společnost umístěte 5 akcií na box dostupných akcií a dalších 5 na kartu
    společnosti'; 'Označte cenu akcií pro každou společnost'; income trains on zero."""
    s = adv_game(3)
    assert len(adv(s).companies) == len(data.COMPANIES)
    for c, (cid, _, price) in zip(adv(s).companies, data.COMPANIES):
        assert (c.id, c.price, c.start_price) == (cid, price, price)
        assert (c.available, c.card, c.issued, sum(c.held), c.cash, c.income, c.controller) == (5, 5, 0, 0, 0, 0, -1)


def test_no_barons_operations_cards_new_cities_or_engines() -> None:
    """'Vraťte karty baronů, operační karty, žetony nových měst a karty lokomotiv do krabice.'"""
    s = adv_game(3)
    assert s.deck == [] and s.display == [] and s.new_cities == [] and s.baron_pool == []
    assert all(p.baron_draw == [] and p.baron == "" for p in s.players)
    assert s.phase == "opening_auction"
    with pytest.raises(RuleError):
        act(s, ChooseBaron(baron="x"))


def test_first_player_opens_and_the_bid_is_at_least_the_starting_price() -> None:
    """'První hráč začíná výběrem akcie společnosti pro aukci a oznamením svojí nabídky. Nabídka
    musí být nejméně tak velká, jako je startovní cena akcií této společnosti.'"""
    s = adv_game(3)
    assert one(s) == s.first
    with pytest.raises(RuleError) as err:
        act(s, StartAuction(company="red", source="available", amount=7000))
    assert err.value.code == "bid_too_low"
    with pytest.raises(RuleError):
        act(s, StartAuction(company="red", source="issued", amount=9000))  # the issued box is empty
    s = act(s, StartAuction(company="red", source="available", amount=8000))
    auction = adv(s).auction
    assert auction is not None and auction.high_bid == 8000


def test_auction_winner_pays_the_company_and_takes_control() -> None:
    """'Poslední hráč, který zbude, zaplatí svoji nabídku společnosti (tzn. dá peníze na kartu
    společnosti), vezme si akcii z boxu dostupných akcií a vezme si kartu společnosti';
    'Když hráč koupí první akcii společnosti, okamžitě ji tím ovládne.'"""
    s = adv_game(3)
    f = s.first
    s = act(s, StartAuction(company="red", source="available", amount=8000))
    assert one(s) == (f + 1) % 3  # clockwise from the auctioneer
    s = act(s, Bid(amount=10000))
    s = act(s, Pass())  # f + 2 drops out
    s = act(s, Pass())  # the auctioneer drops out
    red = adv(s).companies[0]
    assert red.held[(f + 1) % 3] == 1 and red.available == 4 and red.cash == 10000
    assert red.controller == (f + 1) % 3
    assert s.players[(f + 1) % 3].cash == 15000


def test_next_auction_chooser() -> None:
    """'Jestliže vítěz byl licitátor, potom další hráč ve směru hodinových ručiček si vybírá akcii
    ... V opačném případě předchozí licitátor vybírá akcii společnosti pro aukci a dává nabídku.'"""
    s = adv_game(3)
    f = s.first
    s = act(s, StartAuction(company="red", source="available", amount=8000))
    s = act(s, Bid(amount=9000))
    s = act(s, Pass())
    s = act(s, Pass())
    assert adv(s).auction is None and one(s) == f  # someone else won: the auctioneer chooses again
    s = buy(s, "blue")  # the auctioneer wins
    assert one(s) == (f + 1) % 3


def test_a_player_who_passes_takes_part_in_no_further_auction() -> None:
    """'Hráč může pasovat místo výběru akcie na aukci. Jestliže si zvolí tuto možnost, nesmí
    zahájit nebo se účastnit budoucích aukcí v průběhu přípravy hry.'"""
    s = adv_game(3)
    f = s.first
    s = act(s, Pass())  # f is out
    assert one(s) == (f + 1) % 3
    s = act(s, StartAuction(company="green", source="available", amount=6000))
    assert one(s) == (f + 2) % 3  # f is skipped
    s = act(s, Pass())
    assert adv(s).auction is None and one(s) == (f + 2) % 3  # the auctioneer won: next clockwise, f is out
    s = act(s, Pass())
    assert one(s) == (f + 1) % 3
    s = act(s, Pass())
    assert s.phase == "company_turn"


def test_first_player_marker_goes_left_of_the_last_buyer() -> None:
    """'Dejte značku prvního hráče hráči po levici hráče, který si jako poslední vzal akcii.'"""
    s = adv_game(3)
    f = s.first
    s = buy(s, "red")  # bought by f
    s = act(s, Pass())  # f + 1 passes
    s = buy(s, "blue")  # bought by f + 2
    s = finish_opening(s)
    assert s.first == f  # left of f + 2 (clockwise)
    assert s.phase == "company_turn"


def test_control_passes_only_to_a_player_with_more_shares() -> None:
    """'Hráč ztratí kontrolu nad společností pouze v případě, že jiný hráč má VÍCE akcií dané
    společnosti než on ... jestliže ovládající hráč má stejný počet akcií jako jiný hráč, potom
    mu zůstane kontrola nad společností.'"""
    s = adv_game(2)
    f, o = s.first, 1 - s.first
    s = buy(s, "red")  # f
    assert adv(s).companies[0].controller == f
    s = act(s, StartAuction(company="red", source="available", amount=8000))  # o chooses (f won as auctioneer)
    assert one(s) == f
    s = act(s, Pass())
    assert adv(s).companies[0].held == [1, 1] and adv(s).companies[0].controller == f  # a tie keeps control
    s = buy(s, "red")  # o won as auctioneer: f chooses and buys (2-1)
    s = act(s, StartAuction(company="red", source="available", amount=8000))  # o chooses
    s = act(s, Pass())  # f lets it go: 2-2, still f's
    assert adv(s).companies[0].controller == f
    s = act(s, StartAuction(company="red", source="available", amount=8000))  # f chooses
    s = act(s, Bid(amount=9000))  # o outbids
    s = act(s, Pass())
    red = adv(s).companies[0]
    assert red.held[o] == 3 and red.held[f] == 2 and red.controller == o


def test_bids_are_limited_to_cash_and_go_up() -> None:
    """A bid must beat the last one, in $1,000 steps, and a player cannot bid more than they hold."""
    s = adv_game(3)
    s = act(s, StartAuction(company="black", source="available", amount=3000))
    for bad in (3000, 3500, 26000):
        with pytest.raises(RuleError):
            act(s, Bid(amount=bad))
    fam = next(f for f in ENGINE.legal_actions(s, one(s)) if isinstance(f.action, Bid))
    assert (fam.range.min, fam.range.max, fam.range.step) == (4000, 25000, 1000)


def test_the_auctions_end_when_the_last_share_is_sold() -> None:
    """'Opakujte, dokud všichni hráči nepřijdou o šanci zahájit aukci': with nothing left to
    auction nobody has that chance, and the round begins - also when the sale happens at once
    because every other player is out."""
    for other_out_first in (False, True):
        s = adv_game(2)
        for c in adv(s).companies:
            c.available = 0
        adv(s).companies[5].available = 1
        f = s.first
        if other_out_first:
            s = act(s, Pass())  # f is out; the other player chooses with nobody left to bid against
            f = 1 - f
        s = act(s, StartAuction(company="black", source="available", amount=3000))
        if not other_out_first:
            s = act(s, Pass())
        assert s.phase == "company_turn" and adv(s).companies[5].controller == f
