"""Replays the opening auction and the first stock round of real 18Ireland exports through our
steps: every decision comes from the player we say is to act and is legal; the round ends where
the export's first operating round starts; the companies then operate in the order our market
gives; and the second stock round opens with the player we give priority to."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.core18xx.export_log import decisions
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.rounds import stock as SR
from shared.games.core18xx.rounds import waterfall_auction as W
from shared.games.g18ireland import money as M
from shared.games.g18ireland.setup_random import draw_setup

from .exports import export_paths

EXPORTS = export_paths("18Ireland")
RULES = M.STOCK_RULES
COMPANIES = [c["sym"] for c in M.ENTITIES["companies"]]
VALUES = {c["sym"]: c["value"] for c in M.ENTITIES["companies"]}
MINORS = [c["sym"] for c in M.ENTITIES["corporations"] if c["type"] == "minor"]


def run_auction(export: dict, moves: list[dict]) -> tuple[M.IrelandMoney, list[str], int]:
    players = [str(p["id"]) for p in export["players"]]
    setup = draw_setup(export["settings"]["seed"], COMPANIES, MINORS)
    state = M.initial(players, setup)
    auction = W.new_waterfall(players, {p: state.money.cash[p] for p in players},
                              [(c, VALUES[c]) for c in setup.companies],
                              unbid_cheapest_leaves=True)
    i = 0
    while not auction.finished:
        move = moves[i]
        player = str(move["entity"])
        assert player == auction.active_player()
        auction = W.bid(auction, player, move["company"], move["price"]) if move["type"] == "bid" else W.pass_(auction, player)
        i += 1
    state = M.apply_private_sales(state, auction.sales, setup.companies)
    order = players[auction.entity_index:] + players[:auction.entity_index]
    state = msgspec.structs.replace(state, money=msgspec.structs.replace(state.money, players=order))
    return state, setup.minors, i


def sr_step(money, sr, move):
    player = str(move["entity"])
    assert player == SR.active_player(money, sr), (move, SR.active_player(money, sr))
    kind = move["type"]
    if kind == "pass":
        return SR.do_pass(money, sr, player, RULES)
    if kind == "bid":
        return SR.do_bid(money, sr, player, move["corporation"], move["price"], RULES)
    if kind == "buy_shares":
        return SR.do_buy(money, sr, player, move["shares"], RULES)
    if kind == "sell_shares":
        return SR.do_sell(money, sr, player, move["shares"], move.get("percent"), RULES)
    if kind == "par":
        return SR.do_par(money, sr, player, move["corporation"], move["share_price"], RULES)
    raise AssertionError(f"unexpected {kind} in a stock round")


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_first_stock_round_replays(path: Path) -> None:
    export = json.loads(path.read_text())
    moves = decisions(export["actions"])
    state, minors, i = run_auction(export, moves)
    money = state.money
    total = sum(money.cash.values())
    money, sr = SR.start(money, minors, "2", RULES)
    while not sr.finished:
        money, sr = sr_step(money, sr, moves[i])
        i += 1
        assert sum(money.cash.values()) == total          # money is only moved, never made
        assert all(v >= 0 for v in money.cash.values())
    # The export's next decision is a company's, in the first operating round.
    assert moves[i]["entity_type"] == "corporation"
    or_corps: list[str] = []
    j = i
    while moves[j]["entity_type"] != "player":
        if moves[j]["entity"] not in or_corps:
            or_corps.append(moves[j]["entity"])
        j += 1
    assert or_corps == money.operating_order()
    # every company operating was started and floated by us, with a president among the players
    for sym in or_corps:
        assert money.corps[sym].floated and money.book.president_of(sym) in money.players
    # the next stock round opens with our priority player (operating rounds keep the order)
    nxt = next(m for m in moves[j:] if m["entity_type"] == "player" and m["type"] != "bankrupt")
    assert str(nxt["entity"]) == SR.priority_after(money, sr)[0]


def test_minor_auction_rules() -> None:
    setup = draw_setup(689309492, COMPANIES, MINORS)
    state = M.initial(["a", "b", "c"], setup)
    money = state.money
    money, sr = SR.start(money, setup.minors[1:], "2", RULES)   # DKR not in play here
    first = setup.minors[1]
    with pytest.raises(RuleError) as err:
        SR.do_bid(money, sr, "a", setup.minors[2], 100, RULES)
    assert err.value.code == "not_first_minor"
    with pytest.raises(RuleError) as err:
        SR.do_bid(money, sr, "a", first, 95, RULES)
    assert err.value.code == "bid_too_low"
    money, sr = SR.do_bid(money, sr, "a", first, 120, RULES)
    assert SR.active_player(money, sr) == "b"
    with pytest.raises(RuleError) as err:
        SR.do_bid(money, sr, "b", first, 127, RULES)
    assert err.value.code == "bid_step"
    money, sr = SR.do_bid(money, sr, "b", first, 145, RULES)
    money, sr = SR.do_pass(money, sr, "c", RULES)
    money, sr = SR.do_pass(money, sr, "a", RULES)
    # b wins at 145: pays it into the minor, par = highest par <= 72 = 70, director's 40 %
    assert money.cash["b"] == 330 - 145 and money.cash[first] == 145
    assert money.market.at(money.corps[first].price).price == 70  # type: ignore[arg-type]
    assert money.book.president_of(first) == "b" and money.corps[first].floated
    # a opened the auction: his turn is over and he is not counted as passed
    assert SR.active_player(money, sr) == "b" and "a" not in sr.passed
    # no selling in the first stock round
    assert "sell_shares" not in SR.available(money, sr, "b", RULES)
    money, sr = SR.do_buy(money, sr, "b", [f"{first}_1"], RULES)
    assert money.cash[first] == 145 + 70 and money.book.percent_of("b", first) == 60
    assert SR.active_player(money, sr) == "c"
    assert S.POOL not in money.book.holders(first)
