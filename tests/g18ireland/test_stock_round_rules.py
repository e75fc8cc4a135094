"""Stock-round rules the first rounds of the real games do not reach: selling (second round on),
sell-then-buy, no buying back what was sold, forced sales over the certificate limit, the
sold-out rise, closing the queued minor when none started, majors par from phase 6."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import LegalAction, RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.state import MoneyState
from shared.games.core18xx.rounds import stock as SR
from shared.games.g18ireland import money as M
from shared.games.g18ireland.setup_random import draw_setup

RULES = M.STOCK_RULES
COMPANIES = [c["sym"] for c in M.ENTITIES["companies"]]
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]
SETUP = draw_setup(689309492, COMPANIES, MINORS)     # queue: DKR, LER, WLR, UR, ...


def money_with(holdings: dict[str, list[str]], turn: int = 2) -> MoneyState:
    state = M.initial(["a", "b", "c"], SETUP)
    money = state.money.set_par("LER", (2, 4)).set_par("WLR", (3, 3))
    for player, certs in holdings.items():
        money = msgspec.structs.replace(money, book=money.book.moved(certs, player))
    money = money.check_float("LER").check_float("WLR")
    return msgspec.structs.replace(money, turn=turn)


def test_sell_then_buy_and_no_buy_back() -> None:
    money = money_with({"a": ["LER_0", "LER_1"], "b": ["WLR_0", "LER_2"]})
    money, sr = SR.start(money, SETUP.minors, "2", RULES)
    assert SR.active_player(money, sr) == "a"
    assert "sell_shares" in SR.available(money, sr, "a", RULES)
    money, sr = SR.do_sell(money, sr, "a", ["LER_1"], None, RULES)
    assert money.cash["a"] == 330 + 70 and money.price_of("LER") == 66
    # a may not buy LER back this round, but may buy WLR, then the turn ends
    assert all(money.book.certs[c].corporation != "LER" for _, c in SR.buyable(money, sr, "a"))
    money, sr = SR.do_buy(money, sr, "a", ["WLR_1"], RULES)
    assert SR.active_player(money, sr) == "b"
    with pytest.raises(RuleError):
        SR.apply(money, sr, "a", A.Pass(entity="a", entity_type="player"), RULES)


def test_no_selling_in_the_first_round_and_director_cannot_dump() -> None:
    money = money_with({"a": ["LER_0", "LER_1"]}, turn=1)
    money, sr = SR.start(money, SETUP.minors, "2", RULES)
    assert SR.sellable(money, sr, "a") == []
    money = msgspec.structs.replace(money_with({"a": ["LER_0", "LER_1"]}), turn=2)
    money, sr = SR.start(money, SETUP.minors, "2", RULES)
    offers = {tuple(ids) for _, ids, _ in SR.sellable(money, sr, "a")}
    assert ("LER_1",) in offers and not any("LER_0" in ids for ids in offers)   # nobody could take LER


def test_over_the_certificate_limit_only_selling() -> None:
    money = money_with({"a": ["LER_0", "LER_1", "LER_2", "WLR_1"]})
    money = msgspec.structs.replace(money, cert_limit=3)
    money, sr = SR.start(money, SETUP.minors, "2", RULES)
    assert SR.available(money, sr, "a", RULES) == ["sell_shares"]


def test_majors_par_from_phase_6_and_sold_out_rise() -> None:
    money = money_with({"a": ["LER_0", "LER_1"], "b": ["LER_2", "LER_3"]})
    money, sr = SR.start(money, SETUP.minors, "4", RULES)
    assert SR.parable_majors(money, sr, "a", RULES) == []
    money, sr = SR.start(money_with({"a": ["LER_0", "LER_1"], "b": ["LER_2", "LER_3"]}), SETUP.minors, "6", RULES)
    assert "GSWR" in SR.parable_majors(money, sr, "a", RULES)
    money, sr = SR.do_par(money, sr, "a", "GSWR", "100,0,6", RULES)
    assert money.book.president_of("GSWR") == "a" and money.cash["GSWR"] == 200 and money.corps["GSWR"].floated
    while not sr.finished:
        player = SR.active_player(money, sr)
        assert player is not None
        money, sr = SR.do_pass(money, sr, player, RULES)
    # LER is all in players' hands: it rises a row; no minor started this round: the queue's first
    # unstarted minor (DKR was not bought here, so it is next) closes
    assert money.price_of("LER") == 78
    assert money.corps[SETUP.minors[0]].closed
    assert S.POOL not in money.book.holders("LER")


def test_above_the_holding_limit_only_selling() -> None:
    # 80 % of a minor (limit 60 %), as after a presidency swap or a merger: sell first
    money = money_with({"a": ["LER_0", "LER_1", "LER_2"], "b": ["WLR_1"]})
    money, sr = SR.start(money, SETUP.minors, "2", RULES)
    assert SR.available(money, sr, "a", RULES) == ["sell_shares"]
    assert SR.legal(money, sr, "a", RULES) == [
        LegalAction(
            action=A.SellShares(entity="a", entity_type="player", shares=["LER_1"], percent=20)),
        LegalAction(
            action=A.SellShares(entity="a", entity_type="player", shares=["LER_1", "LER_2"], percent=40)),
    ]


def test_bankrupt_players_take_no_turns_and_keep_their_place() -> None:
    """18xx.games' stock round turns over `players.reject(&:bankrupt)`; the priority deal goes to
    the player after the last to act among those, the bankrupt one staying in the order."""
    money = msgspec.structs.replace(money_with({"a": ["LER_0", "LER_1"], "c": ["WLR_0"]}), bankrupt=["b"])
    money, sr = SR.start(money, SETUP.minors, "2", RULES)
    seen = []
    while not sr.finished:
        player = SR.active_player(money, sr)
        assert player is not None
        seen.append(player)
        money, sr = SR.do_pass(money, sr, player, RULES)
    assert seen == ["a", "c"]
    # the round ended on c's pass: the deal moves on to a, b keeping its seat between them
    assert SR.priority_after(money, sr) == ["a", "b", "c"]
