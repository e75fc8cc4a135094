"""What a seat or a spectator sees: everything on the table.

Chicago Express has no hidden information and no randomness (the state holds no seed or
RNG), so every seat and a spectator get the same view.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import Result

from .auction import lowest_bid
from .board import ACTIONS, BOARD
from .build import build_cost, income_gain
from .labels import LABELS
from .prospects import turn_options
from .state import BUILD, State, ceil_div, holding, min_bid, shares_out


def _players(s: State) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat,
            "name": name,
            "cash": s.cash[seat],
            "shares": {info.id: holding(s, seat, info.index) for info in BOARD.companies},
        }
        for seat, name in enumerate(s.players)
    ]


def _companies(s: State) -> list[dict[str, Any]]:
    out = []
    for info in BOARD.companies:
        co = s.companies[info.index]
        out_shares = shares_out(s, info.index)
        out.append(
            {
                "id": info.id,
                "name": info.name,
                "short": info.short,
                "color": info.color,
                "open": co.open,
                "cash": co.cash,
                "income": co.income,
                "shares_total": info.shares,
                "shares_left": co.shares_left,
                "shares_out": out_shares,
                "holdings": [holding(s, seat, info.index) for seat in range(len(s.players))],
                "locomotives_total": info.locomotives,
                "locomotives_left": co.locos_left,
                "start_hex": BOARD.hex_ids[info.start_hex],
                "network": [BOARD.hex_ids[h] for h in co.network],
                "min_bid": min_bid(s, info.index) if co.open and co.shares_left else None,
                "dividend_per_share": ceil_div(co.income, out_shares) if out_shares else 0,
            }
        )
    return out


def _static_hexes() -> list[dict[str, Any]]:
    """The board's own fields of every hex: the same in every view, so built once."""
    out = []
    for h, hid in enumerate(BOARD.hex_ids):
        start = BOARD.start_of[h]
        ind = BOARD.industry_of[h]
        out.append(
            {
                "id": hid,
                "name": BOARD.names[h] or None,
                # What the page calls the hex: the map prints names, never coordinates.
                "label": LABELS[h],
                "terrain": BOARD.terrain[h],
                "cost": BOARD.cost[h],
                "income": BOARD.income[h],
                "house_value": BOARD.house[h],
                "shared": BOARD.shared[h],
                "start_of": BOARD.companies[start].id if start >= 0 else None,
                "chicago": h == BOARD.chicago,
                "industry": ind if ind >= 0 else None,
            }
        )
    return out


_STATIC_HEXES = _static_hexes()
# Company ids of each locomotive mask (bit i = company i), in company order.
_LOCOS_OF_MASK = [
    [info.id for info in BOARD.companies if mask >> info.index & 1] for mask in range(1 << len(BOARD.companies))
]


def _hexes(s: State) -> list[dict[str, Any]]:
    return [
        {
            **static,
            "locomotives": list(_LOCOS_OF_MASK[s.locos[h]]),
            "house": s.houses[h],
            "next_build_cost": build_cost(s, h),
            "arrival_income": income_gain(s, h),
        }
        for h, static in enumerate(_STATIC_HEXES)
    ]


def _industry(s: State) -> list[dict[str, Any]]:
    return [
        {
            "hex": BOARD.hex_ids[ind.hex],
            "name": BOARD.names[ind.hex],
            "track": list(ind.track),
            "position": s.industry[ind.index],
            "value": ind.track[s.industry[ind.index]],
            "self_developing": ind.self_developing,
        }
        for ind in BOARD.industries
    ]


def _auction(s: State) -> dict[str, Any] | None:
    a = s.auction
    if a is None:
        return None
    return {
        "kind": a.kind,
        "company": BOARD.companies[a.company].id,
        "min_bid": a.min_bid,
        "lowest_bid": lowest_bid(a),
        "high_bid": a.high_bid if a.high_bidder >= 0 else None,
        "high_bidder": a.high_bidder if a.high_bidder >= 0 else None,
        "to_act": a.to_act,
        "passed": [seat for seat in range(len(s.players)) if a.passed >> seat & 1],
        "opener": a.opener,
    }


def _build(s: State) -> dict[str, Any] | None:
    b = s.build
    if b is None:
        return None
    return {
        "company": BOARD.companies[b.company].id if b.company >= 0 else None,
        "placed": [BOARD.hex_ids[h] for h in b.placed],
        "remaining": BOARD.build_limit - len(b.placed),
        "reached_chicago": b.reached_chicago,
        # Reaching Chicago first pauses the build for the first Wabash auction.
        "interrupted": s.phase != BUILD,
    }


def build_view(s: State, active: frozenset[int], result: Result | None) -> dict[str, Any]:
    return {
        "title": "chicago-express",
        "phase": s.phase,
        "round": s.round,
        "current_player": s.current,
        "active_seats": sorted(active),
        "first_player": s.first_player,
        "opening": {
            "auctions": [BOARD.companies[c].id for c in BOARD.opening_auctions],
            "index": s.opening,
            "done": s.opening >= len(BOARD.opening_auctions),
        },
        "players": _players(s),
        "companies": _companies(s),
        "hexes": _hexes(s),
        "industry": _industry(s),
        "houses_supply": s.houses_supply,
        "dials": [
            {"action": name, "position": s.dials[d], "length": s.dial_lengths[d], "red": s.dials[d] >= s.dial_lengths[d]}
            for d, name in enumerate(ACTIONS)
        ],
        "auction": _auction(s),
        "build": _build(s),
        # Per action of the current turn: can it do anything, and if not, why.
        "turn_options": turn_options(s),
        "bank": s.bank,
        "log": msgspec.to_builtins(s.log),
        "result": msgspec.to_builtins(result) if result is not None else None,
    }
