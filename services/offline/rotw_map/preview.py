"""Draws a map file as SVG, to check a reconstruction by eye.

    python -m services.offline.rotw_map.preview board.svg [map.json]
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from shared.games.rotw_england_wales.board import DATA_FILE, Board, load_board, parse_hex

SIZE = 18.0  # px from hex centre to corner
FILL = {"plain": "#b9d98c", "water": "#8cc4e8", "mountain": "#c9a97a",
        "mountain_water": "#a9a0b8"}
CITY = {"red": "#d33", "yellow": "#ec2", "blue": "#36c", "purple": "#93c", "black": "#222",
        "grey": "#999"}


def _centre(board: Board, col: int, row: int) -> tuple[float, float]:
    w = math.sqrt(3) * SIZE
    if board.layout.startswith("pointy"):
        shift = (row & 1) if board.layout == "pointy-odd-r" else 1 - (row & 1)
        return (w * (col + 0.5 * shift) + w, 1.5 * SIZE * row + 2 * SIZE)
    shift = (col & 1) if board.layout == "flat-odd-q" else 1 - (col & 1)
    return (1.5 * SIZE * col + 2 * SIZE, w * (row + 0.5 * shift) + w)


def _corners(board: Board, x: float, y: float) -> list[tuple[float, float]]:
    start = 30 if board.layout.startswith("pointy") else 0
    return [(x + SIZE * math.cos(math.radians(start + 60 * i)),
             y + SIZE * math.sin(math.radians(start + 60 * i))) for i in range(6)]


def render_svg(board: Board) -> str:
    parts = []
    width = height = 0.0
    for h, terrain in sorted(board.terrain.items(), key=lambda kv: parse_hex(kv[0])):
        col, row = parse_hex(h)
        x, y = _centre(board, col, row)
        width, height = max(width, x + 2 * SIZE), max(height, y + 2 * SIZE)
        pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in _corners(board, x, y))
        parts.append(f'<polygon points="{pts}" fill="{FILL[terrain]}" stroke="#fff" '
                     f'stroke-width="0.8"><title>{col},{row} {terrain}</title></polygon>')
        if terrain in ("mountain", "mountain_water"):
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2" fill="#fff"/>')
    for edge in board.barriers:
        a, b = sorted(parse_hex(h) for h in edge)
        ax, ay = _centre(board, *a)
        bx, by = _centre(board, *b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = (by - ay) / 2, -(bx - ax) / 2  # along the shared edge
        k = SIZE / math.hypot(dx, dy) / 2
        parts.append(f'<line x1="{mx - dx * k:.1f}" y1="{my - dy * k:.1f}" '
                     f'x2="{mx + dx * k:.1f}" y2="{my + dy * k:.1f}" stroke="#000" '
                     f'stroke-width="4"/>')
    for h, city in board.cities.items():
        x, y = _centre(board, *parse_hex(h))
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.7:.1f}" '
                     f'fill="{CITY[city.color]}" stroke="#000"/>')
        parts.append(f'<text x="{x:.1f}" y="{y - SIZE * 0.85:.1f}" font-size="9" '
                     f'text-anchor="middle" font-family="sans-serif">{escape(city.name)} '
                     f'({city.goods})</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}"><rect width="100%" height="100%" fill="#dbeaf5"/>'
            + "".join(parts) + "</svg>\n")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    path = Path(args[1]) if len(args) > 1 else DATA_FILE
    board = load_board(str(path), path.read_bytes())
    Path(args[0]).write_text(render_svg(board), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
