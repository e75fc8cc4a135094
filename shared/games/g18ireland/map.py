"""18Ireland's map and tiles (data in map.json, transcribed from 18xx.games' g_18_ireland)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..core18xx.mapdef import MapDef, load
from ..core18xx.routes import RouteRules
from ..core18xx.track import IRELAND as TRACK_RULES  # noqa: F401  (re-exported for the engine)

DATA = Path(__file__).with_name("map.json")

# Phase name -> tile colours allowed (18xx.games PHASES for 18Ireland)
PHASE_COLORS: dict[str, tuple[str, ...]] = {
    "2": ("yellow",),
    "4": ("yellow", "green"),
    "6": ("yellow", "green"),
    "8": ("yellow", "green", "brown"),
    "10": ("yellow", "green", "brown"),
    "D": ("yellow", "green", "brown", "gray"),
}

# Trains run hex edges ("H" trains); narrow gauge is skipped by trains and paid as a bonus.
ROUTE_RULES = RouteRules(distance="hexes", gauge="broad", narrow_bonus=True)

# River Shannon Steam Company links these two cities (adds one's value to a route at the other)
SHANNON_HEXES = ("F10", "D16")


@lru_cache(maxsize=1)
def board_map() -> MapDef:
    return load(DATA)
