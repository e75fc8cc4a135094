"""18Ireland's operating turn machine on constructed positions, with a stub board port: which
step waits, passes, automatic withholds, second lays, tokens, forced purchases, privates."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.g18ireland import money as M
from shared.games.g18ireland import company_turn as OP
from shared.games.g18ireland.setup_random import draw_setup

COMPANIES = [c["sym"] for c in M.ENTITIES["companies"]]
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]


class Port:
    def __init__(self, token: bool = False, run: bool = True) -> None:
        self.token, self.run = token, run

    def can_token(self, corp: str, cost: int, cash: int) -> bool:
        return self.token

    def can_run(self, corp: str) -> bool:
        return self.run


def position(cash: int = 200) -> tuple[MoneyState, T.Depot]:
    state = M.initial(["a", "b", "c"], draw_setup(689309492, COMPANIES, MINORS))
    money = state.money.set_par("LER", (2, 4))
    money = msgspec.structs.replace(money, book=money.book.moved(["LER_0"], "a").moved(["LER_1", "LER_2", "LER_3"], "b"),
                                    cash={**money.cash, "LER": cash})
    return money.check_float("LER"), state.depot


def corp_pass() -> A.Pass:
    return A.Pass(entity="LER", entity_type="corporation")


def test_turn_without_train_lays_then_must_buy() -> None:
    money, depot = position()
    ctx = OP.context({"LER": 1})
    port = Port(run=True)
    money, turn = OP.start(money, depot, "LER", ctx, port)
    # all LER shares are out: nothing to issue or redeem, so the turn opens at track
    assert turn.stage == "track"
    money, turn = OP.record_lay(money, depot, turn, ctx, port, cost=40, upgrade=False)
    assert turn.stage == "track" and money.cash["LER"] == 160          # a second lay is possible
    money, turn = OP.record_lay(money, depot, turn, ctx, port, cost=20, upgrade=False)
    # no train: no route step; nothing earned is withheld (price left); then the forced purchase
    assert turn.stage == "buy_train" and money.price_of("LER") == 65
    assert not any(isinstance(x.action, A.Pass) for x in OP.legal_money(money, depot, turn, ctx))
    with pytest.raises(RuleError):
        OP.apply_money(money, depot, turn, corp_pass(), ctx, port)
    money, depot, turn, events = OP.apply_money(
        money, depot, turn, A.BuyTrain(entity="LER", entity_type="corporation", train="2H-0", price=80), ctx, port)
    # room for a second but 60 left, below any train on offer: the turn ends by itself
    assert money.cash["LER"] == 60 and turn.stage == "done"


def test_upgrade_ends_track_and_run_then_dividend() -> None:
    money, depot = position()
    p = T.buy_train(depot, money.cash, "LER", "2H-0", 80)
    money, depot = msgspec.structs.replace(money, cash=p.cash), p.depot
    ctx = OP.context({"LER": 1})
    port = Port(token=True, run=True)
    money, turn = OP.start(money, depot, "LER", ctx, port)
    money, turn = OP.record_lay(money, depot, turn, ctx, port, cost=0, upgrade=True)
    # after an upgrade no second lay; LER's only token is placed: the route step waits
    assert turn.stage == "route"
    with pytest.raises(RuleError):
        OP.apply_money(money, depot, turn, corp_pass(), ctx, port)
    money, turn = OP.record_run(money, depot, turn, ctx, port, revenue=140)
    assert turn.stage == "dividend"
    money, depot, turn, _ = OP.apply_money(
        money, depot, turn, A.Dividend(entity="LER", entity_type="corporation", kind="payout"), ctx, port)
    assert money.price_of("LER") == 86 and turn.stage == "buy_train"


def test_issue_step_and_tokens() -> None:
    money, depot = position()
    money = msgspec.structs.replace(money, book=money.book.moved(["LER_3"], "LER"))   # one share back in treasury
    ctx = OP.context({"GSWR": 1})
    port = Port(token=True)
    money, turn = OP.start(money, depot, "LER", ctx, port)
    assert turn.stage == "issue"
    legal = [x.action for x in OP.legal_money(money, depot, turn, ctx)]
    assert A.SellShares(entity="LER", entity_type="corporation", shares=["LER_3"], percent=20) in legal
    money, depot, turn, _ = OP.apply_money(money, depot, turn, legal[0], ctx, port)
    assert turn.stage == "track" and money.cash["LER"] == 270
    # a major with tokens left and a reachable city waits at the token step and pays its price
    gswr = money.set_par("GSWR", (1, 5))
    gswr = msgspec.structs.replace(gswr, book=gswr.book.moved(["GSWR_0"], "a"), cash={**gswr.cash, "GSWR": 100})
    gswr = gswr.check_float("GSWR")
    g, t = OP.start(gswr, depot, "GSWR", ctx, port)
    assert t.stage == "issue"                        # its treasury could issue a share: pass
    g, _, t, _ = OP.apply_money(g, depot, t, A.Pass(entity="GSWR", entity_type="corporation"), ctx, port)
    assert t.stage == "track"
    g, _, t, _ = OP.apply_money(g, depot, t, A.Pass(entity="GSWR", entity_type="corporation"), ctx, port)
    assert t.stage == "token"
    g, t, ctx2 = OP.record_token(g, depot, t, ctx, port)
    assert g.cash["GSWR"] == 80 and ctx2.tokens_used["GSWR"] == 2


def test_private_purchase_keeps_the_last_step_open() -> None:
    money, depot = position(cash=300)
    cash = {**money.cash, "x": 10**6}
    while depot.upcoming[0] != "4H-1":
        t = depot.trains[depot.upcoming[0]]
        p = T.buy_train(depot, cash, "x", t.id, depot.price_for(t))
        depot, cash = p.depot, p.cash
    money = msgspec.structs.replace(money, companies={"DAR": "a", "DR": "b"})
    ctx = OP.context({"LER": 1})
    port = Port(run=False)
    money, turn = OP.start(money, depot, "LER", ctx, port)
    # DR (a track-laying private a company could buy now) keeps the track step open
    assert turn.stage == "track"
    money, depot, turn, _ = OP.apply_money(money, depot, turn, corp_pass(), ctx, port)
    money, depot, turn, _ = OP.apply_money(
        money, depot, turn, A.BuyTrain(entity="LER", entity_type="corporation", train="4H-1", price=180), ctx, port)
    if turn.stage == "buy_train":                    # room for another and cash: may pass
        money, depot, turn, _ = OP.apply_money(money, depot, turn, corp_pass(), ctx, port)
    assert turn.stage == "buy_company"
    buy = A.BuyCompany(entity="LER", entity_type="corporation", company="DAR", price=40)
    money, depot, turn, _ = OP.apply_money(money, depot, turn, buy, ctx, port)
    assert money.companies["DAR"] == "LER" and turn.stage == "buy_company"     # DR is still for sale
    money, depot, turn, _ = OP.apply_money(money, depot, turn, corp_pass(), ctx, port)
    assert turn.stage == "done"
