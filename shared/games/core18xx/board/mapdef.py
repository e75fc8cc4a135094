"""The static side of a board: hexes with their preprinted tiles, the tile manifest, homes.

Loaded once per title from its JSON data; never part of a game state. `BoardState`
(board.py) records only what changed from this.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path as FsPath

import msgspec

from shared.games.core18xx.board import hexgrid
from shared.games.core18xx.board.tiles import TileDef, parse


class HexDef(msgspec.Struct, frozen=True):
    coord: str
    tile: TileDef  # the preprinted tile (named after the hex, rotation 0)
    name: str | None = None
    index: int = 0  # 18xx.games names a preprinted tile "HEX-index" (index within its map group)


class MapDef(msgspec.Struct, frozen=True, dict=True):
    title: str
    layout: str
    hexes: dict[str, HexDef]
    tiles: dict[str, TileDef]  # layable tiles by name
    counts: dict[str, int]  # manifest: how many of each tile exist
    homes: dict[str, tuple[str, int | None]]  # corporation -> (hex, city index or None)
    impassable_colors: tuple[str, ...] = ("blue", "gray", "red")
    axes: str = "letter-x"  # 18xx.games AXES: "letter-x" (x: :letter) or "number-x" (x: :number)
    # hexes whose cities hold tokens that are no railheads: a corporation's network is not walked
    # from them (18xx.games' skip_token?; 1841's mountain passes), though walks pass through them
    no_start_hexes: frozenset[str] = frozenset()
    # an impassable border blocks only the hex that lists it, as 18xx.games' connect_hexes reads
    # borders (1841); by default a border listed on either side blocks both
    one_sided_borders: bool = False

    @cached_property
    def order(self) -> dict[str, int]:
        """A dense index per hex (bit positions for track masks)."""
        return {c: i for i, c in enumerate(sorted(self.hexes, key=lambda c: hexgrid.xy(c, self.axes)))}

    @cached_property
    def tile_ids(self) -> tuple[str, ...]:
        """Every tile instance as 18xx.games names it ("7-0", "7-1", ...), in its supply order."""
        return tuple(f"{name}-{i}" for name, n in self.counts.items() for i in range(n))

    @cached_property
    def tile_ids_by_name(self) -> dict[str, tuple[str, ...]]:
        """`tile_ids` grouped by tile name (the id less its last "-copy"), in supply order."""
        out: dict[str, list[str]] = {}
        for i in self.tile_ids:
            out.setdefault(i.rpartition("-")[0], []).append(i)
        return {name: tuple(ids) for name, ids in out.items()}

    @cached_property
    def geometry(self) -> dict[str, tuple[str | None, ...]]:
        """hex -> neighbour coordinate across each edge 0..5, None where no map hex is there or an
        impassable border separates them (a border on either side counts)."""
        out: dict[str, tuple[str | None, ...]] = {}
        for coord, h in self.hexes.items():
            row: list[str | None] = []
            for edge in range(6):
                other = hexgrid.neighbour(coord, edge, self.layout, self.axes)  # type: ignore[arg-type]
                if other not in self.hexes:
                    row.append(None)
                    continue
                blocked = any(b.edge == edge and b.type == "impassable" for b in h.tile.borders) or (
                    not self.one_sided_borders and any(b.edge == hexgrid.invert(edge) and b.type == "impassable"
                                                       for b in self.hexes[other].tile.borders))
                row.append(None if blocked else other)
            out[coord] = tuple(row)
        return out

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        """hex -> its neighbours in `geometry` (the Nones left out)."""
        return {c: tuple(x for x in row if x is not None) for c, row in self.geometry.items()}

    @cached_property
    def facing(self) -> dict[str, tuple[tuple[str, int], ...]]:
        """hex -> (neighbour, edge of this hex towards it) for every hex whose `geometry` has
        this one as a neighbour: who reads this hex's tile when it looks across its edges."""
        out: dict[str, list[tuple[str, int]]] = {c: [] for c in self.hexes}
        for coord, row in self.geometry.items():
            for edge, other in enumerate(row):
                if other is not None:
                    out[other].append((coord, hexgrid.invert(edge)))
        return {c: tuple(v) for c, v in out.items()}


def load(path: str | FsPath) -> MapDef:
    return from_data(json.loads(FsPath(path).read_text()))


def from_data(data: dict) -> MapDef:
    """A MapDef from the JSON structure (title, layout, axes, hexes, tiles, homes, no_start_hexes, one_sided_borders)."""
    hexes = {
        coord: HexDef(coord, parse(coord, h["color"], h["code"]), h.get("name"), int(h.get("index", 0)))
        for coord, h in data["hexes"].items()
    }
    tiles = {name: parse(name, t["color"], t["code"]) for name, t in data["tiles"].items()}
    counts = {name: int(t["count"]) for name, t in data["tiles"].items()}
    homes = {corp: (v[0], v[1]) for corp, v in data.get("homes", {}).items()}
    axes = data.get("axes", {"x": "letter", "y": "number"})
    return MapDef(data.get("title", ""), data.get("layout", "flat"), hexes, tiles, counts, homes,
                  tuple(data.get("impassable_colors", ("blue", "gray", "red"))),
                  "letter-x" if axes.get("x", "letter") == "letter" else "number-x",
                  frozenset(data.get("no_start_hexes", ())), bool(data.get("one_sided_borders", False)))
