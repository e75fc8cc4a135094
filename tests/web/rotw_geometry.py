"""Where the England & Wales page draws track, against where the engine's board says it is.

The expected points are computed here from the map's layout alone (pointy-odd-r at the page's
scale: circumradius 16 SVG units, a 2-unit margin): the end of a track segment that leaves hex
h across edge e is the midpoint of h's centre and the centre of the hex the engine's board
puts across e. Nothing here reads the page's code or its angle table, so a page that numbers
edges differently from the engine (a mirror) fails.
"""

from __future__ import annotations

import math
import re
from typing import Any

from shared.games.rotw_england_wales.board import Board, parse_hex, raw_neighbour

R = 16.0
W = math.sqrt(3) * R
TOLERANCE = 0.11  # the page prints coordinates to one decimal
READ_TRACK = """svg => [...svg.querySelectorAll('path.track')].map(p => ({
  hex: p.dataset.hex, link: Number(p.dataset.link), d: p.getAttribute('d')}))"""
_NUM = r"(-?\d+(?:\.\d+)?)"
_PATH = re.compile(rf"M{_NUM},{_NUM} Q{_NUM},{_NUM} {_NUM},{_NUM}")

Point = tuple[float, float]


def centre(layout: str, h: str) -> Point:
    assert layout == "pointy-odd-r", layout
    col, row = parse_hex(h)
    return W / 2 + col * W + (W / 2 if row % 2 else 0.0) + 2, R + row * 1.5 * R + 2


def between(layout: str, a: str, b: str) -> Point:
    (ax, ay), (bx, by) = centre(layout, a), centre(layout, b)
    return (ax + bx) / 2, (ay + by) / 2


def ends(d: str) -> tuple[Point, Point]:
    m = _PATH.fullmatch(d.strip())
    assert m, f"track path {d!r} is not 'M a Q c b'"
    v = [float(x) for x in m.groups()]
    return (v[0], v[1]), (v[4], v[5])


def _near(p: Point, q: Point) -> bool:
    return math.dist(p, q) <= TOLERANCE


def check_track(board: Board, view: dict[str, Any], drawn: list[dict[str, Any]], where: str = "") -> int:
    """Every segment of the view's track is drawn once, ending on the edges the board names,
    and every complete link's drawing touches both its cities. Returns the segments checked."""
    layout = board.layout
    by_place: dict[tuple[str, int], list[tuple[Point, Point]]] = {}
    for p in drawn:
        by_place.setdefault((p["hex"], p["link"]), []).append(ends(p["d"]))
    segs = [(h, link, e1, e2) for h, row in view["track"].items() for link, e1, e2 in row]
    assert len(drawn) == len(segs), f"{where}: {len(drawn)} track paths drawn for {len(segs)} segments"
    for h, link, e1, e2 in segs:
        want = {between(layout, h, raw_neighbour(layout, h, e)) for e in (e1, e2)}
        paths = by_place.get((h, link), [])
        assert any(all(any(_near(end, w) for end in path) for w in want) for path in paths), (
            f"{where}: link {link} in {h} joins edges {e1} and {e2} (towards "
            f"{raw_neighbour(layout, h, e1)} and {raw_neighbour(layout, h, e2)}), expected ends "
            f"{sorted(want)}, drawn {paths}")
    for link in view["links"]:
        if not link["complete"]:
            continue
        for city, first in ((link["a"], link["hexes"][0]), (link["b"], link["hexes"][-1])):
            touch = between(layout, city, first)
            paths = by_place.get((first, link["id"]), [])
            assert any(_near(end, touch) for path in paths for end in path), (
                f"{where}: complete link {link['id']} ({link['a']}-{link['b']}) is not drawn "
                f"touching {city}: expected an end at {touch} in {first}, drawn {paths}")
    return len(segs)
