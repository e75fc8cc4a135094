"""Holders, control and presidency in general form, on synthetic positions: corporations owning
shares of other corporations, presiding through a chain, frozen corporations (no player at the
top of the chain, or a loop), per-holder certificate limits, and corporations trading in the
stock round on their controller's turn."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import control as C
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.rules import MoneyRules
from shared.games.core18xx.rounds import stock as SR

from .synthetic import give, money, started

HOLDERS = MoneyRules(presidents="holders", corporate_cert_limit=2)
CORPORATE = SR.StockRules(corporations_trade=True)


def chain_position():
    """p1 presides A; A presides B; B presides C (p1 controls all three through the chain)."""
    m = money(["p1", "p2"], ["A", "B", "C", "D", "E"], HOLDERS)
    m = started(m, "A", "p1")
    m = started(m, "B", "A")
    return started(m, "C", "B")


def test_control_walks_the_chain_to_a_player() -> None:
    m = chain_position()
    assert C.chain_of_control(m, "C") == ("B", "A", "p1")
    assert [C.controller(m, s) for s in ("A", "B", "C")] == ["p1", "p1", "p1"]
    assert C.controlled_by(m, "p1") == ["A", "B", "C"] and C.controlled_by(m, "p2") == []
    assert C.may_act_for(m, "p1", "C") and not C.may_act_for(m, "p2", "C")
    assert C.controller(m, "D") is None and not C.frozen(m, "D")      # not started: not frozen


def test_frozen_when_the_pool_or_a_loop_tops_the_chain() -> None:
    m = chain_position()
    # A's president's certificate goes to the pool: A, B and C have no player at the top
    m = msgspec.structs.replace(m, book=m.book.moved(["A_0"], S.POOL))
    assert C.chain_of_control(m, "C") == ("B", "A", S.POOL)
    assert all(C.frozen(m, s) for s in ("A", "B", "C"))
    # D and E preside each other: a loop, frozen
    m = started(started(m, "D", "E"), "E", "D")
    assert C.chain_of_control(m, "D") == ("E", "D", None)
    assert C.frozen(m, "D") and C.frozen(m, "E")


def test_a_corporation_takes_the_presidency_when_holders_may_preside() -> None:
    m = money(["p1", "p2"], ["A", "B"], HOLDERS)
    m = started(m, "A", "p1")
    m = started(m, "B", "p2")                          # p2: 20 % of B
    m = give(m, "B", "A", 2)                           # A: 20 % of B (a tie: p2 keeps it)
    assert m.book.president_of("B") == "p2"
    book, cash = S.buy(m.book, {**m.cash, "A": 100}, "A", ["B_3"], 10, m.presidents("B"))
    assert book.president_of("B") == "A"               # A now holds 30 %
    assert C.controller(msgspec.structs.replace(m, book=book), "B") == "p1"
    # players only (the default): the same purchase leaves p2 president
    plain = msgspec.structs.replace(m, rules=MoneyRules())
    book, _ = S.buy(plain.book, {**plain.cash, "A": 100}, "A", ["B_3"], 10, plain.presidents("B"))
    assert book.president_of("B") == "p2"


def test_dumping_needs_an_eligible_holder() -> None:
    m = money(["p1", "p2"], ["A", "B"], HOLDERS)
    m = started(started(m, "A", "p1"), "B", "p2")
    m = give(m, "B", "A", 2)                           # only A could take B's presidency
    assert S.can_dump(m.book, "p2", "B", ["B_0"], m.presidents("B"))
    plain = msgspec.structs.replace(m, rules=MoneyRules())
    assert not S.can_dump(plain.book, "p2", "B", ["B_0"], plain.presidents("B"))


def test_cert_limits_per_player_and_per_corporation() -> None:
    m = chain_position()                               # A holds B's 20 % (one certificate)
    assert m.num_certs("A") == 1 and m.cert_limit_of("A") == 2
    assert m.can_gain("A", "D", 10)
    m = started(m, "D", "p2")
    m = give(m, "D", "A", 1)                           # A: B's certificate and one of D
    assert m.num_certs("A") == 2 and not m.can_gain("A", "D", 10)
    # a corporation's own unsold shares never count
    assert m.book.percent_of("A", "A") == 80 and m.num_certs("A") == 2
    assert m.cert_limit_of("p1") == 12


def test_closing_pays_every_holder_when_the_title_says_so() -> None:
    rules = msgspec.structs.replace(HOLDERS, bankrupt_close_pays_holders=True)
    m = money(["p1", "p2"], ["A", "B"], rules)
    m = started(started(m, "A", "p1"), "B", "p1")
    m = give(m, "B", "A", 2)                            # A holds 20 % of B
    m = msgspec.structs.replace(m, bankrupt=["p1"])
    depot = T.new_depot([], [T.PhaseDef(name="2", on=None, train_limit={"major": 4}, tiles=["yellow"],
                                        operating_rounds=1, status=[])])
    before = m.cash["A"]
    closed, _ = O.close_company(m, depot, "B")
    assert closed.cash["A"] == before + 2 * m.price_of("B")   # a corporation holder is paid too
    assert closed.cash["p1"] == m.cash["p1"]                    # the bankrupt president is not


def test_corporations_trade_on_their_controllers_turn() -> None:
    m = chain_position()
    m = msgspec.structs.replace(m, cash={**m.cash, "B": 200}, turn=2)
    m = started(m, "D", "p2")
    m, sr = SR.start(m, [], "2", CORPORATE)
    assert SR.current_player(m, sr) == "p1"
    listed = SR.legal(m, sr, "p1", CORPORATE)
    corporate = [la.action for la in listed if la.action.entity_type == "corporation"]
    assert any(a.entity == "B" and isinstance(a, A.BuyShares) and a.shares[0].startswith("D_") for a in corporate)
    assert not any(a.shares[0].startswith(a.entity + "_") for a in corporate if not isinstance(a, A.Par))
    buy = next(a for a in corporate if a.entity == "B" and a.shares[0].startswith("D_"))
    after, sr2 = SR.apply(m, sr, "p1", buy, CORPORATE)
    assert after.book.percent_of("B", "D") == 10 and after.cash["B"] == 200 - m.price_of("D")
    # p2 does not control B; and without the rule corporations do not trade at all
    with pytest.raises(RuleError) as err:
        SR.do_buy(m, sr, "p2", buy.shares, CORPORATE, entity="B")
    assert err.value.code == "not_controller"
    with pytest.raises(RuleError) as err:
        SR.do_buy(m, sr, "p1", buy.shares, SR.StockRules(), entity="B")
    assert err.value.code == "not_a_trader"


def test_a_corporation_founds_a_corporation_and_presides_it() -> None:
    m = money(["p1", "p2"], ["A", "B", "C"], HOLDERS)
    m = started(m, "A", "p1")
    m = msgspec.structs.replace(m, cash={**m.cash, "A": 300})
    m, sr = SR.start(m, [], "2", CORPORATE)
    pars = [la.action for la in SR.legal(m, sr, "p1", CORPORATE)
            if isinstance(la.action, A.Par) and la.action.entity == "A"]
    assert {a.corporation for a in pars} == {"B", "C"}          # never itself
    par = next(a for a in pars if a.corporation == "B")
    after, _ = SR.apply(m, sr, "p1", par, CORPORATE)
    assert after.book.president_of("B") == "A" and C.controller(after, "B") == "p1"
    assert C.chain_of_control(after, "B") == ("A", "p1")
