"""The end of the advanced game and its score (seed III.3 'Konec hry'); playouts; bots.
Each test names the seed sentence it checks."""

from __future__ import annotations

import random

import pytest

from shared.bots.random_bot import random_action
from shared.bots.rotw_england_wales import KIT
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Deliver, Pass
from shared.games.rotw_england_wales.advanced.actions import PayDividend
from shared.games.rotw_england_wales.advanced.shares import adv
from shared.games.rotw_england_wales.board import DEFAULT_MAP, get_board
from shared.games.rotw_england_wales.setup import new_game
from shared.games.rotw_england_wales.state import OVER, Link

from .adv_helpers import AVON, BRENT, act, adv_game, company_game, random_playout
from .helpers import SEATS


def test_the_seed_scoring_example() -> None:
    """'Sean má 4 akcie v modré společnosti a 1 akcii ve žluté společnosti. Má $ 12,000 v hotovosti
    ... Hodnota modré společnost je 14 a žluté společnosti je 9. Modrá společnost má vydané dva
    dluhopisy ... Celkem = 69,000'"""
    s = adv_game(2)
    blue, yellow = adv(s).companies[1], adv(s).companies[3]
    blue.price, blue.bonds, blue.held = 14, 2, [4, 0]
    yellow.price, yellow.held = 9, [1, 0]
    s.players[0].cash, s.players[1].cash = 12000, 70000
    s.phase = OVER
    res = ENGINE.result(s)
    assert res.scores == [69000, 70000] and res.winners == [1] and res.ranks == [2, 1]


def test_bonds_never_take_a_share_below_zero() -> None:
    """'snižuje to cenu akcií o jedna za každý nesplacený dluhopis (do minimální hodnoty nula)'"""
    s = adv_game(2)
    red = adv(s).companies[0]
    red.price, red.bonds, red.held = 2, 5, [3, 0]
    s.players[0].cash = s.players[1].cash = 0
    s.phase = OVER
    assert ENGINE.result(s).scores == [0, 0]


def test_end_count_default_16_or_the_standard_games_count() -> None:
    """'Základní hodnota je 16. Hráči mohou použít počet prázdných měst ze základní hry, nebo se
    domluvit na určitém počtu na začátku hry.'"""
    assert adv(new_game(SEATS[:3], {"game": "advanced"}, 1)).end_empty == 16
    assert adv(new_game(SEATS[:3], {"game": "advanced", "end_empty_cities": 0}, 1)).end_empty == 11
    assert adv(new_game(SEATS[:4], {"game": "advanced", "end_empty_cities": 20}, 1)).end_empty == 20
    assert get_board(DEFAULT_MAP).empty_city_end[3] == 11


def test_the_game_ends_at_the_end_of_the_round_in_which_the_cities_were_emptied() -> None:
    """'Hra končí na konci kola, ve kterém byl vyprázdněn určitý počet měst.'"""
    s = company_game(3, end=1)
    s.links = [Link(id=0, owner=0, a=AVON, b=BRENT, start_edge=0, hexes=[], exit=0, complete=True)]
    s.cubes = {AVON: ["blue"], BRENT: ["red"]}
    s = act(s, Deliver(city=AVON, color="blue", path=[0]))
    assert s.ending and ENGINE.result(s) is None
    phases = set()
    while ENGINE.result(s) is None:
        phases.add(s.phase)
        fams = ENGINE.legal_actions(s, min(ENGINE.active_seats(s)))
        kinds = {type(f.action) for f in fams}
        s = act(s, PayDividend(amount=0) if PayDividend in kinds else Pass(), min(ENGINE.active_seats(s)))
    assert {"company_turn", "dividend", "share_auction"} <= phases  # the round was played out
    assert s.turn == 1 and ENGINE.result(s).reason == "1 empty cities"


def _invariants(s) -> None:
    """Ten shares a company, in exactly one place each; no negative money; the controller holds
    the most shares; only the seed's phases."""
    for c in adv(s).companies:
        assert c.card + c.available + c.issued + sum(c.held) == 10, c
        assert min(c.card, c.available, c.issued, *c.held) >= 0 and c.cash >= 0 and c.price >= 1
        if c.controller >= 0:
            assert c.held[c.controller] == max(c.held) > 0
        else:
            assert sum(c.held) == 0
        assert c.bonds <= sum(1 for link in s.links if link.complete and adv(s).companies[link.owner] is c)
    assert all(p.cash >= 0 for p in s.players)


def test_invariants_hold_through_random_games() -> None:
    for players, seed in ((2, 11), (3, 12), (5, 13)):
        s, rnd = adv_game(players, seed), random.Random(seed)
        while ENGINE.result(s) is None:
            _invariants(s)
            s, _ = random_playout(s, rnd, limit=1)
        _invariants(s)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_playouts_finish(players: int, seed: int) -> None:
    s, steps = random_playout(adv_game(players, seed), random.Random(seed * 10 + players))
    res = ENGINE.result(s)
    assert res is not None, f"no result after {steps} steps (phase {s.phase})"
    assert len(res.scores) == players and min(res.ranks) == 1


def test_a_random_playout_on_the_england_and_wales_map_finishes() -> None:
    s = new_game(SEATS[:4], {"game": "advanced"}, 3)
    s, steps = random_playout(s, random.Random(3))
    assert ENGINE.result(s) is not None, f"no result after {steps} steps (phase {s.phase})"


def _bot_game(choose) -> None:
    s = adv_game(3, 5)
    rng = random.Random(5)
    for _ in range(3000):
        if ENGINE.result(s) is not None:
            return
        seat = min(ENGINE.active_seats(s))
        s = ENGINE.apply(s, seat, choose(s, seat, rng))
    # the uniform random bot passes often; the game must at least still be legal and going
    assert ENGINE.active_seats(s)


def test_the_generic_random_bot_plays_the_advanced_game_legally() -> None:
    _bot_game(lambda s, seat, rng: random_action(ENGINE, s, seat, rng))


def test_the_title_kit_plays_the_advanced_game_legally() -> None:
    def choose(s, seat, rng):
        seen = KIT.determinize(ENGINE, s, seat, rng)
        assert len(KIT.evaluate(ENGINE, seen, rng)) == 3
        return KIT.greedy(ENGINE, seen, seat, rng)
    _bot_game(choose)


def test_the_kit_player_beats_the_random_bot() -> None:
    """The kit's advanced player (shared/bots/rotw_england_wales/advanced.py), from the seat's
    redacted state, against uniform random moves, seats alternating: it should win nearly all."""
    wins = 0
    games = 6
    for g in range(games):
        rng, heur = random.Random(g), g % 2
        s = adv_game(2, g)
        while ENGINE.result(s) is None:
            seat = min(ENGINE.active_seats(s))
            if seat == heur:
                action = KIT.greedy(ENGINE, ENGINE.redact(s, seat, g), seat, rng)
            else:
                action = random_action(ENGINE, s, seat, rng)
            s = ENGINE.apply(s, seat, action)
        wins += heur in ENGINE.result(s).winners
    assert wins >= games - 1, f"the kit player won {wins} of {games}"
