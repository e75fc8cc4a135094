"""1841's trades between players (`p2p_purchases`) and the sales a holder over its limits must
make, on hand-built positions (18xx.games `g_1841/step/buy_sell_par_shares.rb`,
`base_buy_sell_par_shares.rb`, `corporate_buy_sell_par_shares.rb`; the README's readings)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import shares as S
from shared.games.g1841 import flow as FL
from shared.games.g1841 import listing as L
from shared.games.g1841 import stock as ST
from shared.games.g1841.engine import ENGINE
from shared.games.g1841.state import State

from tests.g1841 import test_engine as E
from tests.g1841.test_engine import act

replace = msgspec.structs.replace
PAR = "100,3,5"


def stock_round(owners: dict[str, str], p2p: bool = True, cash: int = 1000) -> State:
    """A 3-player game at its first stock round, concessions as given, the rest the bank's."""
    return E.stock_round(owners, cash, {"p2p_purchases": p2p})


def who(entity: str) -> dict[str, Any]:
    return {"entity": entity, "entity_type": "player" if entity.isdigit() else "corporation"}


def founded(s: State, sym: str, founder: str, plain: int = 0) -> State:
    """`sym` founded at 100 by `founder` with `plain` more 10 % shares (no tokens: the board
    does not matter here)."""
    m = s.money.set_par(sym, s.money.market.by_id(PAR).coord)
    ids = [f"{sym}_0", *(f"{sym}_{i}" for i in range(1, plain + 1))]
    m = replace(m, book=m.book.moved(ids, founder)).check_float(sym)
    return replace(s, money=m, operated=[*s.operated, sym])


def on_turn(s: State, player: str) -> State:
    assert s.stock is not None
    return replace(s, stock=replace(s.stock, index=s.money.players.index(player)))


def legal(s: State, player: str) -> list[Any]:
    return ENGINE.legal_actions(s, s.players.index(player))


def test_without_the_option_no_player_sells_to_another() -> None:
    s = on_turn(founded(stock_round({"SFTG": "0"}, p2p=False), "SFTG", "0", plain=2), "1")
    assert ST.from_players(s, "1") == []
    assert not any(la.action.total_price for la in legal(s, "1") if isinstance(la.action, A.BuyShares))


def test_a_player_buys_shares_from_another_at_the_price_he_names() -> None:
    """`flexible_bundles` / `process_buy_shares`: any bundle of the seller's plain shares, at
    L.1 to all the buyer's cash, paid to the seller; the purchase ends the buyer's turn."""
    s = on_turn(founded(stock_round({"SFTG": "0"}), "SFTG", "0", plain=2), "1")
    offers = [la for la in legal(s, "1") if isinstance(la.action, A.BuyShares) and la.range]
    assert sorted(la.action.percent for la in offers) == [10, 20]     # the president's 20 % stays (historical, phase 2)
    assert all(la.range.field == "total_price" and (la.range.min, la.range.max) == (1, 1000) for la in offers)
    # 18xx.games' client sends a per-share price derived from the price named: not read
    after = act(s, A.BuyShares(**who("1"), shares=["SFTG_1", "SFTG_2"], percent=20, share_price=17, total_price=35))
    m = after.money
    assert m.book.percent_of("1", "SFTG") == 20 and m.book.percent_of("0", "SFTG") == 20
    assert (m.cash["1"], m.cash["0"]) == (965, 1035)
    assert m.book.president_of("SFTG") == "0"                   # a tie keeps the president
    assert L.acting_player(after) != "1"
    with pytest.raises(RuleError):
        act(s, A.BuyShares(**who("1"), shares=["SFTG_1"], percent=10, total_price=1001))
    with pytest.raises(RuleError):
        act(s, A.BuyShares(**who("1"), shares=["SFTG_1"], percent=10, total_price=0))


