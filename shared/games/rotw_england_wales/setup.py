"""Set-up: goods into cities, operations display, two barons per seat, random first player."""

from __future__ import annotations

from typing import Any

from shared.engine import RuleError

from . import rules
from .advanced.setup import setup_advanced
from .board import DEFAULT_MAP, MapError, get_board
from .goods import fill_cities
from .rng import make_rng
from .state import BARON, Player, State


def new_game(seats: list[str], options: dict[str, Any], seed: int, board_id: str | None = None) -> State:
    n = len(seats)
    if not 2 <= n <= 5:
        raise RuleError("bad_player_count", "England & Wales is played by 2 to 5 players")
    try:
        # Table options never name a map: a file path from a user must not reach the loader.
        board = get_board(board_id or DEFAULT_MAP)
    except MapError as exc:
        raise RuleError("bad_map", str(exc)) from None
    bidding = options.get("bidding", "traditional")
    if bidding not in ("traditional", "first_to_pass"):
        raise RuleError("bad_option", "bidding must be 'traditional' or 'first_to_pass'")
    s = State(board=board.id, bidding=bidding, players=[Player(name=name) for name in seats],
              rng=make_rng(seed), phase=BARON)
    game = options.get("game", "standard")
    if game not in ("standard", "advanced"):
        raise RuleError("bad_option", "game must be 'standard' or 'advanced'")
    if game == "advanced":
        end_empty = options.get("end_empty_cities", 16)
        if type(end_empty) is not int or end_empty < 0:
            raise RuleError("bad_option", "end_empty_cities must be 0 (the standard game's count) or more")
        setup_advanced(s, board, min(end_empty, len(board.cities)))  # a small map cannot empty more cities
        return s
    fill_cities(s, board)
    s.new_cities = list(board.new_cities)
    data = rules.card_data()
    deck = [f"{c['kind']}#{i}" for c in data["operations"] for i in range(1, c["count"] + 1)]
    deck, s.rng = s.rng.shuffled(deck)
    k = rules.display_size(n)
    s.display, s.deck = deck[:k], deck[k:]
    barons, s.rng = s.rng.shuffled([b["id"] for b in data["barons"]])
    for i, p in enumerate(s.players):
        p.baron_draw = sorted(barons[2 * i: 2 * i + 2])
    s.baron_pool = sorted(barons[2 * n:])
    s.first, s.rng = s.rng.below(n)
    s.log.append(f"{seats[s.first]} holds the first-player marker")
    return s
