"""Offset hex coordinates (col, row) for the four layouts MAP_FORMAT.md allows."""

from __future__ import annotations

LAYOUTS = ("pointy-odd-r", "pointy-even-r", "flat-odd-q", "flat-even-q")

# (dcol, drow) of the six neighbours, by the parity of the row (pointy) or column (flat)
# that the hex is in. Index 0 is for even rows/columns, 1 for odd.
_POINTY_SHIFTED = ((1, 0), (0, -1), (1, -1), (-1, 0), (0, 1), (1, 1))
_POINTY_UNSHIFTED = ((1, 0), (-1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_FLAT_SHIFTED = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (0, -1))
_FLAT_UNSHIFTED = ((1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1))

_OFFSETS = {
    # odd rows shifted right: odd rows use the shifted table
    "pointy-odd-r": (_POINTY_UNSHIFTED, _POINTY_SHIFTED),
    "pointy-even-r": (_POINTY_SHIFTED, _POINTY_UNSHIFTED),
    # odd columns shifted down
    "flat-odd-q": (_FLAT_UNSHIFTED, _FLAT_SHIFTED),
    "flat-even-q": (_FLAT_SHIFTED, _FLAT_UNSHIFTED),
}


def neighbours(layout: str, col: int, row: int) -> list[tuple[int, int]]:
    """The six positions around (col, row); some may be off the grid (negative)."""
    parity = (row if layout.startswith("pointy") else col) & 1
    return [(col + dc, row + dr) for dc, dr in _OFFSETS[layout][parity]]


def are_neighbours(layout: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    return tuple(b) in neighbours(layout, *a)


def to_cube(layout: str, col: int, row: int) -> tuple[int, int, int]:
    if layout == "pointy-odd-r":
        q, r = col - (row - (row & 1)) // 2, row
    elif layout == "pointy-even-r":
        q, r = col - (row + (row & 1)) // 2, row
    elif layout == "flat-odd-q":
        q, r = col, row - (col - (col & 1)) // 2
    elif layout == "flat-even-q":
        q, r = col, row - (col + (col & 1)) // 2
    else:
        raise ValueError(f"unknown layout {layout!r}")
    return q, r, -q - r


def distance(layout: str, a: tuple[int, int], b: tuple[int, int]) -> int:
    aq, ar, as_ = to_cube(layout, *a)
    bq, br, bs = to_cube(layout, *b)
    return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))
