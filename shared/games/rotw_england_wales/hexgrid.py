"""The one hex geometry of the title: offset coordinates (col, row) for the four layouts
MAP_FORMAT.md allows, and the numbering of a hex's six edges.

Edges are numbered 0..5 clockwise as seen on the page (rows grow southward, SVG y down):
pointy-top 0 east, 1 south-east, 2 south-west, 3 west, 4 north-west, 5 north-east;
flat-top 0 north-east, 1 south-east, 2 south, 3 south-west, 4 north-west, 5 north. The edge
opposite e is (e + 3) % 6, so the neighbour across edge e sees us across that edge. Saved
logs carry these numbers (`lay_track` entry/exit); the web client's twin is
services/web/app/rotw/hexgeom.js, and tests/web/test_rotw_geometry.py holds the page to it.
"""

from __future__ import annotations

LAYOUTS = ("pointy-odd-r", "pointy-even-r", "flat-odd-q", "flat-even-q")
EDGE_NAMES = {
    "pointy": ("east", "south-east", "south-west", "west", "north-west", "north-east"),
    "flat": ("north-east", "south-east", "south", "south-west", "north-west", "north"),
}

Coord = tuple[int, int]

# (dcol, drow) per edge 0..5, for rows (pointy) or columns (flat) that are / are not shifted.
_POINTY_UNSHIFTED = ((1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1))
_POINTY_SHIFTED = ((1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1))
_FLAT_UNSHIFTED = ((1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1))
_FLAT_SHIFTED = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (0, -1))


def opposite(edge: int) -> int:
    return (edge + 3) % 6


def _offsets(layout: str, col: int, row: int) -> tuple[Coord, ...]:
    if layout.startswith("pointy"):
        shifted = (row & 1) == (1 if layout == "pointy-odd-r" else 0)
        return _POINTY_SHIFTED if shifted else _POINTY_UNSHIFTED
    if layout.startswith("flat"):
        shifted = (col & 1) == (1 if layout == "flat-odd-q" else 0)
        return _FLAT_SHIFTED if shifted else _FLAT_UNSHIFTED
    raise ValueError(f"unknown layout {layout!r}")


def neighbour(layout: str, col: int, row: int, edge: int) -> Coord:
    """The position across `edge` of (col, row); it may be off the grid (negative)."""
    dc, dr = _offsets(layout, col, row)[edge]
    return col + dc, row + dr


def neighbours(layout: str, col: int, row: int) -> list[Coord]:
    """The six positions around (col, row), indexed by edge."""
    return [(col + dc, row + dr) for dc, dr in _offsets(layout, col, row)]


def edge_toward(layout: str, a: Coord, b: Coord) -> int | None:
    """The edge of `a` that `b` lies across, or None when they are not neighbours."""
    around = neighbours(layout, *a)
    col, row = b  # a list when it came from JSON
    return around.index((col, row)) if (col, row) in around else None


def are_neighbours(layout: str, a: Coord, b: Coord) -> bool:
    return edge_toward(layout, a, b) is not None


def edge_name(layout: str, edge: int) -> str:
    return EDGE_NAMES["pointy" if layout.startswith("pointy") else "flat"][edge]


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


def distance(layout: str, a: Coord, b: Coord) -> int:
    aq, ar, as_ = to_cube(layout, *a)
    bq, br, bs = to_cube(layout, *b)
    return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))
