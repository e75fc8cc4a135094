"""The map: hexes, terrain, cities, towns, barriers, major lines (read from map.json).

The one model of the board. Format: MAP_FORMAT.md; geometry and edge numbering: hexgrid.py.
A hex id is the string "col,row". `load_board` checks the whole file and raises `MapError`
naming the hex, edge or line at fault. Boards are loaded once and cached by id; states name
their board by id only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from . import hexgrid
from .hexgrid import LAYOUTS

TERRAIN_COST = {"plain": 2000, "water": 3000, "mountain": 4000, "mountain_water": 4000}
TERRAINS = (*TERRAIN_COST, "sea")
MOUNTAINS = frozenset({"mountain", "mountain_water"})
BASE_COLOURS = ("red", "yellow", "blue", "purple", "black")
EMPTY_CITY_END = {2: 9, 3: 11, 4: 13, 5: 15}  # seed: England & Wales thresholds
MAX_GOODS = 6  # more cubes than any printed city holds; catches typos such as 22
DATA_FILE = Path(__file__).with_name("map.json")


class MapError(ValueError):
    """The map file breaks the format or its own consistency rules."""


# --- the file, as MAP_FORMAT.md describes it ------------------------------------------

class Growth(msgspec.Struct, frozen=True):
    die: int
    set: str


class City(msgspec.Struct, frozen=True):
    name: str
    color: str
    goods: int
    growth: Growth | None = None
    src: tuple[str, ...] = ()
    reconstructed: bool = False


class Hex(msgspec.Struct, frozen=True):
    col: int
    row: int
    terrain: str = "plain"
    city: City | None = None
    town: bool = False
    town_name: str | None = None
    src: tuple[str, ...] = ()
    reconstructed: bool = False
    note: str | None = None


class Barrier(msgspec.Struct, frozen=True):
    between: tuple[tuple[int, int], tuple[int, int]]
    src: tuple[str, ...] = ()
    reconstructed: bool = False
    note: str | None = None


class MajorLine(msgspec.Struct, frozen=True):
    id: str
    name: str = ""
    from_: str = msgspec.field(name="from", default="")
    to: str = ""
    via: tuple[str, ...] = ()
    vp: int = 0
    bonus: str | None = None
    history: str | None = None
    min_track_hexes: int | None = None
    src: tuple[str, ...] = ()
    reconstructed: bool = False

    @property
    def cities(self) -> tuple[str, ...]:
        return (self.from_, *self.via, self.to)


class NewCity(msgspec.Struct, frozen=True):
    id: str
    color: str
    src: tuple[str, ...] = ()
    reconstructed: bool = False


class MapFile(msgspec.Struct, frozen=True):
    layout: str
    hexes: tuple[Hex, ...]
    format: int = 1
    name: str = ""
    hex_km: float | None = None
    sources: dict[str, str] = {}
    barriers: tuple[Barrier, ...] = ()
    major_lines: tuple[MajorLine, ...] = ()
    new_cities: tuple[NewCity, ...] | None = None
    goods_bag: dict[str, int] | None = None
    goods_growth: Any = None
    empty_city_end: dict[str, int] | None = None
    notes: str = ""


# --- the board the rules play on ------------------------------------------------------

def hex_id(col: int, row: int) -> str:
    return f"{col},{row}"


def parse_hex(h: str) -> tuple[int, int]:
    c, r = h.split(",")
    return int(c), int(r)


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
    sources: dict[str, str] = field(default_factory=dict)
    city_by_name: dict[str, str] = field(default_factory=dict)  # name -> hex
    _nbr: dict[str, tuple[str | None, ...]] = field(default_factory=dict)

    def neighbour(self, h: str, edge: int) -> str | None:
        """The playable hex across `edge` of `h`, or None (off map or a barrier)."""
        return self._nbr[h][edge]

    def neighbours(self, h: str) -> list[str]:
        """Playable hexes track may reach from `h` in one step."""
        return [n for n in self._nbr[h] if n is not None]

    def colours(self) -> tuple[str, ...]:
        return tuple(self.goods_bag)


def raw_neighbour(layout: str, h: str, edge: int) -> str:
    return hex_id(*hexgrid.neighbour(layout, *parse_hex(h), edge))


def load_board(board_id: str, raw: bytes | str | dict[str, Any]) -> Board:
    """Decodes and checks a map (JSON text or an already parsed dict)."""
    try:
        if isinstance(raw, dict):
            data = msgspec.convert(raw, type=MapFile)
        else:
            data = msgspec.json.decode(raw, type=MapFile)
    except msgspec.ValidationError as exc:
        raise MapError(f"map file does not match the format: {exc}") from None
    except msgspec.DecodeError as exc:
        raise MapError(f"map file is not valid JSON: {exc}") from None
    return _check(board_id, data)


def _check(board_id: str, data: MapFile) -> Board:
    if data.format != 1:
        raise MapError(f"unsupported map format {data.format}; this loader reads format 1")
    layout = data.layout
    if layout not in LAYOUTS:
        raise MapError(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")

    def check_src(src: tuple[str, ...], where: str) -> None:
        for s in src:
            if s not in data.sources:
                raise MapError(f"{where} cites source {s!r}, which is not in 'sources'")

    # Default: the base game's 125 cubes, 25 of each colour (review 'A Game Built for Two').
    bag = dict(data.goods_bag) if data.goods_bag is not None else {c: 25 for c in BASE_COLOURS}
    for colour, count in bag.items():
        if colour == "grey" or not colour.strip():
            raise MapError(f"goods_bag has colour {colour!r}; grey cities have no cubes")
        if count < 0:
            raise MapError(f"goods_bag has {count} {colour} cubes")

    terrain: dict[str, str] = {}
    cities: dict[str, City] = {}
    towns: dict[str, str] = {}
    by_name: dict[str, str] = {}
    seen: set[str] = set()
    for x in data.hexes:
        h = hex_id(x.col, x.row)
        where = f"hex ({x.col}, {x.row})"
        if x.col < 0 or x.row < 0:
            raise MapError(f"{where} has a negative coordinate")
        if h in seen:
            raise MapError(f"{where} is listed twice")
        seen.add(h)
        if x.terrain not in TERRAINS:
            raise MapError(f"{where} has unknown terrain {x.terrain!r}")
        check_src(x.src, where)
        if x.town_name is not None and not x.town:
            raise MapError(f"{where} names a town but is not a town")
        if x.city is not None:
            _check_city(x.city, where, by_name, (*bag, "grey"))
            check_src(x.city.src, f"city {x.city.name}")
            if x.terrain == "sea":
                raise MapError(f"city {x.city.name} at {where} is on a sea hex")
            if x.town:
                raise MapError(f"{where} is both a city and a town")
            by_name[x.city.name] = h
            cities[h] = x.city
        if x.town:
            if x.terrain == "sea":
                raise MapError(f"town at {where} is on a sea hex")
            towns[h] = x.town_name or f"town {h}"
        if x.terrain != "sea":
            terrain[h] = x.terrain

    barriers: set[frozenset[str]] = set()
    for b in data.barriers:
        a, c = (hex_id(*b.between[0]), hex_id(*b.between[1]))
        where = f"barrier {list(b.between[0])}-{list(b.between[1])}"
        for end, coord in ((a, b.between[0]), (c, b.between[1])):
            if end not in terrain:
                raise MapError(f"{where}: {list(coord)} is not a playable hex of the map")
        if not hexgrid.are_neighbours(layout, b.between[0], b.between[1]):
            raise MapError(f"{where} joins hexes that are not neighbours under {layout}")
        edge = frozenset((a, c))
        if edge in barriers:
            raise MapError(f"{where} is listed twice")
        check_src(b.src, where)
        barriers.add(edge)

    ids: set[str] = set()
    for line in data.major_lines:
        where = f"major line {line.id!r}"
        if line.id in ids:
            raise MapError(f"{where} is listed twice")
        ids.add(line.id)
        for name in line.cities:
            if name not in by_name:
                raise MapError(f"{where} names {name!r}, which is no city on the map")
        if len(set(line.cities)) != len(line.cities):
            raise MapError(f"{where} names a city more than once")
        if line.vp < 0:
            raise MapError(f"{where} has negative points {line.vp}")
        if line.vp == 0 and not line.bonus:
            raise MapError(f"{where} awards nothing: give vp or describe the bonus")
        check_src(line.src, where)

    needed = sum(c.goods for c in cities.values())
    if needed > sum(bag.values()):
        raise MapError(f"set-up draws {needed} cubes but the bag holds {sum(bag.values())}")

    if data.new_cities is not None:
        tile_ids: set[str] = set()
        for tile in data.new_cities:
            if tile.id in tile_ids:
                raise MapError(f"new city tile {tile.id!r} is listed twice")
            tile_ids.add(tile.id)
            if tile.color not in bag:
                raise MapError(f"new city tile {tile.id!r} has colour {tile.color!r}; "
                               f"expected one of {', '.join(bag)}")
        new_cities = tuple(t.color for t in data.new_cities)
    else:
        # The base game's 12 new-city tiles, 3 each of yellow, black, blue, purple (review
        # 'A Game Built for Two', component list).
        new_cities = tuple(c for c in ("yellow", "black", "blue", "purple") if c in bag for _ in range(3))

    board = Board(id=board_id, name=data.name or board_id, layout=layout, terrain=terrain,
                  cities=cities, towns=towns, barriers=frozenset(barriers),
                  major_lines=data.major_lines, new_cities=new_cities, goods_bag=bag,
                  sources=dict(data.sources), city_by_name=by_name,
                  empty_city_end={int(k): int(v) for k, v in (data.empty_city_end or EMPTY_CITY_END).items()})
    for h in terrain:
        row = []
        for e in range(6):
            n = raw_neighbour(layout, h, e)
            row.append(n if n in terrain and frozenset((h, n)) not in barriers else None)
        board._nbr[h] = tuple(row)
    return board


def _check_city(city: City, where: str, by_name: dict[str, str], colours: tuple[str, ...]) -> None:
    if not city.name.strip():
        raise MapError(f"city at {where} has an empty name")
    if city.name in by_name:
        raise MapError(f"city name {city.name!r} is used twice ({by_name[city.name]} and {where})")
    if city.color not in colours:
        raise MapError(f"city {city.name} has unknown colour {city.color!r}; expected one of "
                       f"{', '.join(colours)}")
    if not 0 <= city.goods <= MAX_GOODS:
        raise MapError(f"city {city.name} starts with {city.goods} goods; expected 0..{MAX_GOODS}")
    if city.growth is not None and (not 1 <= city.growth.die <= 6 or city.growth.set not in ("white", "black")):
        raise MapError(f"city {city.name} has growth {city.growth}; expected a die 1..6 "
                       f"and set white or black")


_CACHE: dict[str, Board] = {}
DEFAULT_MAP = "england_wales"


def board_from_path(path: str | Path) -> str:
    """Register a map file (tests' maps) and return the board id states will carry."""
    p = Path(path).resolve()
    bid = f"file:{p}"
    if bid not in _CACHE:
        _CACHE[bid] = load_board(bid, p.read_bytes())
    return bid


def get_board(board_id: str) -> Board:
    b = _CACHE.get(board_id)
    if b is None:
        if board_id == DEFAULT_MAP:
            b = load_board(board_id, DATA_FILE.read_bytes())
        elif board_id.startswith("file:"):
            b = load_board(board_id, Path(board_id[5:]).read_bytes())
        else:
            raise MapError(f"unknown board {board_id!r}")
        _CACHE[board_id] = b
    return b

