"""Numbers of the base game and of England & Wales (sources in README.md).

Kept in one place so a corrected figure is a one-line change.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

SHARE_CASH = 5000  # a share issued gives $5,000
SHARE_INTEREST = 1000  # each issued share costs $1,000 every income phase
URBANIZE_COST = 10000
URBANIZE_CUBES = 2
MAX_TILES_PER_BUILD = 4
ROUNDS_PER_TURN = 3
BID_STEP = 1000
MAX_ENGINE = 7  # review 'A Game Built for Two': engine cards levels 1 to 7
LINK_VP = 1  # each completed link owned scores 1 VP at the end


def engine_cost(level: int) -> int:
    """Cost of upgrading to `level` (reading: $1,000 x (level + 2), i.e. $4,000 for level 2)."""
    return (level + 2) * 1000


def income_for(vp: int) -> int:
    """Income (in $) paid for a marker on track space `vp` — reconstructed shape (README)."""
    if vp <= 10:
        k = vp
    elif vp <= 20:
        k = 10 + -(-(vp - 10) // 2)
    elif vp <= 30:
        k = 15 + -(-(vp - 20) // 3)
    elif vp <= 50:
        k = 19 + -(-(vp - 30) // 4)
    else:
        k = max(10, 24 - (vp - 50) // 5)
    return k * 1000


def display_size(players: int) -> int:
    return players + 2


@cache
def card_data() -> dict:
    return json.loads((Path(__file__).parent / "cards.json").read_text())


def card_value(kind: str, key: str) -> int:
    for c in card_data()["operations"]:
        if c["kind"] == kind:
            return int(c[key])
    raise KeyError(kind)
