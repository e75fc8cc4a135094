"""What both 18xx pages' geometry tests check the same way: every token the engine's board has
is drawn once, in its hex, and a lone city's slots sit in a row across the hex's centre."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

SLOT_SPACING = 18  # the page's distance between a lone city's slot centres (SVG units)


def check_tokens(board: dict[str, Any], drawn_tokens: list[dict[str, Any]],
                 centre_of: Callable[[dict[str, Any]], tuple[float, float]], size: float) -> int:
    """Assert the drawn tokens are the board's, where it has them; return how many there are."""
    tokens = 0
    for hx in board["hexes"]:
        cx, cy = centre_of(hx)
        stops = [n for n in hx["nodes"] if n["kind"] != "junction"]
        for i, node in enumerate(hx["nodes"]):
            for j, owner in enumerate(node.get("slots") or []):
                mine = [t for t in drawn_tokens if t["hex"] == hx["hex"] and t["node"] == i and t["slot"] == j]
                if owner is None:
                    assert mine == [], (hx["hex"], i, j)
                    continue
                assert [t["corp"] for t in mine] == [owner], (hx["hex"], i, j)
                t = mine[0]
                assert math.hypot(t["x"] - cx, t["y"] - cy) < size * 0.87, (hx["hex"], t)
                if len(stops) == 1:   # a lone city sits at the centre, its slots in a row across it
                    n = len(node["slots"])
                    assert abs(t["y"] - cy) < 0.05, (hx["hex"], t)
                    assert abs(t["x"] - (cx + (j - (n - 1) / 2) * SLOT_SPACING)) < 0.05, (hx["hex"], t)
                tokens += 1
    return tokens