def test_the_president_s_certificate_goes_with_the_seller_s_whole_holding() -> None:
    """`can_sell_to_player?` and `transfer_shares`' player-to-player case: a general
    corporation's president's certificate is offered only with everything the seller holds (no
    part of it); the buyer becomes president, unless a larger holder takes the certificate
    from him for shares."""
    s = founded(stock_round({}), "ATFA", "0", plain=1)
    s = replace(s, depot=replace(s.depot, phase=1))        # phase 3: general corporations
    s = on_turn(s, "1")
    bundles = {(seller, percent) for seller, sym, _ids, percent in ST.from_players(s, "1") if sym == "ATFA"}
    assert bundles == {("0", 10), ("0", 30)}
    after = act(s, A.BuyShares(**who("1"), shares=["ATFA_0", "ATFA_1"], percent=30, total_price=100))
    assert after.money.book.president_of("ATFA") == "1" and not after.money.book.by_company("0")
    # "2" holds 40 %: he takes the certificate, and "1" gets two of his shares for it
    big = replace(s, money=replace(s.money, book=s.money.book.moved([f"ATFA_{i}" for i in range(2, 6)], "2")))
    after = act(big, A.BuyShares(**who("1"), shares=["ATFA_0", "ATFA_1"], percent=30, total_price=100))
    b = after.money.book
    assert b.president_of("ATFA") == "2" and b.percent_of("2", "ATFA") == 40 and b.percent_of("1", "ATFA") == 30


def test_a_presidency_taken_by_purchase_swaps_back_the_first_certificates_named() -> None:
    """`transfer_shares` moves the bundle in the order the purchase names it and
    `change_president` swaps back the new president's first certificates: buying four plain
    SFTG shares from a president left with 20 %, the buyer keeps the last two named and takes
    the president's certificate (the differential's 6 December game 17: a later sale named
    the certificates 18xx.games no longer had there)."""
    s = founded(stock_round({"SFTG": "0"}), "SFTG", "0", plain=4)
    m = s.money
    s = replace(s, money=replace(m, book=m.book.moved(["SFTG_1"], "2").moved(["SFTG_1"], "0")),
                depot=replace(s.depot, phase=2))                  # phase 4: the presidency may change
    s = on_turn(s, "1")
    assert [c.id for c in s.money.book.held("0", "SFTG")] == ["SFTG_0", "SFTG_2", "SFTG_3", "SFTG_4", "SFTG_1"]
    after = act(s, A.BuyShares(**who("1"), shares=["SFTG_1", "SFTG_2", "SFTG_3", "SFTG_4"], percent=40, total_price=5))
    b = after.money.book
    assert b.president_of("SFTG") == "1"
    assert [c.id for c in b.held("0", "SFTG")] == ["SFTG_1", "SFTG_2"]
    assert sorted(c.id for c in b.held("1", "SFTG")) == ["SFTG_0", "SFTG_3", "SFTG_4"]


def test_the_limits_hold_for_a_purchase_from_a_player() -> None:
    """`can_gain?`: 60 % controlled, and a certificate of room under the limit."""
    s = on_turn(founded(stock_round({"SFTG": "0"}), "SFTG", "0", plain=3), "1")
    m = s.money
    s = replace(s, money=replace(m, book=m.book.moved([f"SFTG_{i}" for i in range(4, 8)], "1")))   # 1 holds 40 %
    assert {p for _s, _y, _i, p in ST.from_players(s, "1")} == {10, 20}
    s = replace(s, money=replace(s.money, book=s.money.book.moved(["SFTG_8"], "1")))            # 50 %
    assert {p for _s, _y, _i, p in ST.from_players(s, "1")} == {10}


def test_a_concession_bought_from_a_player_takes_its_president_s_certificate() -> None:
    """`can_buy_company?` / `process_buy_company`: another player's concession at L.1 to all
    the buyer's cash, paid to him; where he presides its corporation, the president's
    certificate goes with it (his other shares stay)."""
    s = on_turn(founded(stock_round({"SFTG": "0", "SFTC": "0"}), "SFTG", "0", plain=2), "1")
    buys = {la.action.company: la for la in legal(s, "1") if isinstance(la.action, A.BuyCompany)}
    assert set(buys) == {"SFTG", "SFTC"}
    assert (buys["SFTG"].range.min, buys["SFTG"].range.max) == (1, 1000)
    after = act(s, A.BuyCompany(**who("1"), company="SFTG", price=250))
    m = after.money
    assert m.companies["SFTG"] == "1" and m.book.president_of("SFTG") == "1"
    assert m.book.percent_of("0", "SFTG") == 20 and (m.cash["1"], m.cash["0"]) == (750, 1250)
    # an unfounded corporation's concession is just the concession
    after = act(s, A.BuyCompany(**who("1"), company="SFTC", price=1))
    assert after.money.companies["SFTC"] == "1" and after.money.book.percent_of("1", "SFTC") == 0
    # concessions do not count toward the certificate limit (CERT_LIMIT_INCLUDES_PRIVATES false)
    assert after.money.num_certs("1") == 0


