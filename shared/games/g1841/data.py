"""1841's static data for each option set: the map (through the core's map reader), the
entities, the market, phases and trains. No rules here: only what the game is printed with.

`map.json` and `entities.json` hold the default game in full and, under `variants`, what the
`version_1`, `lite` and `lite+version_1` option sets change (hexes, tiles, corporations,
concessions, trains, bank, cash; `sfli_run_variant` and `p2p_purchases` change no data).

The core's tile reader does not know two things 1841's codes use, so `core_code` hands it a
reading it does know and keeps the rest here. A mountain pass (18xx.games' `pass` part, a kind
of city) is read as a city; its pass `size` (only a pass of the same size may replace it) is kept
in `passes`/`pass_tiles`. A port (a town on a blue sea hex) is read as a plain town and listed in
`ports`. Both carry 18xx.games' `route: never`, which the core does not model: such a stop never
counts toward whether a company has a route at all (its graph wants two other stops), though a
train may run to it (a pass pays nothing and counts toward a 2- to 7-train's length; a port pays
its revenue) and a route still needs two stops that are neither.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from shared.games.core18xx.board import hexgrid, mapdef

HERE = Path(__file__).parent
VARIANTS = ("default", "version_1", "lite", "lite+version_1")
PASS_ONLY_PARAMS = ("size", "color", "route")


def variant(options: dict[str, Any]) -> str:
    """The data set an option set plays on."""
    lite, v1 = bool(options.get("lite")), bool(options.get("version_1"))
    return "lite+version_1" if lite and v1 else "lite" if lite else "version_1" if v1 else "default"


@cache
def _raw(name: str) -> dict[str, Any]:
    return json.loads((HERE / name).read_text(encoding="utf-8"))


def _check(name: str) -> str:
    if name not in VARIANTS:
        raise ValueError(f"no 1841 data set {name!r}; they are {', '.join(VARIANTS)}")
    return name


def _with_variant(file: str, name: str, collections: tuple[str, ...], replaced: tuple[str, ...]) -> dict[str, Any]:
    """One data file with a variant applied: its `collections` (dicts, or lists of entries by
    `sym`) changed and trimmed entry by entry, its `replaced` keys taken whole from the variant."""
    raw = _raw(file)
    out = {k: v for k, v in raw.items() if k != "variants"}
    change = raw["variants"].get(_check(name), {})
    for key in collections:
        keyed = isinstance(raw[key], dict)
        base = raw[key] if keyed else {e["sym"]: e for e in raw[key]}
        # an entry added in place of a removed one takes its position (18xx.games builds the
        # lists in that order, and some of its rules go by it)
        in_place_of = change.get(f"{key}_in_place_of", {})
        where = {old: new for new, old in in_place_of.items()}
        merged = {}
        for k, v in base.items():
            merged[where.get(k, k)] = change[key][where[k]] if k in where else v
        merged.update({k: v for k, v in change.get(key, {}).items() if k not in in_place_of})
        for gone in change.get(f"removed_{key}", []):
            if gone not in in_place_of.values():
                merged.pop(gone)
        out[key] = merged if keyed else list(merged.values())
    for key in replaced:
        if key in change:
            out[key] = change[key]
    return out


@cache
def map_data(name: str = "default") -> dict[str, Any]:
    """The map of one data set in `map.json`'s shape, its variant applied."""
    return _with_variant("map.json", name, ("hexes", "tiles"), ("regions_by_phase", "offboard_groups"))


def _parts(code: str) -> list[tuple[str, dict[str, str]]]:
    out = []
    for part in filter(None, (p.strip() for p in code.split(";"))):
        kind, _, rest = part.partition("=")
        params = dict(item.partition(":")[::2] for item in rest.split(",")) if ":" in rest else {}
        out.append((kind, params) if params or not rest else (kind, {"": rest}))
    return out


def _code(parts: list[tuple[str, dict[str, str]]]) -> str:
    def text(kind: str, params: dict[str, str]) -> str:
        if "" in params:
            return f"{kind}={params['']}"
        return f"{kind}={','.join(f'{k}:{v}' for k, v in params.items())}" if params else kind
    return ";".join(text(k, p) for k, p in parts)


