"""Railways of England and Wales bots: the cheap candidate generation gives exactly what the
plain searches give (link plans from the precomputed universe and the per-track cache, delivery
routes from the per-link-set cache), and the evaluation prefers clearly better positions."""

from __future__ import annotations

import random
from functools import cache

import msgspec
import pytest

from shared.bots import Budget, decide
from shared.bots.rotw_england_wales import plans as P
from shared.bots.rotw_england_wales import value as V
from shared.engine import default_options
from shared.families import expand
from shared.games import get_engine
from shared.games.rotw_england_wales import deliver, end
from shared.games.rotw_england_wales.actions import Deliver
from shared.games.rotw_england_wales.state import ACTION, BUILD, OVER, State, draft

ENGINE = get_engine("rotw-england-wales")


@cache
def heuristic_game(players: int, seed: int) -> tuple[State, ...]:
    """Every position of a game the heuristic plays against itself (networks, deliveries,
    builds in progress, the end), from the seat's redacted view as the bots see it."""
    rng = random.Random(seed)
    state = ENGINE.setup([f"P{i}" for i in range(players)], default_options(ENGINE), seed)
    out = [state]
    while ENGINE.result(state) is None:
        seat = min(ENGINE.active_seats(state))
        move = decide(ENGINE, ENGINE.redact(state, seat, rng.getrandbits(63)), seat, "heuristic", rng, Budget())
        state = ENGINE.apply(state, seat, move)
        out.append(state)
    return tuple(out)


def acting_positions(players: int, seed: int, every: int) -> list[State]:
    return [s for s in heuristic_game(players, seed)[::every] if s.phase in (ACTION, BUILD)]


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (4, 4)])
def test_cached_plans_are_the_plans_a_full_search_finds(players: int, seed: int) -> None:
    """For every seat in positions of a whole game (mid-build ones included), the plans from
    the universe of empty-map links filtered by the track are the plain depth-first search's,
    in the same order; asking again (a cache hit) gives them again."""
    checked = builds = 0
    for s in acting_positions(players, seed, 2):
        left = 4 - (s.build.tiles if s.build is not None else 0)
        tunnel = s.build is not None and s.build.tunnel
        builds += s.phase == BUILD
        for seat in range(players):
            searched = P.search_plans(s, seat, left, tunnel)
            P._CACHE.clear()
            assert P.raw_plans(s, seat) == searched
            assert P.raw_plans(s, seat) == searched
            checked += 1
    assert checked > 50 and builds > 0


def test_plan_ranking_with_a_limit_is_the_head_of_the_full_ranking() -> None:
    for s in acting_positions(2, 21, 9):
        seat = min(ENGINE.active_seats(s))
        for cap in (2000, 9000, 40000):
            full = P.plans(s, seat, cap)
            assert all(p.cost <= cap for p in full)
            top = P.plans(s, seat, cap, limit=40)
            assert [(p.lays, p.cost, p.value) for p in top] == [(p.lays, p.cost, p.value) for p in full[:40]]


def test_cached_deliveries_are_the_engine_deliveries() -> None:
    """Deliveries the bots list (routes cached per set of links) are exactly the engine's legal
    delivery family, at the seat's engine level and at a longer one."""
    compared = 0
    for s in acting_positions(2, 21, 4):
        if s.phase != ACTION:
            continue
        seat = min(ENGINE.active_seats(s))
        legal = deliver.legal(s, seat)
        engine_side = sorted(msgspec.json.encode(a) for a in expand(legal)) if legal is not None else []
        P._ROUTES.clear()
        for _ in range(2):  # fresh, then from the cache
            mine = sorted(msgspec.json.encode(d.action) for d in P.deliveries(s, seat))
            assert mine == engine_side
        longer = s.players[seat].engine + 2
        expected = sorted(msgspec.json.encode(Deliver(city=h, color=c, path=p))
                          for h in s.cubes for c in set(s.cubes[h]) for p in deliver.paths(s, h, c, longer))
        assert sorted(msgspec.json.encode(d.action) for d in P.deliveries(s, seat, longer)) == expected
        compared += bool(engine_side)
    assert compared > 5


def _midgame() -> State:
    game = heuristic_game(2, 21)
    s = next(s for s in game if s.phase == ACTION and s.turn >= 4 and s.round == 1)
    return draft(s)


def _chance(s: State, seat: int = 0) -> float:
    return V.win_chances(s)[seat]


def test_the_evaluation_prefers_a_clearly_better_position() -> None:
    base = _midgame()
    before = _chance(base)
    assert 0.0 < before < 1.0
    better_track = draft(base)
    better_track.players[0].vp += 5
    more_cash = draft(base)
    more_cash.players[0].cash += 10000
    more_shares = draft(base)
    more_shares.players[0].shares += 3  # the same cash, but three more shares to pay for
    rival_ahead = draft(base)
    rival_ahead.players[1].vp += 5
    assert _chance(better_track) > before
    assert _chance(more_cash) > before
    assert _chance(more_shares) < before
    assert _chance(rival_ahead) < before
    # A share issued for cash is a loss while many turns are left (its interest outlasts the cash).
    issued = draft(base)
    issued.players[0].shares += 1
    issued.players[0].cash += 5000
    assert _chance(issued) < before
    chances = V.win_chances(base)
    assert sum(chances) == pytest.approx(1.0)


def test_a_baron_within_reach_is_worth_more_than_one_out_of_reach() -> None:
    base = _midgame()
    base.players[0].baron = "engine"  # Baron of Steam: highest engine level
    base.players[1].engine = 4
    ahead, behind = draft(base), draft(base)
    ahead.players[0].engine = 5
    behind.players[0].engine = 2
    assert V._baron_chance(ahead, 0, V.TWO_PLAYERS) > 0.8 > 0.2 > V._baron_chance(behind, 0, V.TWO_PLAYERS)


def test_turns_left_come_from_the_end_condition() -> None:
    s = _midgame()
    s.round = 1
    s.ending, s.final_turn = True, s.turn + 1
    assert V.turns_left(s) == pytest.approx(2.0)  # this turn whole, then one more
    s.round = 3
    assert V.turns_left(s) == pytest.approx(1 + 1 / 3)
    s.ending = False
    fewer = draft(s)
    fewer.empty = [*s.empty, "x1", "x2"]
    assert V.turns_left(fewer) == pytest.approx(V.turns_left(s) - 1.0)  # two markers a turn


def test_the_projection_of_a_finished_game_is_its_score() -> None:
    final = heuristic_game(2, 21)[-1]
    assert final.phase == OVER
    totals = [row["total"] for row in end.breakdown(final)]
    assert V.projected_scores(final) == totals
    assert V.turns_left(final) == 0.0


def test_delivery_prospect_counts_the_best_cubes_up_to_the_rounds() -> None:
    s = next(s for s in acting_positions(2, 21, 1) if s.turn >= 4 and P.deliveries(s, 0))
    gains: dict[tuple[str, str], int] = {}
    for d in P.deliveries(s, 0):
        key = (d.action.city, d.action.color)
        gains[key] = max(gains.get(key, 0), d.mine)
    per_cube = sorted((g for (h, c), g in gains.items() for _ in range(s.cubes[h].count(c))), reverse=True)
    assert V.delivery_prospect(s, 0, 1.0) == per_cube[0]
    assert V.delivery_prospect(s, 0, 100.0) == sum(per_cube)
    assert V.delivery_prospect(s, 0, 0.5) == pytest.approx(0.5 * per_cube[0])
