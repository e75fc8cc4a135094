"""Set-up, barons and the first-player auction (sources: README; seed = 001 seed document)."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Bid, ChooseBaron, IssueShare, Pass
from shared.games.rotw_england_wales.board import get_board

from .helpers import TEST_MAP, choose_barons, game, to_act


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_goods_drawn_into_each_city_by_its_printed_count(players: int) -> None:
    # seed "Začátek hry": cubes are placed randomly into the cities; counts printed on the map;
    # with 2-3 players one cube fewer per city, never below one (BOT, README 'Set-up')
    s = game(players)
    board = get_board(TEST_MAP)
    assert any(city.goods == 1 for city in board.cities.values())  # the minimum is exercised
    for h, city in board.cities.items():
        want = max(1, city.goods - 1) if players <= 3 and city.goods else city.goods
        assert len(s.cubes.get(h, [])) == want, (players, city.name)
    drawn = sum(len(c) for c in s.cubes.values())
    assert sum(s.bag.values()) == sum(board.goods_bag.values()) - drawn


def test_setup_is_replayable_from_the_seed() -> None:
    a, b, c = game(4, seed=99), game(4, seed=99), game(4, seed=100)
    assert msgspec.msgpack.encode(a) == msgspec.msgpack.encode(b)
    assert msgspec.msgpack.encode(a) != msgspec.msgpack.encode(c)


def test_each_player_draws_two_barons_and_keeps_one_secretly() -> None:
    # seed "Začátek hry": each player draws two baron cards and keeps one face down
    s = game(3)
    assert ENGINE.active_seats(s) == frozenset({0, 1, 2})  # simultaneous choice
    drawn = [b for p in s.players for b in p.baron_draw]
    assert all(len(p.baron_draw) == 2 for p in s.players) and len(set(drawn)) == 6
    other = s.players[1].baron_draw[0]
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, 0, ChooseBaron(baron=other))
    assert err.value.code == "bad_baron" and other not in err.value.message
    s1 = ENGINE.apply(s, 0, ChooseBaron(baron=s.players[0].baron_draw[1]))
    assert s1.players[0].baron == s.players[0].baron_draw[1]
    assert ENGINE.active_seats(s1) == frozenset({1, 2})
    assert ENGINE.legal_actions(s1, 0) == []
    s2 = choose_barons(s1)  # seats 1 and 2 choose too (seat 0 is skipped: already chosen)
    assert s2.phase == "auction"


def test_auction_winner_pays_and_plays_first() -> None:
    # base rules (scribd RotW Great Britain summary; BGA help "Traditional"): bids from $1,000,
    # clockwise, passing drops out, the winner pays and is first player
    s = choose_barons(game(3))
    first = s.first
    assert to_act(s) == first
    s.players[first].cash = 5000
    s = ENGINE.apply(s, first, Bid(amount=1000))
    nxt = to_act(s)
    assert nxt == (first + 1) % 3
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, nxt, Bid(amount=1000))
    assert err.value.code == "bid_too_low"
    s = ENGINE.apply(s, nxt, Pass())
    s = ENGINE.apply(s, to_act(s), Pass())
    assert s.phase == "action" and s.first == first and s.order[0] == first
    assert s.players[first].cash == 4000


def test_all_pass_gives_the_marker_to_the_left_of_the_first_player() -> None:
    # BGA help "Traditional": if all pass, the player to the left of the previous First Player
    s = choose_barons(game(4))
    first = s.first
    while s.phase == "auction":
        s = ENGINE.apply(s, to_act(s), Pass())
    assert s.first == (first + 1) % 4
    assert s.order == [(first + 1 + i) % 4 for i in range(4)]


def test_bid_cannot_exceed_cash() -> None:
    s = choose_barons(game(2))
    seat = to_act(s)
    fams = ENGINE.legal_actions(s, seat)
    # $0: no bid offered, and no share either - a bid is no payment yet (seed "Vydávání akcií")
    assert [type(f.action).__name__ for f in fams] == ["Pass"]
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, seat, Bid(amount=1000))
    assert err.value.code == "not_enough_cash"
    with pytest.raises(RuleError) as err:
        ENGINE.apply(s, seat, IssueShare())
    assert err.value.code == "no_payment_due"


def _ftp(n: int = 4):
    from shared.games.rotw_england_wales.setup import new_game

    from .helpers import SEATS, TEST_MAP
    s = choose_barons(new_game(SEATS[:n], {"bidding": "first_to_pass"}, 3, board_id=TEST_MAP))
    for p in s.players:
        p.cash = 20000
    return s


def test_first_to_pass_passers_pay_half_and_play_in_reverse_order() -> None:
    # BGA option "First to pass": winner pays in full and plays first; each passer pays half
    # their bid rounded up; the first to pass plays last, the second second-to-last, ...
    s = _ftp(4)
    f = s.first
    p1, p2, p3 = (f + 1) % 4, (f + 2) % 4, (f + 3) % 4
    s = ENGINE.apply(s, f, Pass())  # f passes first, having bid nothing
    s = ENGINE.apply(s, p1, Bid(amount=1000))
    s = ENGINE.apply(s, p2, Bid(amount=3000))
    s = ENGINE.apply(s, p3, Pass())
    s = ENGINE.apply(s, p1, Pass())  # p1's last bid was $1,000: pays $1,000 (half, rounded up)
    assert s.phase == "action" and s.first == p2
    assert s.order == [p2, p1, p3, f]
    cash = [p.cash for p in s.players]
    assert (cash[p2], cash[p1], cash[p3], cash[f]) == (17000, 19000, 20000, 20000)


def test_first_to_pass_all_pass_gives_the_marker_to_the_last_passer() -> None:
    s = _ftp(3)
    order = []
    while s.phase == "auction":
        seat = to_act(s)
        order.append(seat)
        s = ENGINE.apply(s, seat, Pass())
    assert s.first == order[-1] and s.order == list(reversed(order))


def test_bidding_option_is_validated() -> None:
    from shared.games.rotw_england_wales.setup import new_game

    from .helpers import SEATS, TEST_MAP
    with pytest.raises(RuleError) as err:
        new_game(SEATS[:3], {"bidding": "dutch"}, 1, board_id=TEST_MAP)
    assert err.value.code == "bad_option"
    assert ENGINE.default_options() == {"game": "standard", "bidding": "traditional", "end_empty_cities": 16}
