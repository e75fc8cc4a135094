"""The concession auction as pure functions: the real exports' auctions replay move by move
(who acts, what is bought, the order that follows), and hand-built positions for the
version_1 blind auction and the edges of both."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from shared.engine import RuleError
from shared.games.core18xx.export_log import live_actions
from shared.games.g1841 import concessions as K
from shared.games.g1841 import data as D

from tests.exports import export_paths

EXPORTS = export_paths("1841")
CONCESSIONS = [c["sym"] for c in D.entities("default")["companies"]]


@pytest.mark.skipif(not EXPORTS, reason="1841 exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_the_real_auctions_replay_move_by_move(path: Path) -> None:
    export = json.loads(path.read_text())
    assert not export["settings"].get("optional_rules")
    ids = [str(p["id"]) for p in export["players"]]
    start = D.entities("default")["starting_cash"][str(len(ids))]
    a = K.new_auction(ids, {p: start for p in ids}, CONCESSIONS)
    moves = [x for x in live_actions(export["actions"]) if x["type"] != "message"]
    i = 0
    while not a.done:
        move = moves[i]
        i += 1
        player = str(move["entity"])
        assert K.to_act(a) == player, (move, K.to_act(a))
        assert all(not K.moves(a, p) for p in ids if p != player)
        listed = K.moves(a, player)
        if move["type"] == "pass":
            assert K.Move("pass") in listed
        else:
            assert any(m.kind == "bid" and m.concession == move["company"] and m.low <= move["price"] <= m.high
                       for m in listed), (move, listed)
        a = K.bid(a, player, move["company"], move["price"]) if move["type"] == "bid" else K.pass_(a, player)
    # the stock round opens with the player the least-cash order puts first
    assert moves[i]["type"] not in ("bid", "pass") and str(moves[i]["entity"]) == a.players[0]
    assert K.to_act(a) is None
    assert sum(a.cash.values()) + sum(a.prices.values()) == start * len(ids)
    assert set(a.owners) | set(K.unsold(a)) == set(CONCESSIONS)


def auction(cash: dict[str, int], concessions: list[str] | None = None, blind: bool = False) -> K.Auction:
    return K.new_auction(list(cash), cash, concessions or ["Bayard", "X", "Y"], blind)


def test_a_nomination_asks_only_those_who_could_outbid_it_from_the_nominators_left() -> None:
    a = auction({"A": 100, "B": 30, "C": 200, "D": 31})
    a = K.bid(a, "A", "X", 30)
    assert K.to_act(a) == "C"                  # B cannot top 30; C comes before D
    assert K.min_bid(a) == 35 and K.max_bid(a, "C") == 200
    assert K.moves(a, "C") == [K.Move("bid", "X", 35, 200), K.Move("pass")] and K.moves(a, "A") == []
    a = K.bid(a, "C", "X", 35)
    assert K.to_act(a) == "D"                  # D's placeholder is now the lowest bid
    a = K.pass_(a, "D")
    assert K.to_act(a) == "A"
    a = K.pass_(a, "A")
    assert a.owners == {"X": "C"} and a.prices == {"X": 35} and a.cash["C"] == 165
    assert K.to_act(a) == "B"                  # the turn passes to the nominator's left


def test_a_nomination_nobody_can_top_waits_for_its_nominator() -> None:
    a = auction({"A": 100, "B": 20, "C": 20})
    a = K.bid(a, "A", "X", 20)
    assert K.to_act(a) == "A" and a.auctioning == "X"
    # a raise settles nothing (18xx.games resolves only on a drop-out)
    a = K.bid(a, "A", "X", 25)
    assert K.to_act(a) == "A" and a.owners == {}
    # dropping out lapses the nomination; it is still his turn and X is still for sale
    a = K.pass_(a, "A")
    assert a.auctioning is None and K.to_act(a) == "A" and "X" in a.unsold and a.cash["A"] == 100


def test_everyone_passing_ends_it_and_orders_by_least_cash() -> None:
    a = auction({"A": 100, "B": 100, "C": 100, "D": 100}, ["Bayard", "X", "Y", "Z"])
    a = K.bid(a, "A", "Y", 20)
    for p in ("B", "C", "D"):
        a = K.pass_(a, p)
    a = K.bid(a, "B", "X", 20)                  # B's turn (A's left); B bought nothing yet
    for p in ("C", "D", "A"):
        a = K.pass_(a, p)
    assert a.owners == {"Y": "A", "X": "B"}
    for p in ("C", "D", "A"):
        a = K.pass_(a, p)
    assert not a.done
    a = K.pass_(a, "B")
    # A and B have 80 (B holds the lower-numbered X); C and D 100, holding nothing: former order
    assert a.done and a.players == ("B", "A", "C", "D") and K.unsold(a) == ("Bayard", "Z")


def test_a_bid_after_passing_brings_the_player_back() -> None:
    a = auction({"A": 100, "B": 100, "C": 100})
    a = K.pass_(a, "A")
    a = K.bid(a, "B", "X", 20)
    a = K.bid(a, "C", "X", 25)
    a = K.bid(a, "A", "X", 30)
    assert "A" not in a.passed
    a = K.pass_(K.pass_(a, "B"), "C")
    assert a.owners == {"X": "A"} and K.to_act(a) == "C"


@pytest.mark.parametrize(("moves", "code"), [
    ([("bid", "B", "X", 20)], "not_your_turn"),
    ([("bid", "A", "X", 15)], "bad_bid"),
    ([("bid", "A", "X", 105)], "bad_bid"),
    ([("bid", "A", "Q", 20)], "not_for_sale"),
    ([("bid", "A", "X", 20), ("bid", "B", "Y", 40)], "wrong_concession"),
    ([("bid", "A", "X", 20), ("bid", "B", "X", 24)], "bad_bid"),
    ([("blind", "A", [20, 0, 0])], "not_blind"),
])
def test_bad_moves_are_refused(moves: list[tuple], code: str) -> None:
    a = auction({"A": 100, "B": 100, "C": 100})
    *ok, (kind, player, *args) = moves
    for m in ok:
        a = K.bid(a, m[1], m[2], m[3])
    with pytest.raises(RuleError) as err:
        K.bid(a, player, *args) if kind == "bid" else K.blind_bid(a, player, *args)
    assert err.value.code == code


def test_version_1_blind_bids_then_ties_go_to_a_waterfall_in_total_bid_order() -> None:
    a = auction({"A": 500, "B": 500, "C": 500}, blind=True)
    assert K.to_act(a) == "A" and K.moves(a, "A") == [K.Move("blind_bid", None, 20, 500)]
    a = K.blind_bid(a, "A", [50, 0, 30])       # total 80
    a = K.blind_bid(a, "B", [50, 40, 0])       # total 90
    assert K.to_act(a) == "C" and not a.owners
    a = K.blind_bid(a, "C", [0, 40, 20])       # total 60
    # Y: A's 30 is the only highest bid; Bayard and X are tied
    assert a.owners == {"Y": "A"} and a.prices == {"Y": 30}
    assert a.players == ("B", "A", "C")        # by total bid, highest first
    assert a.auctioning == "Bayard" and K.to_act(a) == "B"   # tied: the first in the new order
    a = K.bid(a, "B", "Bayard", 55)
    assert K.to_act(a) == "A"
    a = K.pass_(a, "A")
    assert a.owners["Bayard"] == "B" and a.auctioning == "X" and K.to_act(a) == "B"
    assert K.max_bid(a, "B") == 500 - 55
    a = K.pass_(a, "B")
    assert a.done and a.owners["X"] == "C" and a.prices["X"] == 40
    assert a.players == ("B", "A", "C") and K.to_act(a) is None
    assert a.cash == {"A": 470, "B": 445, "C": 460}


def test_version_1_ties_in_the_order_break_on_the_bids_then_the_later_seat() -> None:
    a = auction({"A": 300, "B": 300, "C": 300, "D": 300}, ["Bayard", "X", "Y"], blind=True)
    a = K.blind_bid(a, "A", [20, 40, 0])       # 60
    a = K.blind_bid(a, "B", [40, 20, 0])       # 60, higher first bid: before A
    a = K.blind_bid(a, "C", [0, 0, 0])         # 0
    a = K.blind_bid(a, "D", [0, 0, 0])         # 0, the later seat: before C
    assert a.players == ("B", "A", "D", "C")
    assert a.done and a.owners == {"Bayard": "B", "X": "A"} and K.unsold(a) == ("Y",)


def test_version_1_open_bids_cap_a_raise() -> None:
    a = auction({"A": 100, "B": 100, "C": 100}, blind=True)
    a = K.blind_bid(a, "A", [60, 40, 0])
    a = K.blind_bid(a, "B", [60, 40, 0])
    a = K.blind_bid(a, "C", [0, 0, 0])
    # equal totals and bids: the later seat (B) first; both concessions tied
    assert a.players == ("B", "A", "C") and a.auctioning == "Bayard" and K.to_act(a) == "B"
    assert K.max_bid(a, "B") == 100 - 100 + 60
    assert K.moves(a, "B") == [K.Move("pass")]     # cannot reach the least raise: he can only drop out
    with pytest.raises(RuleError, match="from 65 to 60"):
        K.bid(a, "B", "Bayard", 65)
    a = K.pass_(a, "B")
    assert a.owners == {"Bayard": "A"} and a.auctioning == "X" and K.to_act(a) == "B"
    assert K.max_bid(a, "B") == 100 and K.max_bid(a, "A") == 40 - 40 + 40


@pytest.mark.parametrize(("bids", "message"), [
    ([20, 0], "one bid per concession"),
    ([10, 0, 0], "0 or at least 20"),
    ([-5, 0, 0], "0 or at least 20"),
    ([60, 50, 0], "more than"),
])
def test_bad_blind_bids_are_refused(bids: list[int], message: str) -> None:
    a = auction({"A": 100, "B": 100, "C": 100}, blind=True)
    with pytest.raises(RuleError, match=message):
        K.blind_bid(a, "A", bids)
    with pytest.raises(RuleError, match="sealed bids first"):
        K.pass_(a, "A")
    with pytest.raises(RuleError, match="not_your_turn|acts now"):
        K.blind_bid(a, "B", [0, 0, 0])


@pytest.mark.parametrize("blind", [False, True])
@pytest.mark.parametrize("players", [3, 5, 8])
def test_random_auctions_played_from_the_listed_moves_always_end(blind: bool, players: int) -> None:
    for game in range(30):
        rng = random.Random(game * 10 + players)
        names = [f"P{i}" for i in range(players)]
        cash = {p: rng.choice([15, 40, 90, 420, 1120]) for p in names}
        a = K.new_auction(names, cash, CONCESSIONS, blind)
        for _ in range(5000):
            if a.done:
                break
            player = K.to_act(a)
            assert player is not None
            move = rng.choice(K.moves(a, player))
            if move.kind == "pass":
                a = K.pass_(a, player)
            elif move.kind == "bid":
                assert move.concession is not None
                a = K.bid(a, player, move.concession, rng.randint(move.low, min(move.high, move.low + 30)))
            else:
                left, bids = a.cash[player], []
                for _c in CONCESSIONS:
                    b = rng.choice([0, 0, 20, 25, 50, 80])
                    b = b if b <= left else 0
                    left -= b
                    bids.append(b)
                a = K.blind_bid(a, player, bids)
        assert a.done and K.to_act(a) is None
        assert sum(a.cash.values()) + sum(a.prices.values()) == sum(cash.values())
        assert all(a.cash[p] >= 0 for p in names)
        assert set(a.owners) | set(K.unsold(a)) == set(CONCESSIONS) and not set(a.owners) & set(K.unsold(a))
        assert sorted(a.players) == sorted(names)
