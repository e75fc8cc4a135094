"""18Ireland's board facts: map and tiles (map.json, transcribed from 18xx.games' g_18_ireland),
phases' tile colours, route rules and the private companies' effects on track.

Everything here is data or a thin helper over `shared.games.core18xx`; the title's engine
(rounds, money) decides when each applies.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from shared.games.core18xx.board.mapdef import MapDef, load
from shared.games.core18xx.board.network import corporations_reached
from shared.games.core18xx.board.routes import RouteContext, RouteRules, StopBonus
from shared.games.core18xx.board.state import BoardState, token_hexes
from shared.games.core18xx.board.track import LaySlot, Special, TrackRules
from shared.games.core18xx.board.track import lay_slot as resolve_lay_slot

DATA = Path(__file__).with_name("map.json")

__all__ = [
    "BLOCKS", "PHASE_COLORS", "ROUTE_RULES", "SHANNON_HEXES", "SPECIAL_LAYS", "TRACK_RULES",
    "board_map", "blocked_hexes", "lay_slot", "merge_connected", "route_context", "same_tile",
]

# Phase name -> tile colours that may be laid (18xx.games PHASES for 18Ireland)
PHASE_COLORS: dict[str, tuple[str, ...]] = {
    "2": ("yellow",),
    "4": ("yellow", "green"),
    "6": ("yellow", "green"),
    "8": ("yellow", "green", "brown"),
    "10": ("yellow", "green", "brown"),
    "D": ("yellow", "green", "brown", "gray"),
}

# Narrow gauge is a network of its own: a lay adding only narrow track connects through it
TRACK_RULES = TrackRules(narrow=True)

# 18xx.games TILE_LAYS: a lay or upgrade, then a second yellow lay for 20 unless the first was
# an upgrade; with William Dargan (WDE) the second may be an upgrade too (30)
TILE_LAYS: list[dict[str, object]] = [{"lay": True, "upgrade": True}, {"lay": "not_if_upgraded", "upgrade": False, "cost": 20}]
DARGAN_TILE_LAYS: list[dict[str, object]] = [
    {"lay": True, "upgrade": True},
    {"lay": "not_if_upgraded", "upgrade": True, "cost": 20, "upgrade_cost": 30},
]

# Trains count hex edges ("H" trains, D = 99); they run broad gauge only and collect the
# narrow-gauge bonus.
ROUTE_RULES = RouteRules(distance="hexes", gauge="broad", narrow_bonus=True)

# River Shannon Steam Company (RSSC) links Dromod and Limerick
SHANNON_COMPANY = "RSSC"
SHANNON_HEXES = ("F10", "D16")

# Assignment bonuses: company -> (hexes it may be assigned to, revenue bonus per route)
ASSIGNMENTS: dict[str, tuple[tuple[str, ...], int]] = {
    "TASPS": (("C13",), 20),  # Trans-Atlantic Steam Packet Station: ship token on Galway
    "CDSPC": (("J4", "G1", "I19"), 10),  # City of Dublin Steam Packet: a port
}

# Private companies that block a hex while a player owns them
BLOCKS: dict[str, tuple[str, ...]] = {"DAR": ("J14",), "DCR": ("H4",)}

# Private companies' tile lays (18xx.games tile_lay abilities). DR and TDR lay two tiles that
# must join (track.tiles_connect); DR's first tile goes on Donegal (F4).
SPECIAL_LAYS: dict[str, Special] = {
    "DR": Special(hexes=("F4", "F2", "E3", "E5", "G3", "G5"), tiles=("IR5", "77", "78", "79"), reach="none"),
    "TDR": Special(hexes=("A19", "B18"), tiles=("IR5",), reach="none"),
    "BoW": Special(free=True),  # uses one of the corporation's own lays
    # H4 must be in the owning company's network, any rotation on the map (18xx.games: its
    # game-wide rotation check wants a connection for every private but TIM, DR and TDR, and
    # its hex_neighbors gives DCR every neighbour of H4): README reading 21
    "DCR": Special(hexes=("H4",), reach="hex", free=True),
    "TIM": Special(hexes=("F0", "H0", "G-1", "J12", "G21", "H20"), tiles=("IM",), reach="none", water_offboard=True),
}
SPECIAL_LAY_COUNTS = {"DR": 2, "TDR": 2, "BoW": 2, "DCR": 1, "TIM": 1}


@lru_cache(maxsize=1)
def board_map() -> MapDef:
    return load(DATA)


def blocked_hexes(player_owned: set[str] | frozenset[str]) -> frozenset[str]:
    """Hexes blocked now, given which blocking privates a player (not a corporation) owns."""
    return frozenset(h for company, hexes in BLOCKS.items() if company in player_owned for h in hexes)


def lay_slot(lays_done: int, upgraded: bool, owns_dargan: bool = False) -> LaySlot | None:
    """The next lay this turn (None: no more). A corporation owning William Dargan (WDE) may
    make the second lay an upgrade, even after upgrading."""
    return resolve_lay_slot(DARGAN_TILE_LAYS if owns_dargan else TILE_LAYS, lays_done, upgraded)


def route_context(corp: str, phase: str, assigned: dict[str, tuple[str, str]] | None = None,
                  owns_shannon: bool = False) -> RouteContext:
    """Route rules for `corp`: `assigned` maps company -> (hex, corporation it benefits)."""
    bonuses = []
    for company, (hex_, beneficiary) in (assigned or {}).items():
        if beneficiary == corp and company in ASSIGNMENTS:
            bonuses.append(StopBonus((hex_,), ASSIGNMENTS[company][1]))
    linked = ((SHANNON_HEXES[0], SHANNON_HEXES[1]), (SHANNON_HEXES[1], SHANNON_HEXES[0])) if owns_shannon else ()
    return RouteContext(corp, PHASE_COLORS[phase], ROUTE_RULES, tuple(bonuses), linked)


def merge_connected(m: MapDef, b: BoardState, minor: str, other: str) -> bool:
    """Merger rule: `other` has a token in a city that `minor`'s home city reaches over broad
    gauge, tokens not blocking. (18xx.games caches the group found for the first minor asked
    and reuses it for every member; the walk is symmetric, so the answer is the same.)"""
    homes = token_hexes(b, minor)
    if not homes:
        return False
    return other in corporations_reached(m, b, homes[0])


def same_tile(m: MapDef, b: BoardState, minor: str, other: str) -> bool:
    """Merger rule: two minors whose (only) tokens share a tile cannot merge together."""
    a, z = token_hexes(b, minor), token_hexes(b, other)
    return bool(a and z and a[0][0] == z[0][0])