def core_code(code: str) -> tuple[str, int | None, bool]:
    """(the code as the core's reader takes it, the pass size if the tile is a pass, whether
    its towns are ports)."""
    parts = _parts(code)
    size: int | None = None
    port = False
    out = []
    for kind, params in parts:
        if kind == "pass":
            size = int(params.get("size", 1))
            kind, params = "city", {k: v for k, v in params.items() if k not in PASS_ONLY_PARAMS}
        elif kind == "town" and params.get("route") == "never":
            port = True
            params = {k: v for k, v in params.items() if k != "route"}
        out.append((kind, params))
    return (_code(out) if size is not None or port else code), size, port


@cache
def the_map(name: str = "default") -> mapdef.MapDef:
    """The data set's map through the core's reader, with the corporations' reserved homes
    and its passes as hexes whose tokens start no network."""
    data = map_data(name)
    core = {
        "title": data["title"], "layout": data["layout"], "axes": data["axes"],
        "impassable_colors": data["impassable_colors"],
        "hexes": {c: {**h, "code": core_code(h["code"])[0]} for c, h in data["hexes"].items()},
        "tiles": {n: {**t, "code": core_code(t["code"])[0]} for n, t in data["tiles"].items()},
        "homes": homes(name),
        # tokens on passes are no railheads (18xx.games' skip_token?): pass tiles only replace
        # passes, so the printed pass hexes are every pass the game will have
        "no_start_hexes": sorted(passes(name)),
        # 18xx.games reads a border on the side that lists it (G3's toward I3 is listed once)
        "one_sided_borders": True,
    }
    return mapdef.from_data(core)


def _pass_sizes(codes: dict[str, dict[str, Any]]) -> dict[str, int]:
    sizes = {key: core_code(item["code"])[1] for key, item in codes.items()}
    return {key: size for key, size in sizes.items() if size is not None}


@cache
def passes(name: str = "default") -> dict[str, int]:
    """Preprinted mountain passes: hex -> pass size."""
    return _pass_sizes(map_data(name)["hexes"])


@cache
def pass_tiles(name: str = "default") -> dict[str, int]:
    """Layable pass tiles: tile name -> pass size."""
    return _pass_sizes(map_data(name)["tiles"])


@cache
def ports(name: str = "default") -> tuple[str, ...]:
    return tuple(sorted(c for c, h in map_data(name)["hexes"].items() if core_code(h["code"])[2]))


@cache
def entities(name: str = "default") -> dict[str, Any]:
    """Entities, market, phases, trains, bank and cash of one data set."""
    return _with_variant("entities.json", name, ("corporations", "companies"),
                         ("trains", "bank", "starting_cash", "player_range"))


def homes(name: str = "default") -> dict[str, tuple[str, int | None]]:
    """Corporation -> its first reserved home (hex, city index or None), for those that have one."""
    out = {}
    for corp in entities(name)["corporations"]:
        where = corp.get("coordinates")
        if where:
            first = where[0] if isinstance(where, list) else where
            out[corp["sym"]] = (first, corp.get("city"))
    return out


def home_hexes(name: str = "default") -> dict[str, tuple[str, ...]]:
    """Corporation -> every home hex it starts with (IRSFF and SFTG have two)."""
    out = {}
    for corp in entities(name)["corporations"]:
        where = corp.get("coordinates")
        if where:
            out[corp["sym"]] = tuple(where) if isinstance(where, list) else (where,)
    return out


@cache
def region_borders(name: str, phase: int) -> frozenset[tuple[str, int]]:
    """The province borders standing in a phase, as (hex, edge) on both sides of each.

    18xx.games (`setup`, `event_phase4_regions!`, `event_phase5_regions!`): phase 2's borders
    from the start; the first 4-train replaces them with phase 4's, the first 5-train those with
    phase 5's, which stay to the end (phases 6-8 have no border event)."""
    if phase < 2:
        raise ValueError(f"1841 has no phase {phase}")
    borders = map_data(name)["regions_by_phase"]["2" if phase < 4 else "4" if phase == 4 else "5"]
    the_hexes = the_map(name)
    out: set[tuple[str, int]] = set()
    for coord, edges in borders.items():
        for edge in edges:
            other = hexgrid.neighbour(coord, edge, the_hexes.layout, the_hexes.axes)  # type: ignore[arg-type]
            out |= {(coord, edge), (other, hexgrid.invert(edge))}
    return frozenset(out)
