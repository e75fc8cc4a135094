"""Bad input gets a BoardError with a code (the engine turns it into a RuleError), never
another exception: random garbage for lays, tokens and routes."""

import random

import pytest

from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import tokens as K
from shared.games.core18xx.board import track as T
from shared.games.core18xx.board.state import BoardError
from shared.games.g18ireland.map import PHASE_COLORS, ROUTE_RULES, TRACK_RULES, board_map
from shared.games.g18ireland.map import lay_slot as MAP_LAY_SLOT

M = board_map()


def board():
    b = B.place_token(M, B.initial(M), "DER", "I9", 0)
    b = B.lay(M, b, "I9", "IR2", 0)
    return B.lay(M, b, "H8", "9", 2)


HEXES = ["I9", "H8", "Z99", "", "I", "9", "a-1", "G-1", "F0", "I11", "H10", "AZ3"]
TILES = ["7", "IR2", "IR7", "60", "IM", "nope", "", "IR2-0", "5"]
NODES = ["I9-1", "I9-0", "H8-0", "I11-0", "I11-9", "X-1", "I9-", "-1", "I9-a", "", "G7-0"]


@pytest.mark.parametrize("seed", range(3))
def test_garbage_lays_raise_board_errors(seed):
    rng = random.Random(seed)
    b = board()
    slot = MAP_LAY_SLOT(0, False)
    assert slot is not None
    for _ in range(150):
        coord, tile, rot = rng.choice(HEXES), rng.choice(TILES), rng.choice([0, 3, 5, 6, -1, 99])
        try:
            T.check_lay(M, b, "DER", PHASE_COLORS["4"], slot, coord, tile, rot,
                        rules=TRACK_RULES)
        except BoardError as e:
            assert e.code and e.message


@pytest.mark.parametrize("seed", range(3))
def test_garbage_routes_and_tokens_raise_board_errors(seed):
    rng = random.Random(seed)
    b = board()
    ctx = R.RouteContext("DER", PHASE_COLORS["4"], ROUTE_RULES)
    trains = {"2H-0": R.Train("2H-0", 2)}
    for _ in range(200):
        n = rng.randint(0, 4)
        nodes = [rng.choice(NODES) for _ in range(n)]
        conns = [[rng.choice(HEXES) for _ in range(rng.randint(0, 3))] for _ in range(rng.randint(0, 3))]
        train = rng.choice(["2H-0", "9H-0", ""])
        try:
            R.run_routes(M, b, ctx, trains, [R.RouteSpec(train, conns, nodes)])
        except BoardError as e:
            assert e.code
        try:
            K.place(M, b, "DER", rng.choice(HEXES), rng.randint(-1, 3), K.legal_tokens(M, b, "DER", 40))
        except BoardError as e:
            assert e.code
        try:
            B.find_node(M, b, rng.choice(NODES))
        except BoardError as e:
            assert e.code
