"""What both 18xx pages' geometry tests check the same way: every path of the engine's board is
drawn, its ends on the edges the engine names (or inside the hex for a stop); every token the
board has is drawn once, in its hex, and a lone city's slots sit in a row across its centre."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

NUM = re.compile(r"-?\d+(?:\.\d+)?")
Point = tuple[float, float]

SLOT_SPACING = 18  # the page's distance between a lone city's slot centres (SVG units)


def check_tracks(board: dict[str, Any], drawn_tracks: list[dict[str, Any]], centre_of: Callable[[dict[str, Any]], Point],
                 edge_mid_of: Callable[[dict[str, Any], int], Point], size: float) -> int:
    """Assert the drawn tracks are the board's paths, ends where it has them; return the ends."""
    by_hex: dict[str, list[dict[str, Any]]] = {}
    for t in drawn_tracks:
        by_hex.setdefault(t["hex"], []).append(t)
    ends = 0
    for hx in board["hexes"]:
        want = sorted((str(p["a"]), str(p["b"]), p["track"]) for p in hx["paths"])
        got = sorted((t["a"], t["b"], t["track"]) for t in by_hex.get(hx["hex"], []))
        assert got == want, hx["hex"]
        cx, cy = centre_of(hx)
        for t in by_hex.get(hx["hex"], []):
            nums = [float(v) for v in NUM.findall(t["d"])]
            for end, (px, py) in ((t["a"], nums[0:2]), (t["b"], nums[-2:])):
                if end.isdigit():
                    ex, ey = edge_mid_of(hx, int(end))
                    assert math.hypot(px - ex, py - ey) < 0.05, (hx["hex"], t, end)
                else:  # a stop: inside this hex
                    assert math.hypot(px - cx, py - cy) < size * 0.8, (hx["hex"], t, end)
                ends += 1
    return ends


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
