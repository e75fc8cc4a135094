"""Hex coordinates as 18xx.games writes them ("D4", "G-1") and the geometry around them.

A coordinate is a letter plus a number. With axes "letter-x" (x=letter,
y=number) the letter is the column; with "number-x" (1841: x=number, y=letter) the number is
the column and the letter the row. Either way they map to "doubled" coordinates: on a flat-topped map
neighbours in one column differ by 2 in y, neighbours in adjacent columns by 1. Edges are
numbered 0..5 the way 18xx.games numbers them, so a tile rotation `r` turns edge `e` into
`(e + r) % 6` and a hex's edge `e` faces its neighbour's edge `(e + 3) % 6`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

Layout = Literal["flat", "pointy"]
Axes = Literal["letter-x", "number-x"]

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


@lru_cache(maxsize=8192)
def xy(coord: str, axes: Axes = "letter-x") -> tuple[int, int]:
    """Doubled (x, y) of a coordinate (letters count from A = 0, numbers from 1 = 0)."""
    m = _COORD.match(coord)
    if not m:
        raise ValueError(f"not a hex coordinate: {coord!r}")
    letter, number = m.group(1), int(m.group(2))
    if letter in _LETTERS:
        li = _LETTERS.index(letter)
    elif len(letter) == 1 and letter.islower():
        # lower-case letters come before "A" (a = -1, b = -2, ...)
        li = -(ord(letter) - ord("a") + 1)
    else:
        raise ValueError(f"not a hex coordinate: {coord!r}")
    return (li, number - 1) if axes == "letter-x" else (number - 1, li)


def name(x: int, y: int, axes: Axes = "letter-x") -> str:
    li, num = (x, y) if axes == "letter-x" else (y, x)
    letter = _LETTERS[li] if li >= 0 else chr(ord("a") - li - 1)
    return f"{letter}{num + 1}"


def neighbour(coord: str, edge: int, layout: Layout = "flat", axes: Axes = "letter-x") -> str:
    """The coordinate across `edge` (whether or not the map has a hex there)."""
    x, y = xy(coord, axes)
    dx, dy = _OFFSETS[layout][edge]
    return name(x + dx, y + dy, axes)


@lru_cache(maxsize=65536)   # pure on coordinates; routes ask it for every hop they check
def direction(a: str, b: str, layout: Layout = "flat", axes: Axes = "letter-x") -> int | None:
    """The edge of `a` that faces `b`, or None if they are not adjacent."""
    ax, ay = xy(a, axes)
    bx, by = xy(b, axes)
    return _DIRECTIONS[layout].get((bx - ax, by - ay))


def distance(a: str, b: str, layout: Layout = "flat", axes: Axes = "letter-x") -> int:
    """Hex distance as the crow flies."""
    ax, ay = xy(a, axes)
    bx, by = xy(b, axes)
    dx, dy = abs(bx - ax), abs(by - ay)
    if layout == "pointy":
        return dy + max(0, (dx - dy) // 2)
    return dx + max(0, (dy - dx) // 2)
