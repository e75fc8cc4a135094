"""Helpers for the advanced share game tests: a table on the test map, driving the opening
auction, laying a link tile by tile, random playouts over the legal families."""

from __future__ import annotations

import random
from typing import Any

from shared.families import expand
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import Bid, EndBuild, LayTrack, Pass
from shared.games.rotw_england_wales.advanced.actions import StartAuction
from shared.games.rotw_england_wales.advanced.shares import adv, find
from shared.games.rotw_england_wales.setup import new_game
from shared.games.rotw_england_wales.state import State

from .helpers import SEATS, TEST_MAP, hex_distance

# Test map places (pointy-odd-r; edges 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE)
AVON, BRENT, ESK, FAL, CALDER, DOVE, GWENT, HULL = "1,1", "4,1", "7,2", "3,3", "1,4", "5,4", "6,0", "7,5"


def adv_game(n: int = 3, seed: int = 7, end: int = 4, **options: Any) -> State:
    return new_game(SEATS[:n], {"game": "advanced", "end_empty_cities": end, **options}, seed, board_id=TEST_MAP)


def one(s: State) -> int:
    seats = ENGINE.active_seats(s)
    assert len(seats) == 1, seats
    return next(iter(seats))


def act(s: State, action: Any, seat: int | None = None) -> State:
    return ENGINE.apply(s, one(s) if seat is None else seat, action)


def buy(s: State, company: str, amount: int | None = None) -> State:
    """The chooser auctions a share of `company` (available box) and everybody else passes."""
    c = adv(s).companies[find(s, company)]
    s = act(s, StartAuction(company=company, source="available", amount=amount or c.price * 1000))
    while adv(s).auction is not None:
        s = act(s, Pass())
    return s


def finish_opening(s: State) -> State:
    while s.phase == "opening_auction":
        s = act(s, Pass())
    return s


def company_game(n: int = 3, seed: int = 7, companies: tuple[str, ...] = ("red", "blue", "green"),
                 **options: Any) -> State:
    """Opening auction: each chooser in turn buys one share of the next company; then all pass."""
    s = adv_game(n, seed, **options)
    for cid in companies:
        s = buy(s, cid)
    return finish_opening(s)


def lay_towards(s: State, target: str) -> State:
    """Lay the legal tile that heads closest to `target` (test map geometry)."""
    from shared.games.rotw_england_wales.board import get_board
    board = get_board(s.board)
    seat = one(s)
    lays = [a for f in ENGINE.legal_actions(s, seat) if isinstance(f.action, LayTrack) for a in expand(f)]
    assert lays, "no tile can be laid"
    best = min(lays, key=lambda a: (hex_distance(board.neighbour(a.hex, a.exit) or a.hex, target), a.hex, a.entry))
    return ENGINE.apply(s, seat, best)


def lay_path(s: State, tiles: list[tuple[str, int, int]]) -> State:
    for h, entry, exit_ in tiles:
        s = act(s, LayTrack(hex=h, entry=entry, exit=exit_))
    return s


def end_build(s: State) -> State:
    return act(s, EndBuild())


def sample(fam: Any, rnd: random.Random) -> Any:
    members = list(expand(fam))
    return members[rnd.randrange(len(members))]


WEIGHTS = {"deliver": 20.0, "lay_track": 5.0, "pass": 0.3, "start_auction": 2.0, "bid": 0.3}


def random_playout(s: State, rnd: random.Random, limit: int = 20000) -> tuple[State, int]:
    steps = 0
    while ENGINE.result(s) is None and steps < limit:
        seats = sorted(ENGINE.active_seats(s))
        assert seats, f"nobody to act in phase {s.phase}"
        seat = rnd.choice(seats)
        fams = ENGINE.legal_actions(s, seat)
        assert fams, f"seat {seat} must act but has no legal action in phase {s.phase}"
        fam = rnd.choices(fams, weights=[WEIGHTS.get(type(f.action).__struct_config__.tag, 1.0) for f in fams])[0]
        s = ENGINE.apply(s, seat, sample(fam, rnd))
        steps += 1
    return s, steps


__all__ = ["Bid", "SEATS"]
