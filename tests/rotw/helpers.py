"""Helpers for the England & Wales tests: the test map, expanding legal families, playouts."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.board import board_from_path
from shared.games.rotw_england_wales.setup import new_game
from shared.games.rotw_england_wales.state import State

MAPS = Path(__file__).parent / "maps"
TEST_MAP = board_from_path(MAPS / "test_shire.json")
SEATS = ["Ada", "Brunel", "Cole", "Dora", "Eve"]


def game(n: int = 3, seed: int = 7) -> State:
    return new_game(SEATS[:n], {}, seed, board_id=TEST_MAP)


def expand(legal: Any) -> list[Any]:
    """Every concrete action a LegalAction family stands for."""
    base = msgspec.to_builtins(legal.action)
    out: list[dict] = []
    if legal.choices is not None:
        def walk(choice: Any, acc: dict) -> None:
            for i, v in enumerate(choice.values):
                nxt = dict(acc, **{choice.field: v})
                then = choice.then
                sub = None if then is None else (then[i] if len(then) == len(choice.values) else then[0])
                if sub is None:
                    out.append(nxt)
                elif hasattr(sub, "values") and not hasattr(sub, "step"):
                    walk(sub, nxt)
                else:
                    for amount in range(sub.min, sub.max + 1, sub.step):
                        out.append(dict(nxt, **{sub.field: amount}))
        walk(legal.choices, base)
    elif legal.range is not None:
        r = legal.range
        out = [dict(base, **{r.field: v}) for v in range(r.min, r.max + 1, r.step)]
    else:
        out = [base]
    return [msgspec.convert(d, ENGINE.action_type) for d in out]


def sample(legal: Any, rnd: random.Random) -> Any:
    """A random concrete action from one family, walking the trie without expanding it all."""
    base = msgspec.to_builtins(legal.action)
    if legal.range is not None:
        r = legal.range
        base[r.field] = rnd.choice(range(r.min, r.max + 1, r.step))
    choice = legal.choices
    while choice is not None:
        i = rnd.randrange(len(choice.values))
        base[choice.field] = choice.values[i]
        then = choice.then
        sub = None if then is None else (then[i] if len(then) == len(choice.values) else then[0])
        if sub is not None and hasattr(sub, "step") and not hasattr(sub, "values"):
            base[sub.field] = rnd.choice(range(sub.min, sub.max + 1, sub.step))
            sub = None
        choice = sub
    return msgspec.convert(base, ENGINE.action_type)


def act(s: State, seat: int, action: Any) -> State:
    return ENGINE.apply(s, seat, action)


def to_act(s: State) -> int:
    seats = ENGINE.active_seats(s)
    assert len(seats) == 1, seats
    return next(iter(seats))


def playout(s: State, rnd: random.Random, limit: int = 5000, weights: dict[str, float] | None = None) -> tuple[State, int]:
    """Play random legal actions until the game ends; returns (state, steps)."""
    weights = weights or {"deliver": 20.0, "lay_track": 4.0, "pass": 0.05, "issue_share": 0.3, "end_build": 0.3,
                          "urbanize": 0.3, "upgrade_engine": 0.5, "take_card": 0.5, "bid": 0.2}
    steps = 0
    while ENGINE.result(s) is None and steps < limit:
        seat = min(ENGINE.active_seats(s))
        fams = ENGINE.legal_actions(s, seat)
        assert fams, f"seat {seat} must act but has no legal action in phase {s.phase}"
        w = [weights.get(type(f.action).__struct_config__.tag, 1.0) for f in fams]
        fam = rnd.choices(fams, weights=w)[0]
        s = ENGINE.apply(s, seat, sample(fam, rnd))
        steps += 1
    return s, steps


@cache
def _cube(h: str) -> tuple[int, int]:
    col, row = (int(x) for x in h.split(","))
    return col - (row - (row & 1)) // 2, row  # pointy-odd-r -> axial


def hex_distance(a: str, b: str) -> int:
    (q1, r1), (q2, r2) = _cube(a), _cube(b)
    return max(abs(q1 - q2), abs(r1 - r2), abs((q1 + r1) - (q2 + r2)))


def greedy_action(s: State, seat: int, rnd: random.Random) -> Any:
    """A simple sensible player for playouts on the pointy-odd-r test map: deliver when it
    can, otherwise build links towards the nearest other city, upgrade a little, borrow little."""
    from shared.games.rotw_england_wales.board import get_board
    from shared.games.rotw_england_wales.build import tile_cost
    board = get_board(s.board)
    fams = {type(f.action).__struct_config__.tag: f for f in ENGINE.legal_actions(s, seat)}
    p = s.players[seat]
    if "choose_baron" in fams:
        return sample(fams["choose_baron"], rnd)
    if "bid" in fams or s.phase == "auction":
        return sample(fams["pass"], rnd)
    if "allow" in fams:
        return sample(fams[rnd.choice(["allow", "inspect"])], rnd)
    if "deliver" in fams:
        options = expand(fams["deliver"])
        return max(options, key=lambda a: (len(a.path), rnd.random()))
    nearest = _nearest_ends(s.board)
    if "lay_track" in fams:
        options = expand(fams["lay_track"])
        in_build = s.phase == "build"
        def score(a: Any) -> float:
            nxt = board.neighbour(a.hex, a.exit)
            origin = board.neighbour(a.hex, a.entry)
            d = next(dist for dist, e in nearest[nxt] if e != origin) if nxt else 99
            return -d + rnd.random() * 0.5 - (0 if in_build else 0.1 * len(s.track.get(a.hex, ())))
        best = max(options, key=score)
        # Shares are issued by the payment itself (seed 'Vydávání akcií'): borrow a little only.
        affordable = p.cash >= tile_cost(s, seat, best.hex) or p.shares < 4
        if affordable and (in_build or ((p.cash >= 6000 or p.shares < 4) and rnd.random() < 0.7)):
            return best
    if s.phase == "build":
        return sample(fams["end_build"], rnd)
    if "upgrade_engine" in fams and p.engine < 3 and p.cash >= 5000 and rnd.random() < 0.5:
        return sample(fams["upgrade_engine"], rnd)
    if "take_card" in fams and rnd.random() < 0.15:
        return sample(fams["take_card"], rnd)
    return sample(fams["pass"], rnd)


@cache
def _nearest_ends(board_id: str) -> dict[str, list[tuple[int, str]]]:
    from shared.games.rotw_england_wales.board import get_board
    board = get_board(board_id)
    ends = [*board.cities, *board.towns]
    return {h: sorted((hex_distance(h, e), e) for e in ends)[:2] for h in board.terrain}


def greedy_playout(s: State, rnd: random.Random, limit: int = 5000) -> tuple[State, int]:
    steps = 0
    while ENGINE.result(s) is None and steps < limit:
        seat = min(ENGINE.active_seats(s))
        s = ENGINE.apply(s, seat, greedy_action(s, seat, rnd))
        steps += 1
    return s, steps


def choose_barons(s: State) -> State:
    from shared.games.rotw_england_wales.actions import ChooseBaron
    for seat, p in enumerate(s.players):
        if not p.baron:
            s = ENGINE.apply(s, seat, ChooseBaron(baron=p.baron_draw[0]))
    return s


def all_pass_auction(s: State) -> State:
    from shared.games.rotw_england_wales.actions import Pass
    while s.phase == "auction":
        s = ENGINE.apply(s, to_act(s), Pass())
    return s


def start(n: int = 3, seed: int = 7, cash: int = 50000) -> State:
    """A game in its first action round, every player holding `cash`."""
    s = all_pass_auction(choose_barons(game(n, seed)))
    for p in s.players:
        p.cash = cash
    return s


def lay(s: State, hex_: str, entry: int, exit_: int) -> State:
    from shared.games.rotw_england_wales.actions import LayTrack
    return ENGINE.apply(s, to_act(s), LayTrack(hex=hex_, entry=entry, exit=exit_))


def end_build(s: State) -> State:
    from shared.games.rotw_england_wales.actions import EndBuild
    return ENGINE.apply(s, to_act(s), EndBuild())


def forgo(s: State) -> State:
    from shared.games.rotw_england_wales.actions import Pass
    return ENGINE.apply(s, to_act(s), Pass())


def next_turn(s: State) -> State:
    """Everyone passes the rest of this turn's rounds and the next auction."""
    t = s.turn
    while s.turn == t and s.phase == "action":
        s = forgo(s)
    return all_pass_auction(s)


AVON, BRENT, CALDER, DOVE, ESK, FAL, TARN, USK = "1,1", "4,1", "1,4", "5,4", "7,2", "3,3", "3,0", "6,5"
