"""The best-route search equals an exhaustive search built only on the route validator.

Boards are grown by random legal lays (our own track rules) around one corporation's token on
the 18Ireland map; the exhaustive side enumerates stop sequences and hex sequences blindly and
keeps what `run_routes` accepts.
"""

from __future__ import annotations

import itertools
import random

import pytest

from shared.games.core18xx.board import autoroute as A
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as T
from shared.games.core18xx.board.state import BoardError
from shared.games.g18ireland.map import PHASE_COLORS, TRACK_RULES, board_map

M = board_map()
RULES = R.RouteRules("hexes", "broad", True)


def grow(seed: int, corp: str, home: tuple[str, int], lays: int, rival: tuple[str, str, int] | None):
    rng = random.Random(seed)
    b = B.place_token(M, B.initial(M), corp, *home)
    if rival:
        b = B.place_token(M, b, rival[0], rival[1], rival[2])
    colors = PHASE_COLORS["8"]
    for _ in range(lays):
        opts = T.legal_lays(M, b, corp, colors, T.LaySlot(True, True), rules=TRACK_RULES)
        if not opts:
            break
        x = rng.choice(opts)
        b = B.lay(M, b, x.hex, x.tile, x.rotation)
    return b


def hex_walks(b, start: str, end: str, max_edges: int, hexes: set[str]):
    if start == end:
        yield [start]
    stack = [[start]]
    while stack:
        walk = stack.pop()
        if len(walk) - 1 >= max_edges:
            continue
        for e in range(6):
            nxt = B.linked(M, b, walk[-1], e)
            if nxt is None or nxt not in hexes or nxt in walk:
                continue
            w = walk + [nxt]
            if nxt == end:
                yield w
            stack.append(w)


def exhaustive_single(b, ctx, max_edges: int):
    g = R.run_graph(M, b)
    hexes = set(g.tiles)
    stops = [R.signature(g, (h, i)) for h in sorted(hexes) for i, n in enumerate(g.tiles[h].tile.nodes) if n.is_stop]
    found = {}
    train = {"t": R.Train("t", max_edges)}

    def extend(seq: list[str], conns: list[list[str]], edges: int):
        if len(seq) >= 2:
            try:
                res, total = R.run_routes(M, b, ctx, train, [R.RouteSpec("t", conns, seq)])
            except BoardError:
                res = None
            if res is not None:
                found[(tuple(sorted(seq)), tuple(tuple(c) for c in conns))] = (seq, conns, total)
        if len(seq) >= 5:
            return
        last = seq[-1].rpartition("-")[0]
        for s in stops:
            if s in seq:
                continue
            h = s.rpartition("-")[0]
            for w in hex_walks(b, last, h, max_edges - edges, hexes):
                extend(seq + [s], conns + [w], edges + len(w) - 1)

    for s in stops:
        extend([s], [], 0)
    return list(found.values())


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_best_equals_exhaustive(seed):
    corp = "DER"
    b = grow(seed, corp, ("I9", 0), 16, ("DKR", "I11", 0) if seed % 2 else None)
    ctx = R.RouteContext(corp, PHASE_COLORS["8"], RULES)
    trains = [R.Train("a", 4), R.Train("b", 2)]
    singles = exhaustive_single(b, ctx, 4)
    assert singles, "the grown board should have at least one route"
    tdict = {t.name: t for t in trains}
    best = 0
    for x in singles:  # one train alone
        best = max(best, x[2])
    for x, y in itertools.permutations(singles, 2):
        try:
            _, total = R.run_routes(M, b, ctx, tdict, [R.RouteSpec("a", x[1], x[0]), R.RouteSpec("b", y[1], y[0])])
        except BoardError:
            continue
        best = max(best, total)
    # the same single routes, as sets of stops
    cands, complete = A.enumerate_routes(M, b, ctx, 4)
    g = R.run_graph(M, b)
    assert complete
    assert {frozenset(R.signature(g, s) for s in c.stops) for c in cands} == {frozenset(x[0]) for x in singles}
    got = A.best_routes(M, b, ctx, trains)
    assert got.exact
    assert got.total == best
    specs = [R.RouteSpec(r.train, [list(c) for c in r.connections], list(r.stops)) for r in got.routes]
    assert R.run_routes(M, b, ctx, tdict, specs)[1] == got.total


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_bounded_choice_keeps_a_valid_set(seed):
    """`tries` bounds the choice of one route per train: cut short, the search answers the best
    set it found, which runs as it says, pays no more than the exact set, and is not called
    exact; with room enough it is the exact answer."""
    corp = "DER"
    b = grow(seed, corp, ("I9", 0), 16, ("DKR", "I11", 0) if seed % 2 else None)
    ctx = R.RouteContext(corp, PHASE_COLORS["8"], RULES)
    trains = [R.Train("a", 4), R.Train("b", 2), R.Train("c", 2)]
    tdict = {t.name: t for t in trains}
    exact = A.best_routes(M, b, ctx, trains)
    assert exact.exact and A.best_routes(M, b, ctx, trains, tries=10**9) == exact
    for tries in (1, 2, 5):
        got = A.best_routes(M, b, ctx, trains, tries=tries)
        assert not got.exact and got.total <= exact.total
        assert got.routes and R.run_routes(M, b, ctx, tdict, got.specs())[1] == got.total


@pytest.mark.parametrize("seed", [5, 6])
def test_stop_counting_routes_equal_exhaustive(seed):
    """N trains (count stops, any length of track): the single routes found with at most three
    stops and six hex edges are exactly those the validator accepts from a blind search."""
    corp = "DER"
    b = grow(seed, corp, ("I9", 0), 16, ("DKR", "I11", 0))
    ctx = R.RouteContext(corp, PHASE_COLORS["8"], R.RouteRules("stops", "broad", False))
    g = R.run_graph(M, b)
    cands, complete = A.enumerate_routes(M, b, ctx, 3)
    assert complete
    found = {frozenset(R.signature(g, s) for s in c.stops) for c in cands if c.distance <= 6}
    hexes = set(g.tiles)
    stops = [R.signature(g, (h, i)) for h in sorted(hexes) for i, n in enumerate(g.tiles[h].tile.nodes) if n.is_stop]
    brute = set()
    train = {"t": R.Train("t", 3)}

    def extend(seq, conns, edges):
        if len(seq) >= 2:
            try:
                R.run_routes(M, b, ctx, train, [R.RouteSpec("t", conns, seq)])
                brute.add(frozenset(seq))
            except BoardError:
                pass
        if len(seq) >= 3:
            return
        last = seq[-1].rpartition("-")[0]
        for s in stops:
            if s not in seq:
                for w in hex_walks(b, last, s.rpartition("-")[0], 6 - edges, hexes):
                    extend(seq + [s], conns + [w], edges + len(w) - 1)

    for s in stops:
        extend([s], [], 0)
    assert brute and found == brute
