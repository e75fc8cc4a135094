"""Hex coordinates as 18xx.games writes them ("D4", "G-1") and the geometry around them.

A coordinate is a letter column plus a number row (with `AXES` x=letter, y=number, which is
what 18Ireland and 1841 use). They map to "doubled" coordinates: on a flat-topped map
neighbours in one column differ by 2 in y, neighbours in adjacent columns by 1. Edges are
numbered 0..5 the way 18xx.games numbers them, so a tile rotation `r` turns edge `e` into
`(e + r) % 6` and a hex's edge `e` faces its neighbour's edge `(e + 3) % 6`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

Layout = Literal["flat", "pointy"]

# (dx, dy) in doubled coordinates -> edge number.
_DIRECTIONS: dict[str, dict[tuple[int, int], int]] = {
    # flat-topped hexes: edge 0 is the bottom side, then clockwise-from-the-viewer's-left.
    "flat": {(0, 2): 0, (-1, 1): 1, (-1, -1): 2, (0, -2): 3, (1, -1): 4, (1, 1): 5},
    "pointy": {(-1, 1): 0, (-2, 0): 1, (-1, -1): 2, (1, -1): 3, (2, 0): 4, (1, 1): 5},
}
_OFFSETS: dict[str, dict[int, tuple[int, int]]] = {
    layout: {edge: d for d, edge in dirs.items()} for layout, dirs in _DIRECTIONS.items()
}

_LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + ["A" + chr(c) for c in range(ord("A"), ord("Z") + 1)]
_COORD = re.compile(r"^([A-Za-z]+)(-?[0-9]+)$")


def invert(edge: int) -> int:
    """The edge of the neighbouring hex that faces `edge`."""
    return (edge + 3) % 6


def rotate(edge: int, ticks: int) -> int:
    return (edge + ticks) % 6


@lru_cache(maxsize=4096)
def xy(coord: str) -> tuple[int, int]:
    """Doubled (x, y) of a coordinate, x from the letter and y from the number (1-based → 0-based)."""
    m = _COORD.match(coord)
    if not m:
        raise ValueError(f"not a hex coordinate: {coord!r}")
    letter, number = m.group(1), int(m.group(2))
    if letter in _LETTERS:
        x = _LETTERS.index(letter)
    elif len(letter) == 1 and letter.islower():
        # lower-case letters are columns left of "A" (a = -1, b = -2, ...)
        x = -(ord(letter) - ord("a") + 1)
    else:
        raise ValueError(f"not a hex coordinate: {coord!r}")
    return x, number - 1


def name(x: int, y: int) -> str:
    letter = _LETTERS[x] if x >= 0 else chr(ord("a") - x - 1)
    return f"{letter}{y + 1}"


def neighbour(coord: str, edge: int, layout: Layout = "flat") -> str:
    """The coordinate across `edge` (whether or not the map has a hex there)."""
    x, y = xy(coord)
    dx, dy = _OFFSETS[layout][edge]
    return name(x + dx, y + dy)


def direction(a: str, b: str, layout: Layout = "flat") -> int | None:
    """The edge of `a` that faces `b`, or None if they are not adjacent."""
    ax, ay = xy(a)
    bx, by = xy(b)
    return _DIRECTIONS[layout].get((bx - ax, by - ay))


def distance(a: str, b: str, layout: Layout = "flat") -> int:
    """Hex distance as the crow flies."""
    ax, ay = xy(a)
    bx, by = xy(b)
    dx, dy = abs(bx - ax), abs(by - ay)
    if layout == "pointy":
        return dy + max(0, (dx - dy) // 2)
    return dx + max(0, (dy - dx) // 2)
