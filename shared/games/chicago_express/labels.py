"""Words for every hex, for log lines, buttons and tooltips: the map prints city names but
no coordinates, so a hex without a name is called by its terrain and where it lies from a
named city the player can find ("forest NE of Pittsburgh", "plain 2 W of Albany").

Directions come from the hex centres of the odd-q layout (north up); the count is the hex
distance. Every label is unique (tests/chicago_express/test_labels.py).
"""

from __future__ import annotations

import math

from .board import BOARD, axial

_COMPASS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
_COMPASS16 = ("E", "ENE", "NE", "NNE", "N", "NNW", "NW", "WNW", "W", "WSW", "SW", "SSW", "S", "SSE", "SE", "ESE")


def _centre(hex_id: str) -> tuple[float, float]:
    col, row = ord(hex_id[0]) - ord("A"), int(hex_id[1:])
    return 1.5 * col, math.sqrt(3) * (row + 0.5 * (col & 1))


def _distance(a: str, b: str) -> int:
    (q1, r1), (q2, r2) = axial(a), axial(b)
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


def _direction(origin: str, to: str, points: tuple[str, ...]) -> str:
    (x0, y0), (x1, y1) = _centre(origin), _centre(to)
    angle = math.atan2(-(y1 - y0), x1 - x0)  # y grows southwards on the map
    step = 2 * math.pi / len(points)
    return points[round(angle / step) % len(points)]


def _label(hex_id: str, city: str, points: tuple[str, ...]) -> str:
    terrain = BOARD.terrain[BOARD.hex_index[hex_id]]
    n = _distance(hex_id, city)
    name = BOARD.names[BOARD.hex_index[city]]
    return f"{terrain} {'' if n == 1 else f'{n} '}{_direction(city, hex_id, points)} of {name}"


def _labels() -> tuple[str, ...]:
    ids = BOARD.hex_ids
    cities = [h for h, name in zip(ids, BOARD.names) if name]
    # Nearest named hexes first; among equals, the one listed first on the board.
    near = {h: sorted(cities, key=lambda c: (_distance(h, c), ids.index(c))) for h in ids}
    out = {h: BOARD.names[i] for i, h in enumerate(ids) if BOARD.names[i]}
    unnamed = [h for h in ids if h not in out]
    taken: set[str] = set(out.values())
    # Each unnamed hex takes the first of its candidate labels that no other hex wants more.
    for h in unnamed:
        candidates = [_label(h, c, pts) for pts in (_COMPASS, _COMPASS16) for c in near[h][:3]]
        rivals = {_label(o, c, _COMPASS) for o in unnamed if o != h for c in near[o][:1]}
        label = next((c for c in candidates if c not in taken and c not in rivals), None)
        if label is None:
            label = next(c for c in candidates if c not in taken)
        out[h] = label
        taken.add(label)
    return tuple(out[h] for h in ids)


LABELS = _labels()