def test_only_players_trade_in_the_stock_round() -> None:
    """G1841's stock round has only the player's step: his corporations trade in their own
    operating turns."""
    s = founded(stock_round({"SFTG": "0", "SFTC": "0"}), "SFTG", "0")
    s = founded(s, "SFTC", "1")
    s = on_turn(s, "0")
    assert {la.action.entity for la in legal(s, "0")} == {"0"}
    with pytest.raises(RuleError):
        act(s, A.BuyShares(**who("SFTG"), shares=["SFTC_1"], percent=10))


def test_a_player_over_60_percent_controlled_must_sell_first() -> None:
    """`must_sell?` (anti-trust): over 60 % of a corporation counting his corporations'
    holdings, with a sale open, he may only sell, any bundle, until he is within it."""
    s = founded(stock_round({"SFTG": "0", "SFTC": "0"}), "SFTG", "0", plain=2)
    s = founded(s, "SFTC", "0", plain=2)
    m = s.money
    s = on_turn(replace(s, money=replace(m, book=m.book.moved(["SFTC_3", "SFTC_4", "SFTC_5"], "SFTG"))), "0")
    assert ST.must_sell(s, "0")
    actions = legal(s, "0")
    assert actions and all(isinstance(la.action, A.SellShares) for la in actions)
    assert {la.action.shares[0].split("_")[0] for la in actions} == {"SFTC", "SFTG"}
    with pytest.raises(RuleError):
        act(s, A.Pass(**who("0")))
    after = act(s, A.SellShares(**who("0"), shares=["SFTC_1"], percent=10))
    assert not ST.must_sell(after, "0")
    assert any(isinstance(la.action, A.Pass) for la in legal(after, "0"))


def test_over_the_certificate_limit_a_player_must_sell() -> None:
    s = founded(stock_round({"SFTG": "0"}), "SFTG", "0", plain=2)
    m = s.money
    s = on_turn(replace(s, money=replace(m, cert_limit=2)), "0")
    assert ST.must_sell(s, "0")
    s = on_turn(replace(s, money=replace(m, cert_limit=3)), "0")
    assert not ST.must_sell(s, "0")


def test_a_frozen_corporation_in_a_loop_sells_the_loop_s_certificates() -> None:
    """`frozen_operation`: a frozen corporation whose chain of control loops moves left twice
    and sells, at the market price, every certificate it holds of the corporations in the loop;
    the presidency passes to a player who holds enough, and the loop is broken."""
    s = founded(stock_round({}), "SFTG", "SFTC", plain=1)        # SFTC presides SFTG ...
    s = founded(s, "SFTC", "SFTG")                                # ... and SFTG presides SFTC
    m = s.money
    s = replace(s, money=replace(m, book=m.book.moved(["SFTC_1", "SFTC_2"], "1")))
    assert FL.C.frozen(s.money, "SFTG") and FL.C.frozen(s.money, "SFTC")
    m = FL.circular_sales(s.money, "SFTG")
    # SFTG sold SFTC's president's certificate for 2 x 100; player 1 takes it for two shares
    assert m.book.president_of("SFTC") == "1" and m.book.percent_of(S.POOL, "SFTC") == 20
    assert m.cash["SFTG"] == s.money.cash["SFTG"] + 200
    assert m.price_of("SFTC") < 100
    assert not FL.C.frozen(m, "SFTG") and not FL.C.frozen(m, "SFTC")
    # a frozen corporation outside any loop sells nothing
    alone = replace(s.money, book=s.money.book.moved(["SFTG_0", "SFTG_1"], S.POOL))
    assert FL.C.frozen(alone, "SFTC") and FL.circular_sales(alone, "SFTC") is alone


def test_the_frozen_operation_runs_the_loop_sales() -> None:
    s = founded(stock_round({}), "SFTG", "SFTC", plain=1)
    s = founded(s, "SFTC", "SFTG")
    m = s.money
    s = replace(s, money=replace(m, book=m.book.moved(["SFTC_1", "SFTC_2"], "1")), stock=None)
    after = FL.start_operating(s, 1, 1)
    assert after.money.book.president_of("SFTC") == "1"
