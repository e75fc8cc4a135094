"""Certificates, payments and presidency changes (minors of five shares with a 40 % director's certificate, majors of ten)."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.core18xx.money import shares as S

PLAYERS = ["p1", "p2", "p3", "p4"]


def book() -> S.ShareBook:
    return S.new_book([("DDR", [40, 20, 20, 20]), ("GSWR", [20] + [10] * 8)])


def test_minor_incremental_capitalisation_pays_the_company() -> None:
    b = book()
    cash = {"p1": 250, "DDR": 0, S.BANK: 4000}
    assert b.normal_percent("DDR") == 20 and b.normal_percent("GSWR") == 10
    b, cash = S.buy(b, cash, "p1", ["DDR_0"], 60, PLAYERS)
    assert cash["p1"] == 130 and cash["DDR"] == 120  # director's 40 % = two shares at £60
    b, cash = S.buy(b, cash, "p1", ["DDR_1"], 60, PLAYERS)
    assert cash["p1"] == 70 and cash["DDR"] == 180 and b.percent_of("p1", "DDR") == 60
    assert b.president_of("DDR") == "p1"
    with pytest.raises(RuleError) as err:
        S.buy(b, cash, "p1", ["DDR_2"], 100, PLAYERS)
    assert err.value.code == "not_enough_cash"


def test_pool_purchase_pays_the_bank_and_sale_is_paid_by_the_bank() -> None:
    b = book()
    cash = {"p1": 300, "p2": 300, "GSWR": 0, S.BANK: 4000}
    b, cash = S.buy(b, cash, "p1", ["GSWR_0"], 70, PLAYERS)
    b, cash = S.buy(b, cash, "p1", ["GSWR_1"], 70, PLAYERS)
    b, cash, moved = S.sell(b, cash, "p1", ["GSWR_1"], None, 70, PLAYERS, pool_limit=50)
    assert moved == 1 and cash["p1"] == 300 - 140 - 70 + 70 and b.owner["GSWR_1"] == S.POOL
    b, cash = S.buy(b, cash, "p2", ["GSWR_1"], 65, PLAYERS)
    assert cash[S.BANK] == 4000 - 70 + 65 and cash["GSWR"] == 210


def test_overtaking_swaps_the_presidency() -> None:
    b = book()
    cash = {p: 1000 for p in PLAYERS} | {"GSWR": 0, S.BANK: 4000}
    b, cash = S.buy(b, cash, "p1", ["GSWR_0"], 100, PLAYERS)
    for cid in ("GSWR_1", "GSWR_2"):
        b, cash = S.buy(b, cash, "p3", [cid], 100, PLAYERS)
    assert b.president_of("GSWR") == "p1"          # a tie leaves the presidency where it is
    b, cash = S.buy(b, cash, "p3", ["GSWR_3"], 100, PLAYERS)
    assert b.president_of("GSWR") == "p3"
    # p3 handed two 10 % shares to p1 for the 20 % certificate
    assert b.percent_of("p1", "GSWR") == 20 and b.percent_of("p3", "GSWR") == 30
    assert all(not c.president for c in b.certs_of("p1", "GSWR"))


def test_cannot_dump_presidency_without_a_taker() -> None:
    b = book()
    cash = {p: 1000 for p in PLAYERS} | {"DDR": 0, S.BANK: 4000}
    b, cash = S.buy(b, cash, "p1", ["DDR_0"], 60, PLAYERS)
    b, cash = S.buy(b, cash, "p2", ["DDR_1"], 60, PLAYERS)
    with pytest.raises(RuleError) as err:
        S.sell(b, cash, "p1", ["DDR_0"], None, 60, PLAYERS, pool_limit=40)
    assert err.value.code == "cannot_dump"
    b, cash = S.buy(b, cash, "p2", ["DDR_2"], 60, PLAYERS)   # p2 now 40 %: ties, p1 keeps it
    assert b.president_of("DDR") == "p1"
    b, cash, moved = S.sell(b, cash, "p1", ["DDR_0"], None, 60, PLAYERS, pool_limit=40)
    assert moved == 2 and b.president_of("DDR") == "p2"
    # p2's two 20 % shares went to the pool in exchange for the director's certificate
    assert b.percent_of(S.POOL, "DDR") == 40 and b.percent_of("p2", "DDR") == 40


def test_partial_sale_of_the_presidents_certificate() -> None:
    b = book()
    cash = {p: 1000 for p in PLAYERS} | {"GSWR": 0, S.BANK: 4000}
    b, cash = S.buy(b, cash, "p1", ["GSWR_0"], 100, PLAYERS)
    b, cash = S.buy(b, cash, "p2", ["GSWR_1"], 100, PLAYERS)
    b, cash = S.buy(b, cash, "p2", ["GSWR_2"], 100, PLAYERS)
    options = S.sell_options(b, "p1", "GSWR")
    assert options == [(["GSWR_0"], 10), (["GSWR_0"], 20)]
    b, cash, moved = S.sell(b, cash, "p1", ["GSWR_0"], 10, 100, PLAYERS, pool_limit=50)
    assert moved == 1 and b.president_of("GSWR") == "p2"
    # p2 swapped 20 % for the certificate; one of those 10 % shares came back to p1
    assert b.percent_of("p1", "GSWR") == 10 and b.percent_of(S.POOL, "GSWR") == 10
    assert cash["p1"] == 1000 - 200 + 100


def test_pool_limit_and_holding_limit() -> None:
    b = book()
    cash = {p: 1000 for p in PLAYERS} | {"DDR": 0, S.BANK: 4000}
    b, cash = S.buy(b, cash, "p1", ["DDR_0"], 60, PLAYERS)
    b, cash = S.buy(b, cash, "p1", ["DDR_1"], 60, PLAYERS)
    assert S.holding_ok(b, "p1", "DDR", 0, 60) and not S.holding_ok(b, "p1", "DDR", 20, 60)
    assert S.holding_ok(b, "p1", "DDR", 20, 60, lifted=True)
    b, cash = S.issue_one(b, cash, "DDR", 60, pool_limit=40)
    b, cash = S.issue_one(b, cash, "DDR", 60, pool_limit=40)
    with pytest.raises(RuleError) as err:
        S.sell(b, cash, "p1", ["DDR_1"], None, 60, PLAYERS, pool_limit=40)
    assert err.value.code == "pool_full"
    assert S.cert_count(b, "p1", {"DDR": True}, companies_held=1) == 3
    assert S.cert_count(b, "p1", {"DDR": False}, companies_held=1) == 1


def test_issue_and_redeem_one_share() -> None:
    b = book()
    cash = {"p1": 1000, "GSWR": 0, S.BANK: 4000}
    b, cash = S.buy(b, cash, "p1", ["GSWR_0"], 70, PLAYERS)
    b, cash = S.issue_one(b, cash, "GSWR", 70, pool_limit=50)
    assert cash["GSWR"] == 140 + 70 and b.percent_of(S.POOL, "GSWR") == 10
    b, cash = S.redeem_one(b, cash, "GSWR", 65)
    assert cash["GSWR"] == 210 - 65 and b.percent_of(S.POOL, "GSWR") == 0
    with pytest.raises(RuleError):
        S.redeem_one(b, cash, "GSWR", 65)


def test_half_prices_round_up() -> None:
    assert S.bundle_price(book(), "GSWR", 30, 14.5) == 44
    assert S.bundle_price(book(), "DDR", 40, 55) == 110


def test_certificates_move_in_arrival_order() -> None:
    # 18xx.games hands over "the first" certificates a holder got: swaps and partial-sale returns
    # follow arrival order, which decides the ids later actions name.
    b = book()
    cash = {p: 1000 for p in PLAYERS} | {"GSWR": 0, S.BANK: 4000}
    b, cash = S.buy(b, cash, "p1", ["GSWR_0"], 100, PLAYERS)
    b, cash = S.buy(b, cash, "p2", ["GSWR_4"], 100, PLAYERS)
    b, cash = S.buy(b, cash, "p2", ["GSWR_2"], 100, PLAYERS)
    b, cash = S.buy(b, cash, "p3", ["GSWR_8"], 100, PLAYERS)
    b, cash, _ = S.sell(b, cash, "p3", ["GSWR_8"], None, 100, PLAYERS, pool_limit=50)   # pool: GSWR_8
    assert [c.id for c in b.certs_of("p2", "GSWR")] == ["GSWR_4", "GSWR_2"]
    b, cash, _ = S.sell(b, cash, "p1", ["GSWR_0"], 10, 100, PLAYERS, pool_limit=50)
    # p2 swapped GSWR_4 and GSWR_2 (his first two) into the pool; p1 gets back the pool's oldest
    assert b.owner["GSWR_0"] == "p2"
    assert [c.id for c in b.certs_of("p1", "GSWR")] == ["GSWR_8"]
    assert [c.id for c in b.certs_of(S.POOL, "GSWR")] == ["GSWR_4", "GSWR_2"]


def _holdings(b: S.ShareBook) -> tuple[dict, dict]:
    """Every holder's certificates per company in arrival order, and the percents, as read."""
    holders = {*b.owner.values(), S.POOL, "p1", "p2"}
    corps = {c.corporation for c in b.certs.values()}
    certs = {(h, c): [x.id for x in b.certs_of(h, c)] for h in holders for c in corps}
    return certs, {(h, c): b.percent_of(h, c) for h in holders for c in corps}


def test_a_moved_book_reads_as_one_indexed_afresh() -> None:
    # `moved` hands its index on to the next book instead of sorting every certificate again:
    # after any sequence of moves (several at once, back to the same holder, emptying a
    # holder) the book must read exactly as a copy indexed from scratch
    import random

    rng = random.Random(7)
    b = book()
    ids = sorted(b.certs)
    for _ in range(300):
        b._index()                      # the index exists, so the next move carries it
        moving = rng.sample(ids, rng.choice([1, 1, 2, 3]))
        b = b.moved(moving, rng.choice(["p1", "p2", S.POOL, "DDR", "GSWR", b.owner[moving[0]]]))
        assert "_by_holder" in b.__dict__
        fresh = S.ShareBook(certs=b.certs, owner=dict(b.owner), seq=dict(b.seq), clock=b.clock)
        assert _holdings(b) == _holdings(fresh)
        assert b.certs_of("p1") == fresh.certs_of("p1")
