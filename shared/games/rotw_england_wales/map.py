"""Loads and checks a Railways of the World map file (`map.json`, format in MAP_FORMAT.md).

`load_map()` returns a `Board`: the playable hexes, the cities by name, the barrier edges and
the major lines, with neighbour look-ups that already leave out off-map positions and edges
across a barrier. Any defect in the file raises `MapError` naming the hex, edge or line.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from shared.games.rotw_england_wales.hexgrid import LAYOUTS, are_neighbours, neighbours

DATA_FILE = Path(__file__).with_name("map.json")

TERRAINS = ("plain", "water", "mountain", "mountain_water", "sea")
GOODS_COLORS = ("red", "yellow", "blue", "purple", "black")  # the base game's cube colours
COLORS = (*GOODS_COLORS, "grey")  # grey cities accept no deliveries; there are no grey cubes
MAX_GOODS = 6  # more cubes than any printed city holds; catches typos such as 22
# Building cost of one track hex by terrain (seed rules: open $2,000, water $3,000,
# mountain $4,000; a mountain that shows water is still a mountain).
TERRAIN_COST = {"plain": 2000, "water": 3000, "mountain": 4000, "mountain_water": 4000}

Coord = tuple[int, int]


class MapError(ValueError):
    """The map file breaks the format or its own consistency rules."""


class Growth(msgspec.Struct, frozen=True, forbid_unknown_fields=False):
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
    terrain: str
    city: City | None = None
    town: bool = False
    town_name: str | None = None
    src: tuple[str, ...] = ()
    reconstructed: bool = False
    note: str | None = None

    @property
    def coord(self) -> Coord:
        return (self.col, self.row)


class Barrier(msgspec.Struct, frozen=True):
    between: tuple[tuple[int, int], tuple[int, int]]
    src: tuple[str, ...] = ()
    reconstructed: bool = False
    note: str | None = None


class MajorLine(msgspec.Struct, frozen=True):
    id: str
    name: str
    from_: str = msgspec.field(name="from")
    to: str
    via: tuple[str, ...] = ()
    vp: int = 0
    bonus: str | None = None
    src: tuple[str, ...] = ()
    reconstructed: bool = False

    @property
    def cities(self) -> tuple[str, ...]:
        return (self.from_, *self.via, self.to)


class NewCity(msgspec.Struct, frozen=True):
    id: str
    color: str


class MapFile(msgspec.Struct, frozen=True):
    format: int
    name: str
    layout: str
    hexes: tuple[Hex, ...]
    sources: dict[str, str] = {}
    barriers: tuple[Barrier, ...] = ()
    major_lines: tuple[MajorLine, ...] = ()
    new_cities: tuple[NewCity, ...] | None = None
    goods_bag: dict[str, int] | None = None
    goods_growth: Any = None
    notes: str = ""


@dataclass(frozen=True)
class Board:
    name: str
    layout: str
    hexes: dict[Coord, Hex]  # playable hexes only (sea left out)
    city_hex: dict[str, Coord]  # city name -> its hex
    blocked: frozenset[frozenset[Coord]]  # barrier edges
    major_lines: tuple[MajorLine, ...]
    new_cities: tuple[NewCity, ...] | None
    goods_bag: dict[str, int]  # cubes in the bag before set-up, by colour
    sources: dict[str, str]

    def city(self, name: str) -> City:
        city = self.hexes[self.city_hex[name]].city
        assert city is not None
        return city

    def cities(self) -> list[City]:
        return [h.city for h in self.hexes.values() if h.city is not None]

    def neighbours(self, coord: Coord) -> list[Coord]:
        """Playable hexes next to `coord` that track may reach from it (no barrier between)."""
        return [n for n in neighbours(self.layout, *coord)
                if n in self.hexes and frozenset((coord, n)) not in self.blocked]

    def reachable(self, start: Coord, through_cities: bool = True) -> set[Coord]:
        """Hexes a line of track could reach from `start`. With `through_cities` false a
        route stops at the first city it enters, as a Railways of the World link does."""
        seen = {start}
        queue = deque([start])
        while queue:
            h = queue.popleft()
            if h != start and not through_cities and self.hexes[h].city is not None:
                continue
            for n in self.neighbours(h):
                if n not in seen:
                    seen.add(n)
                    queue.append(n)
        return seen

    def track_hexes_between(self, a: str, b: str) -> int | None:
        """Fewest track hexes of a single link from city a to city b (None if none exists)."""
        start, goal = self.city_hex[a], self.city_hex[b]
        dist = {start: 0}
        queue = deque([start])
        while queue:
            h = queue.popleft()
            for n in self.neighbours(h):
                if n == goal:
                    return dist[h]
                if n in dist or self.hexes[n].city is not None:
                    continue
                dist[n] = dist[h] + 1
                queue.append(n)
        return None


def load_map(path: Path | str = DATA_FILE) -> Board:
    return parse_map(Path(path).read_bytes())


def parse_map(raw: bytes | str | dict[str, Any]) -> Board:
    """Decodes and checks a map; `raw` may be JSON text or an already parsed dict."""
    try:
        if isinstance(raw, dict):
            data = msgspec.convert(raw, type=MapFile)
        else:
            data = msgspec.json.decode(raw, type=MapFile)
    except msgspec.ValidationError as exc:
        raise MapError(f"map file does not match the format: {exc}") from None
    except msgspec.DecodeError as exc:
        raise MapError(f"map file is not valid JSON: {exc}") from None
    return _check(data)


def _check(data: MapFile) -> Board:
    if data.format != 1:
        raise MapError(f"unsupported map format {data.format}; this loader reads format 1")
    if data.layout not in LAYOUTS:
        raise MapError(f"unknown layout {data.layout!r}; expected one of {', '.join(LAYOUTS)}")

    def check_src(src: Iterable[str], where: str) -> None:
        for s in src:
            if s not in data.sources:
                raise MapError(f"{where} cites source {s!r}, which is not in 'sources'")

    bag = dict(data.goods_bag) if data.goods_bag is not None else {c: 20 for c in GOODS_COLORS}
    for colour, count in bag.items():
        if colour == "grey" or not colour.strip():
            raise MapError(f"goods_bag has colour {colour!r}; grey cities have no cubes")
        if count < 0:
            raise MapError(f"goods_bag has {count} {colour} cubes")
    colours = (*bag, "grey")

    hexes: dict[Coord, Hex] = {}
    seen: set[Coord] = set()
    city_hex: dict[str, Coord] = {}
    for h in data.hexes:
        where = f"hex ({h.col}, {h.row})"
        if h.col < 0 or h.row < 0:
            raise MapError(f"{where} has a negative coordinate")
        if h.coord in seen:
            raise MapError(f"{where} is listed twice")
        seen.add(h.coord)
        if h.terrain not in TERRAINS:
            raise MapError(f"{where} has unknown terrain {h.terrain!r}")
        check_src(h.src, where)
        if h.town_name is not None and not h.town:
            raise MapError(f"{where} names a town but is not a town")
        if h.city is not None:
            _check_city(h.city, where, city_hex, colours)
            check_src(h.city.src, f"city {h.city.name}")
            if h.terrain == "sea":
                raise MapError(f"city {h.city.name} at {where} is on a sea hex")
            if h.town:
                raise MapError(f"{where} is both a city and a town")
            city_hex[h.city.name] = h.coord
        if h.town and h.terrain == "sea":
            raise MapError(f"town at {where} is on a sea hex")
        if h.terrain != "sea":
            hexes[h.coord] = h

    blocked: set[frozenset[Coord]] = set()
    for b in data.barriers:
        a, c = (tuple(b.between[0]), tuple(b.between[1]))
        where = f"barrier {list(a)}-{list(c)}"
        for end in (a, c):
            if end not in hexes:
                raise MapError(f"{where}: {list(end)} is not a playable hex of the map")
        if not are_neighbours(data.layout, a, c):
            raise MapError(f"{where} joins hexes that are not neighbours under {data.layout}")
        edge = frozenset((a, c))
        if edge in blocked:
            raise MapError(f"{where} is listed twice")
        check_src(b.src, where)
        blocked.add(edge)

    ids: set[str] = set()
    for line in data.major_lines:
        where = f"major line {line.id!r}"
        if line.id in ids:
            raise MapError(f"{where} is listed twice")
        ids.add(line.id)
        for name in line.cities:
            if name not in city_hex:
                raise MapError(f"{where} names {name!r}, which is no city on the map")
        if len(set(line.cities)) != len(line.cities):
            raise MapError(f"{where} names a city more than once")
        if line.vp < 0:
            raise MapError(f"{where} has negative points {line.vp}")
        if line.vp == 0 and not line.bonus:
            raise MapError(f"{where} awards nothing: give vp or describe the bonus")
        check_src(line.src, where)

    needed = sum(h.city.goods for h in hexes.values() if h.city is not None)
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

    return Board(
        name=data.name, layout=data.layout, hexes=hexes, city_hex=city_hex,
        blocked=frozenset(blocked), major_lines=data.major_lines,
        new_cities=data.new_cities, goods_bag=bag, sources=dict(data.sources))


def _check_city(city: City, where: str, city_hex: dict[str, Coord],
                colours: tuple[str, ...]) -> None:
    if not city.name.strip():
        raise MapError(f"city at {where} has an empty name")
    if city.name in city_hex:
        raise MapError(f"city name {city.name!r} is used twice ({list(city_hex[city.name])} "
                       f"and {where})")
    if city.color not in colours:
        raise MapError(f"city {city.name} has unknown colour {city.color!r}; expected one of "
                       f"{', '.join(colours)}")
    if not 0 <= city.goods <= MAX_GOODS:
        raise MapError(f"city {city.name} starts with {city.goods} goods; expected 0..{MAX_GOODS}")
    if city.growth is not None:
        if not 1 <= city.growth.die <= 6 or city.growth.set not in ("white", "black"):
            raise MapError(f"city {city.name} has growth {city.growth}; expected a die 1..6 "
                           f"and set white or black")
