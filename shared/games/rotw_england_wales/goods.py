"""Goods cubes: the bag, drawing into cities, city colours, empty-city markers."""

from __future__ import annotations

from .board import Board, get_board
from .state import State


def draw_cube(s: State) -> str | None:
    """Draw one cube from the bag with the table's RNG (None if the bag is empty)."""
    total = sum(s.bag.values())
    if total == 0:
        return None
    r, s.rng = s.rng.below(total)
    for colour in sorted(s.bag):
        n = s.bag[colour]
        if r < n:
            s.bag[colour] = n - 1
            return colour
        r -= n
    raise AssertionError("unreachable")


def add_cubes(s: State, hex_: str, n: int) -> int:
    got = 0
    cubes = s.cubes.setdefault(hex_, [])
    for _ in range(n):
        c = draw_cube(s)
        if c is None:
            break
        cubes.append(c)
        got += 1
    cubes.sort()
    return got


def starting_goods(printed: int, players: int) -> int:
    """Cubes a city starts with: the printed number, one fewer with two or three players but
    never below one (BOT's set-up for 2-3 players; README 'Set-up')."""
    return max(1, printed - 1) if printed and players <= 3 else printed


def fill_cities(s: State, board: Board) -> None:
    """Set-up: the bag, then every printed city's starting goods drawn from it at random."""
    s.bag = dict(board.goods_bag)
    for h in sorted(board.cities):
        add_cubes(s, h, starting_goods(board.cities[h].goods, len(s.players)))


def city_colour(s: State, board: Board, hex_: str) -> str | None:
    """Colour of the city on `hex_` (printed or urbanized), None if it is not a city."""
    if hex_ in s.urban:  # an urbanized town or grey city takes its new tile's colour
        return s.urban[hex_]
    c = board.cities.get(hex_)
    return c.color if c is not None else None


def is_endpoint(s: State, board: Board, hex_: str) -> bool:
    return hex_ in board.cities or hex_ in board.towns


def city_name(s: State, board: Board, hex_: str) -> str:
    c = board.cities.get(hex_)
    if c is not None:
        return c.name
    return board.towns.get(hex_, hex_)


def urbanizable(s: State, board: Board) -> list[str]:
    """Towns and grey cities not yet urbanized (base rules: new city tiles go on towns)."""
    grey = [h for h, c in board.cities.items() if c.color == "grey"]
    return sorted(h for h in [*board.towns, *grey] if h not in s.urban)


def all_cities(s: State) -> list[str]:
    board = get_board(s.board)
    return sorted([*board.cities, *s.urban])
