"""The map: hexes, terrain, cities, towns, barriers, major lines (read from map.json).

Format: MAP_FORMAT.md. A hex id is the string "col,row". Edges are numbered 0..5
clockwise; for pointy-top layouts 0 = east, for flat-top layouts 0 = north-east; the edge
opposite e is (e + 3) % 6, so the neighbour across edge e sees us across that edge.
Boards are loaded once and cached by id; states name their board by id only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

TERRAIN_COST = {"plain": 2000, "water": 3000, "mountain": 4000, "mountain_water": 4000}
MOUNTAINS = frozenset({"mountain", "mountain_water"})
BASE_COLOURS = ("red", "yellow", "blue", "purple", "black")
EMPTY_CITY_END = {2: 9, 3: 11, 4: 13, 5: 15}  # seed: England & Wales thresholds
LAYOUTS = ("pointy-odd-r", "pointy-even-r", "flat-odd-q", "flat-even-q")

# (dcol, drow) per edge 0..5, for the "shifted" and "unshifted" rows/columns.
_POINTY_UNSHIFTED = ((1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1))  # E SE SW W NW NE
_POINTY_SHIFTED = ((1, 0), (1, 1), (0, 1), (-1, 0), (0, -1), (1, -1))
_FLAT_UNSHIFTED = ((1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1))  # NE SE S SW NW N
_FLAT_SHIFTED = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (0, -1))


class MapError(ValueError):
    pass


def hex_id(col: int, row: int) -> str:
    return f"{col},{row}"


def parse_hex(h: str) -> tuple[int, int]:
    c, r = h.split(",")
    return int(c), int(r)


@dataclass(frozen=True)
class City:
    name: str
    hex: str
    color: str
    goods: int


@dataclass(frozen=True)
class MajorLine:
    id: str
    name: str
    frm: str  # city name
    to: str
    via: tuple[str, ...]
    vp: int


@dataclass
class Board:
    id: str
    name: str
    layout: str
    terrain: dict[str, str]  # hex -> terrain, every playable hex
    cities: dict[str, City]  # hex -> printed city
    towns: dict[str, str]  # hex -> town name
    barriers: frozenset[frozenset[str]]
    major_lines: tuple[MajorLine, ...]
    new_cities: tuple[str, ...]  # colours of the urbanize tiles
    goods_bag: dict[str, int]
    empty_city_end: dict[int, int]  # players -> empty-city markers that end the game
    city_by_name: dict[str, str] = field(default_factory=dict)  # name -> hex
    _nbr: dict[str, tuple[str | None, ...]] = field(default_factory=dict)

    def neighbour(self, h: str, edge: int) -> str | None:
        """The playable hex across `edge` of `h`, or None (off map or a barrier)."""
        return self._nbr[h][edge]

    def colours(self) -> tuple[str, ...]:
        return tuple(self.goods_bag)


def _offsets(layout: str, col: int, row: int) -> tuple[tuple[int, int], ...]:
    if layout.startswith("pointy"):
        shifted = (row % 2 == 1) if layout == "pointy-odd-r" else (row % 2 == 0)
        return _POINTY_SHIFTED if shifted else _POINTY_UNSHIFTED
    shifted = (col % 2 == 1) if layout == "flat-odd-q" else (col % 2 == 0)
    return _FLAT_SHIFTED if shifted else _FLAT_UNSHIFTED


def raw_neighbour(layout: str, h: str, edge: int) -> str:
    col, row = parse_hex(h)
    dc, dr = _offsets(layout, col, row)[edge]
    return hex_id(col + dc, row + dr)


def load_board(board_id: str, data: dict) -> Board:
    layout = data.get("layout")
    if layout not in LAYOUTS:
        raise MapError(f"layout must be one of {LAYOUTS}, not {layout!r}")
    terrain: dict[str, str] = {}
    cities: dict[str, City] = {}
    towns: dict[str, str] = {}
    for entry in data.get("hexes", []):
        h = hex_id(int(entry["col"]), int(entry["row"]))
        if h in terrain:
            raise MapError(f"hex {h} listed twice")
        t = entry.get("terrain", "plain")
        if t == "sea":
            continue
        if t not in TERRAIN_COST:
            raise MapError(f"hex {h}: unknown terrain {t!r}")
        terrain[h] = t
        city = entry.get("city")
        if city:
            goods = int(city.get("goods", 0))
            if goods < 0:
                raise MapError(f"city {city['name']}: negative goods")
            cities[h] = City(name=city["name"], hex=h, color=city["color"], goods=goods)
        elif entry.get("town"):
            towns[h] = entry.get("town_name") or f"town {h}"
    by_name: dict[str, str] = {}
    for h, c in cities.items():
        if c.name in by_name:
            raise MapError(f"city name {c.name!r} used twice")
        by_name[c.name] = h
    barriers: set[frozenset[str]] = set()
    for b in data.get("barriers", []):
        a, z = (hex_id(int(x[0]), int(x[1])) for x in b["between"])
        if not any(raw_neighbour(layout, a, e) == z for e in range(6)):
            raise MapError(f"barrier {a}|{z}: not neighbours under {layout}")
        barriers.add(frozenset((a, z)))
    majors = []
    for m in data.get("major_lines", []):
        for name in (m["from"], m["to"], *m.get("via", [])):
            if name not in by_name:
                raise MapError(f"major line {m.get('id')}: unknown city {name!r}")
        majors.append(MajorLine(id=m["id"], name=m.get("name", m["id"]), frm=m["from"], to=m["to"],
                                via=tuple(m.get("via", [])), vp=int(m.get("vp", 0))))
    # Default: the base game's 125 cubes, 25 of each colour (review 'A Game Built for Two').
    bag = dict(data.get("goods_bag") or {c: 25 for c in BASE_COLOURS})
    for h, c in cities.items():
        if c.color != "grey" and c.color not in bag:
            raise MapError(f"city {c.name}: colour {c.color!r} is not in the goods bag")
    # Default: the base game's 12 new-city tiles, 3 each of yellow, black, blue, purple (review
    # 'A Game Built for Two', component list).
    new_cities = tuple(n["color"] for n in data.get("new_cities", [])) or tuple(
        col for col in ("yellow", "black", "blue", "purple") if col in bag for _ in range(3))
    board = Board(id=board_id, name=data.get("name", board_id), layout=layout, terrain=terrain,
                  cities=cities, towns=towns, barriers=frozenset(barriers), major_lines=tuple(majors),
                  new_cities=new_cities, goods_bag=bag, city_by_name=by_name,
                  empty_city_end={int(k): int(v) for k, v in (data.get("empty_city_end") or EMPTY_CITY_END).items()})
    for h in terrain:
        row = []
        for e in range(6):
            n = raw_neighbour(layout, h, e)
            row.append(n if n in terrain and frozenset((h, n)) not in barriers else None)
        board._nbr[h] = tuple(row)
    return board


_CACHE: dict[str, Board] = {}
_HERE = Path(__file__).parent
DEFAULT_MAP = "england_wales"


def board_from_path(path: str | Path) -> str:
    """Register a map file (tests' maps) and return the board id states will carry."""
    p = Path(path).resolve()
    bid = f"file:{p}"
    if bid not in _CACHE:
        _CACHE[bid] = load_board(bid, json.loads(p.read_text()))
    return bid


def get_board(board_id: str) -> Board:
    b = _CACHE.get(board_id)
    if b is None:
        if board_id == DEFAULT_MAP:
            p = _HERE / "map.json"
            if not p.exists():
                raise MapError("map.json is not in the package yet (the map helper is writing it)")
            b = load_board(board_id, json.loads(p.read_text()))
        elif board_id.startswith("file:"):
            b = load_board(board_id, json.loads(Path(board_id[5:]).read_text()))
        else:
            raise MapError(f"unknown board {board_id!r}")
        _CACHE[board_id] = b
    return b
