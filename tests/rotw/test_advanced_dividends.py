"""Income, bond interest and dividends of the advanced game (seed III.1 'Výplaty dividend',
'Dluhopisy'). Each test names the seed sentence it checks."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Pass
from shared.games.rotw_england_wales.advanced.actions import PayDividend, RepayBonds
from shared.games.rotw_england_wales.advanced.shares import adv, move_for_dividend
from shared.games.rotw_england_wales.state import Link

from .adv_helpers import AVON, BRENT, CALDER, act, company_game, one


def to_dividends(s):
    while s.phase == "company_turn":
        s = act(s, Pass())
    return s


@pytest.mark.parametrize("price,paid,move", [
    (6, 0, -2), (6, 1000, -1), (6, 3000, -1), (6, 4000, 0), (6, 5000, 0), (6, 6000, 1), (6, 17000, 2),
    (6, 18000, 3), (5, 2000, -1), (5, 3000, 0)])
def test_share_price_movement_table(price: int, paid: int, move: int) -> None:
    """'Jestliže nejsou vyplaceny žádné dividendy, potom se cena akcií snižuje o 2. Jestliže
    dividendy tvoří polovinu ceny akcií nebo méně (ale více než nulu), potom cena akcií klesá o 1
    ... menší než je cena akcií, ale větší než její polovina, potom cena akcií zůstává stejná ...
    vydělte dividendy cenou akcií a zaokrouhlete dolů. Zvyšte cenu akcií o toto množství.'"""
    assert move_for_dividend(price, paid) == move


def test_income_from_the_income_marker_then_markers_return_to_zero() -> None:
    """'Po skončení všech tří tahů získají společnosti příjem založený na jejich značce příjmů
    ... přesuňte všechny značky příjmu na nulu.'"""
    s = company_game(3)
    adv(s).companies[0].income = 4
    s = to_dividends(s)
    red = adv(s).companies[0]
    assert red.income == 0 and red.cash == 8000 + 4000


def test_the_seed_example_black_at_6_paying_17000_goes_to_8() -> None:
    """'Černá společnost má cenu akcií 6. Hráč ovládajíc společnost vydá na dividendy $ 17,000.
    17 děleno 6 (zaokrouhleno dolů) je 2, proto se cena akcií zvýší na 8.'"""
    s = company_game(3)
    for c in adv(s).companies:
        c.cash = 0  # the others have nothing to pay out
    red = adv(s).companies[0]
    red.price, red.cash = 6, 17000
    s = to_dividends(s)
    seat = one(s)
    assert seat == red.controller
    fam = ENGINE.legal_actions(s, seat)[0]
    assert (fam.range.min, fam.range.max) == (0, 17000)
    cash = s.players[seat].cash
    s = act(s, PayDividend(amount=17000))
    assert adv(s).companies[0].price == 8
    assert s.players[seat].cash == cash + 17000 + 5000  # its only outstanding share; then the $5,000 to all


def test_dividend_at_most_three_times_the_price() -> None:
    """'Nikdy nemůže být vyplacen více než trojnásobek ceny akcií.'"""
    s = company_game(3)
    for c in adv(s).companies:
        c.cash = 0
    red = adv(s).companies[0]
    red.price, red.cash = 2, 20000
    s = to_dividends(s)
    fam = ENGINE.legal_actions(s, one(s))[0]
    assert fam.range.max == 6000
    with pytest.raises(RuleError):
        act(s, PayDividend(amount=7000))


def test_dividend_split_over_players_and_issued_box_remainder_to_bank() -> None:
    """'Vydělte dividendy počtem vydaných akcií (zaokrouhlete dolů) ... banka si vezme peníze za
    akcie v boxu vydaných akcií. Jestliže peníze nejsou rozděleny rovnoměrně mezi akcie, dostane
    banka zbytek.'"""
    s = company_game(3)
    red = adv(s).companies[0]
    red.cash, red.card, red.issued = 11000, 3, 2  # 1 player share + 2 issued = 3 outstanding
    s = to_dividends(s)
    seat = one(s)
    cash = s.players[seat].cash
    s = act(s, PayDividend(amount=11000))
    assert s.players[seat].cash == cash + 3000  # 11,000 / 3 = 3,666 -> $3,000 a share (money in $1,000s)
    assert adv(s).companies[0].cash == 0


def test_uncontrolled_company_pays_nothing_and_keeps_its_price() -> None:
    """'Jestliže není společnost nikým ovládána ..., nevyplácejí se dividendy a nemění se cena akcií.'"""
    s = company_game(3)
    yellow = adv(s).companies[3]
    yellow.cash = 9000
    s = to_dividends(s)
    while s.phase == "dividend":
        s = act(s, PayDividend(amount=0))
    yellow = adv(s).companies[3]
    assert (yellow.cash, yellow.price) == (9000, 5)


def test_every_player_takes_5000_after_the_dividends() -> None:
    """'Jakmile jsou všechny dividendy vyplaceny, každý hráč si navíc vezme $ 5,000 z banky.'"""
    s = company_game(3)
    for c in adv(s).companies:
        c.cash = 0  # no dividend to decide: every company pays nothing
    before = [p.cash for p in s.players]
    s = to_dividends(s)
    assert s.phase in ("merger", "share_auction")
    assert [p.cash for p in s.players] == [b + 5000 for b in before]
    assert [c.price for c in adv(s).companies[:3]] == [6, 5, 4]  # each paid nothing: -2


def test_bond_interest_then_repayment() -> None:
    """'Společnost zaplatí $1,000 za každý dluhopis, který vlastní. Po této platbě může hráč
    ovládající společnost splatit libovolný počet dluhopisů při ceně $ 5,000 za jeden.'"""
    s = company_game(3)
    red = adv(s).companies[0]
    red.bonds, red.cash, red.card = 2, 12000, 0
    s = to_dividends(s)
    assert adv(s).companies[0].cash == 10000
    fam = ENGINE.legal_actions(s, one(s))[0]
    assert isinstance(fam.action, RepayBonds) and (fam.range.min, fam.range.max) == (0, 2)
    s = act(s, RepayBonds(count=1))
    red = adv(s).companies[0]
    assert (red.bonds, red.cash) == (1, 5000)
    assert isinstance(ENGINE.legal_actions(s, one(s))[0].action, PayDividend)


def test_unpaid_interest_new_bonds_or_all_money_to_the_bank() -> None:
    """'musí vydat další dluhopisy na splacení svých pohledávek ... Jestliže společnost nemá na
    zaplacení a nemůže vydat další dluhopisy, potom odevzdá všechny svoje peníze do banky. Cena
    akcií se sníží o 2.'"""
    s = company_game(3)
    s.links = [Link(id=i, owner=0, a=AVON, b=b, start_edge=0, hexes=[], exit=0, complete=True)
               for i, b in enumerate((BRENT, CALDER))]
    for c in adv(s).companies:
        c.cash = 0
    red, blue = adv(s).companies[0], adv(s).companies[1]
    red.bonds, red.cash, red.card = 1, 500, 0  # two links: room for one more bond
    blue.bonds, blue.cash, blue.card = 2, 1500, 0  # no link: no room for a bond
    s = to_dividends(s)
    red, blue = adv(s).companies[0], adv(s).companies[1]
    assert (red.bonds, red.cash) == (2, 500 + 5000 - 1000)  # the new bond pays interest from next round
    s = act(s, PayDividend(amount=0))
    blue = adv(s).companies[1]
    assert (blue.cash, blue.price) == (0, 5)  # money to the bank, -2, and no dividend
    assert "the Blue Company cannot pay its bond interest: its $1,500 goes to the bank" in s.log
