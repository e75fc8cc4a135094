"""Loads `board.json` into flat, index-based tables the rules read in their hot paths.

Hexes are addressed by index (their position in the file) inside the engine and by id
("R3") on the wire. Adjacency is computed once here from the odd-q offset coordinates.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shared.games.chicago_express.actions import ActionName

DATA_FILE = Path(__file__).with_name("board.json")

TERRAINS = ("city", "industrial", "plain", "forest", "mountain")
ACTIONS: tuple[ActionName, ...] = ("auction", "build", "develop")  # the three dials, in board order

# Axial neighbour offsets of a hex grid (q, r).
_AXIAL_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True)
class CompanyInfo:
    index: int
    id: str
    name: str
    short: str
    color: str
    shares: int
    locomotives: int
    start_hex: int
    income: int  # starting income; Wabash's comes from Fort Wayne when it opens
    opening_price: int  # 0 for Wabash, which has no opening auction
    opens_at_chicago: bool


@dataclass(frozen=True)
class IndustryInfo:
    index: int
    hex: int
    track: tuple[int, ...]
    self_developing: bool  # Detroit: moves at every dividend phase, never by players


@dataclass(frozen=True)
class Board:
    hex_ids: tuple[str, ...]
    hex_index: dict[str, int]
    names: tuple[str, ...]
    terrain: tuple[str, ...]
    cost: tuple[int, ...]
    income: tuple[int, ...]  # printed income value (0 for industrial hexes: they use their track)
    house: tuple[int, ...]  # printed house value
    shared: tuple[bool, ...]  # False: forest/mountain, one company only
    neighbours: tuple[tuple[int, ...], ...]
    start_of: tuple[int, ...]  # company index whose start hex this is, else -1
    industry_of: tuple[int, ...]  # industry index of an industrial hex, else -1
    developable: tuple[int, ...]  # hexes a player may ever develop
    companies: tuple[CompanyInfo, ...]
    company_index: dict[str, int]
    industries: tuple[IndustryInfo, ...]
    chicago: int
    fort_wayne: int  # Wabash's start hex
    wabash: int  # company index of the company that opens at Chicago
    opening_auctions: tuple[int, ...]
    starting_cash: dict[int, int]
    houses: int
    dials: dict[str, int]
    build_limit: int
    forest_bonus: int


def axial(hex_id: str) -> tuple[int, int]:
    """Axial (q, r) of an odd-q offset id such as "R3" (column letter, row number)."""
    col = ord(hex_id[0]) - ord("A")
    row = int(hex_id[1:])
    return col, row - (col - (col & 1)) // 2


def load_board(path: Path = DATA_FILE) -> Board:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    raw_hexes = data["hexes"]
    ids = tuple(h["id"] for h in raw_hexes)
    index = {hid: i for i, hid in enumerate(ids)}
    if len(index) != len(ids):
        raise ValueError("duplicate hex id in board data")
    terrain = tuple(h["terrain"] for h in raw_hexes)
    for t in terrain:
        if t not in TERRAINS:
            raise ValueError(f"unknown terrain {t!r} in board data")
    shared_terrain = {t: bool(spec["shared"]) for t, spec in data["terrain"].items()}

    by_axial = {axial(hid): i for i, hid in enumerate(ids)}
    neighbours = tuple(
        tuple(
            by_axial[(q + dq, r + dr)]
            for dq, dr in _AXIAL_DIRECTIONS
            if (q + dq, r + dr) in by_axial
        )
        for q, r in (axial(hid) for hid in ids)
    )

    companies = tuple(
        CompanyInfo(
            index=i,
            id=c["id"],
            name=c["name"],
            short=c["short"],
            color=c["color"],
            shares=c["shares"],
            locomotives=c["locomotives"],
            start_hex=index[c["start_hex"]],
            income=c.get("income", 0),
            opening_price=c.get("opening_price", 0),
            opens_at_chicago=bool(c.get("opens_at_chicago", False)),
        )
        for i, c in enumerate(data["companies"])
    )
    company_index = {c.id: c.index for c in companies}
    wabash = [c.index for c in companies if c.opens_at_chicago]
    if len(wabash) != 1:
        raise ValueError("exactly one company must open at Chicago")

    start_of = [-1] * len(ids)
    for c in companies:
        start_of[c.start_hex] = c.index

    industries = tuple(
        IndustryInfo(
            index=i,
            hex=index[ind["hex"]],
            track=tuple(ind["track"]),
            self_developing=bool(ind.get("self_developing", False)),
        )
        for i, ind in enumerate(data["industry"])
    )
    industry_of = [-1] * len(ids)
    for ind in industries:
        if terrain[ind.hex] != "industrial":
            raise ValueError(f"industry hex {ids[ind.hex]} is not industrial terrain")
        industry_of[ind.hex] = ind.index

    chicago = index[data["chicago"]]
    developable = tuple(
        i
        for i, t in enumerate(terrain)
        if t != "plain"
        and i != chicago
        and (start_of[i] < 0 or companies[start_of[i]].opens_at_chicago)  # Fort Wayne is a normal city
        and not (industry_of[i] >= 0 and industries[industry_of[i]].self_developing)
    )

    setup = data["setup"]
    return Board(
        hex_ids=ids,
        hex_index=index,
        names=tuple(h.get("name", "") for h in raw_hexes),
        terrain=terrain,
        cost=tuple(h["cost"] for h in raw_hexes),
        income=tuple(h.get("income", 0) for h in raw_hexes),
        house=tuple(h.get("house", 0) for h in raw_hexes),
        shared=tuple(shared_terrain[t] for t in terrain),
        neighbours=neighbours,
        start_of=tuple(start_of),
        industry_of=tuple(industry_of),
        developable=developable,
        companies=companies,
        company_index=company_index,
        industries=industries,
        chicago=chicago,
        fort_wayne=companies[wabash[0]].start_hex,
        wabash=wabash[0],
        opening_auctions=tuple(company_index[c] for c in setup["opening_auctions"]),
        starting_cash={int(k): v for k, v in setup["starting_cash"].items()},
        houses=setup["houses"],
        dials={a: data["dials"][a] for a in ACTIONS},
        build_limit=data["build_limit"],
        forest_bonus=data["forest_bonus"],
    )


BOARD = load_board()
