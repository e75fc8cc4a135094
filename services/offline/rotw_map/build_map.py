"""Builds `map.json` from `geography.py` and `design.py`: lays a pointy-top hex grid over real
England and Wales and reads each hex's terrain off the shapes there.

    python -m services.offline.rotw_map.build_map          # rewrite map.json
    python -m services.offline.rotw_map.build_map --check  # exit 1 if it is stale

Deterministic: same inputs, byte-identical output (a test holds map.json to that). Hand
edits belong in geography.py / design.py, never in map.json.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import deque
from collections.abc import Iterable, Sequence

from shared.games.rotw_england_wales.board import DATA_FILE
from shared.games.rotw_england_wales.hexgrid import distance, neighbours

from services.offline.rotw_map import design, geography

OUTPUT = DATA_FILE

LAYOUT = "pointy-odd-r"
HEX_KM = 19.0  # centre-to-centre distance of neighbouring hexes
ROW_KM = HEX_KM * math.sqrt(3) / 2
LON0 = -2.0  # central meridian of the sinusoidal projection
LAT_TOP = 55.95  # a little north of Berwick: row 0
LON_LEFT = -5.85  # a little west of Land's End: column 0

LAND_SHARE = 0.45  # a hex is on the board when at least this share of it is land
UPLAND_SHARE = 0.5  # ... and a mountain when at least this share of it is upland
WATER_KM = 0.40 * HEX_KM  # ... and a water hex when a river passes this close to its centre

SOURCES = {
    "S1": "Seed rules /work/shared/seeds/001_5de0bb6cd2ab3cae.txt (Czech translation of the "
          "Railways of England and Wales rules): hex kinds (city, mountain marked by a dot, "
          "open terrain, water), costs $2,000/$3,000/$4,000, barriers on hex edges, no ridges, "
          "major lines printed on the board, empty-city markers 9/11/13/15 for 2-5 players",
    "S2": "https://www.boardgamegeek.com/thread/1121016/"
          "enders-comprehensive-pictorial-overview-second-com (BoardGameGeek, 'Ender's "
          "comprehensive pictorial overview' of Railways of Great Britain, 2013): Great "
          "Britain re-implements and replaces the England and Wales map, on a smaller board, "
          "with cosmetic tweaks",
    "S3": "https://drakesflames.blogspot.com/2011/02/expansion-review-railways-of-england.html "
          "(review): the England and Wales box holds a basic game and an advanced share game",
    "S4": "https://en.boardgamearena.com/doc/Gamehelprailwaysoftheworld (Board Game Arena "
          "help): Railways of the World maps include Great Britain; goods colours red, blue, "
          "black, yellow, purple",
    "S5": "https://agamebuiltfortwo.blogspot.com/2012/02/railways-of-world.html (review of the "
          "base game): 125 goods cubes in five colours; 12 new city tiles (3 yellow, 3 black, "
          "3 blue, 3 purple); 24 empty city markers",
    "S6": "https://forums.saskgames.com/index.php?topic=202.20 (forum variant): 25 cubes of "
          "each colour; grey cities and coloured cities graded grey < blue/yellow/purple/black "
          "< red",
    "G1": "Real geography of England and Wales (coast, uplands, rivers, town positions), "
          "written by hand in geography.py from general geographic knowledge; projected onto "
          "the hex grid by build_map.py",
}

Point = tuple[float, float]  # (x km east, y km south)


def project(lat: float, lon: float) -> Point:
    """Sinusoidal projection about LON0: areas and north-south distances stay true."""
    x = (lon - LON0) * 111.32 * math.cos(math.radians(lat))
    y = (LAT_TOP - lat) * 111.2
    return x, y


_X_LEFT = project(52.5, LON_LEFT)[0]


def centre(col: int, row: int) -> Point:
    return (_X_LEFT + HEX_KM * (col + 0.5 * (row & 1)), row * ROW_KM)


def hex_at(point: Point) -> tuple[int, int]:
    """The grid hex whose centre is nearest to a point."""
    x, y = point
    row_guess = round(y / ROW_KM)
    best: tuple[float, tuple[int, int]] | None = None
    for row in range(row_guess - 1, row_guess + 2):
        col = round((x - _X_LEFT) / HEX_KM - 0.5 * (row & 1))
        for c in (col - 1, col, col + 1):
            cx, cy = centre(c, row)
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0]:
                best = (d, (c, row))
    assert best is not None
    return best[1]


def _samples(col: int, row: int) -> list[Point]:
    """Points spread evenly over the hex (a triangular lattice clipped to it)."""
    cx, cy = centre(col, row)
    step = HEX_KM / 7
    inner = HEX_KM / 2
    points = []
    for j in range(-4, 5):
        for i in range(-4, 5):
            x = (i + 0.5 * (j & 1)) * step
            y = j * step * math.sqrt(3) / 2
            # inside a pointy hex of inradius `inner`: three slab tests
            if abs(x) <= inner and abs(x * 0.5 + y * math.sqrt(3) / 2) <= inner and \
                    abs(x * 0.5 - y * math.sqrt(3) / 2) <= inner:
                points.append((cx + x, cy + y))
    return points


def _inside(point: Point, polygon: Sequence[Point]) -> bool:
    x, y = point
    result = False
    j = len(polygon) - 1
    for i, (xi, yi) in enumerate(polygon):
        xj, yj = polygon[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            result = not result
        j = i
    return result


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _crosses(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def _projected(points: Iterable[tuple[float, float]]) -> list[Point]:
    return [project(lat, lon) for lat, lon in points]


def build() -> tuple[dict, list[str]]:
    report: list[str] = []
    coast = _projected(geography.COAST)
    uplands = {name: _projected(poly) for name, poly in geography.UPLANDS.items()}
    waters = {name: _projected(line) for name, line in geography.WATERS.items()}
    barrier_lines = {name: _projected(line) for name, line in geography.BARRIER_LINES.items()}

    max_x = max(x for x, _ in coast) + HEX_KM
    max_y = max(y for _, y in coast) + HEX_KM
    cols = int((max_x - _X_LEFT) / HEX_KM) + 2
    rows = int(max_y / ROW_KM) + 2

    land: dict[tuple[int, int], dict] = {}
    for row in range(rows):
        for col in range(cols):
            samples = _samples(col, row)
            on_land = [p for p in samples if _inside(p, coast)]
            if len(on_land) < LAND_SHARE * len(samples):
                continue
            upland_names = sorted(
                name for name, poly in uplands.items()
                if sum(_inside(p, poly) for p in on_land) >= UPLAND_SHARE * len(on_land) / 2)
            upland_share = sum(any(_inside(p, poly) for poly in uplands.values()) for p in on_land)
            mountain = upland_share >= UPLAND_SHARE * len(on_land)
            c = centre(col, row)
            water_names = sorted(
                name for name, line in waters.items()
                if min(_segment_distance(c, a, b) for a, b in zip(line, line[1:])) <= WATER_KM)
            land[(col, row)] = {
                "mountain": mountain, "water": water_names,
                "upland": upland_names if mountain else [],
            }

    # Keep the one connected landmass (drops specks of coast that are not England or Wales).
    start = max(land, key=lambda h: sum(n in land for n in neighbours(LAYOUT, *h)))
    seen = {start}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in neighbours(LAYOUT, *h):
            if n in land and n not in seen:
                seen.add(n)
                queue.append(n)
    detached = set(land) - seen
    for h in sorted(detached):
        report.append(f"dropped detached land hex {h}")
        del land[h]

    # Cities: true hex first; if it is taken or touches a placed city, the nearest free
    # neighbour of it (no two cities side by side: every link needs a track hex).
    city_at: dict[tuple[int, int], design.CitySpec] = {}
    for spec in design.CITIES:
        p = project(spec.lat, spec.lon)
        true_hex = hex_at(p)
        ring1 = set(neighbours(LAYOUT, *true_hex))
        ring2 = {n for h in ring1 for n in neighbours(LAYOUT, *h)} - ring1 - {true_hex}
        candidates = [true_hex] + sorted(ring1, key=lambda h: math.dist(centre(*h), p)) + \
            sorted(ring2, key=lambda h: math.dist(centre(*h), p))
        for h in candidates:
            if h in land and all(distance(LAYOUT, h, other) >= 2 for other in city_at):
                city_at[h] = spec
                if h != true_hex:
                    report.append(f"moved {spec.name} {distance(LAYOUT, h, true_hex)} hex(es) "
                                  f"from {true_hex} to {h}")
                break
        else:
            report.append(f"NOT PLACED {spec.name} near {true_hex}")

    barriers = []
    for h in sorted(land):
        # sorted, so the file does not depend on how hexgrid numbers the edges
        for n in sorted(neighbours(LAYOUT, *h)):
            if n in land and h < n:
                for name, line in barrier_lines.items():
                    if any(_crosses(centre(*h), centre(*n), a, b) for a, b in zip(line, line[1:])):
                        barriers.append({"between": [list(h), list(n)], "src": ["S1", "G1"],
                                         "reconstructed": True, "note": name})
                        break

    # Sea: every other position of the grid's rectangle, except Scotland (off the board).
    scotland = _projected(geography.SCOTLAND)
    max_col = max(c for c, _ in land)
    max_row = max(r for _, r in land)
    sea = {(c, r) for r in range(max_row + 2) for c in range(max_col + 2)
           if (c, r) not in land and not _inside(centre(c, r), scotland)}

    hexes = []
    for (col, row) in sorted(set(land) | sea, key=lambda h: (h[1], h[0])):
        if (col, row) in sea:
            water: dict = {"col": col, "row": row, "terrain": "sea", "city": None,
                            "town": False, "src": ["G1"], "reconstructed": True}
            if (col, row) in detached:
                water["note"] = "a speck of coast cut off from the rest at this scale"
            hexes.append(water)
            continue
        info = land[(col, row)]
        here = city_at.get((col, row))
        if info["mountain"]:
            terrain = "mountain_water" if info["water"] else "mountain"
        else:
            terrain = "water" if info["water"] else "plain"
        entry: dict = {"col": col, "row": row, "terrain": terrain, "city": None,
                       "town": False, "src": ["G1"], "reconstructed": True}
        features = info["upland"] + info["water"]
        if here is not None:
            entry["terrain"] = "plain"
            entry["city"] = {"name": here.name, "color": here.color,
                             "goods": design.GOODS_BY_COLOR[here.color], "growth": None,
                             "region": here.region, "src": ["G1", "S6"], "reconstructed": True}
            if terrain != "plain":
                features = [f"city on {terrain} ground"] + features
        if features:
            entry["note"] = ", ".join(features)
        hexes.append(entry)

    data = {
        "format": 1,
        "name": "England and Wales",
        "layout": LAYOUT,
        "hex_km": HEX_KM,
        "sources": SOURCES,
        "hexes": hexes,
        "barriers": barriers,
        "major_lines": _major_lines(land, city_at, barriers, report),
        "new_cities": [{"id": chr(ord("A") + i), "color": color, "src": ["S5"],
                        "reconstructed": False}
                       for i, color in enumerate(["yellow"] * 3 + ["black"] * 3 + ["blue"] * 3
                                                 + ["purple"] * 3)],
        "goods_bag": {color: 25 for color in ("red", "yellow", "blue", "purple", "black")},
        "goods_growth": None,
        "notes": "Reconstruction: no public data of the printed board exists. The grid, terrain, "
                 "city list, colours, goods, barriers and major-line points are derived from "
                 "real geography and Railways of the World conventions; see map_notes.md. "
                 "Generated by build_map.py from geography.py and design.py; do not edit by hand.",
    }
    return data, report


def _route_tiles(land: dict, cities: dict, blocked: set, a: tuple[int, int],
                 b: tuple[int, int]) -> int:
    """Fewest track hexes of a route from city a to city b that passes no other city."""
    dist = {a: 0}
    queue = deque([a])
    while queue:
        h = queue.popleft()
        for n in neighbours(LAYOUT, *h):
            if n not in land or n in dist or frozenset((h, n)) in blocked:
                continue
            if n == b:
                return dist[h]
            if n in cities:
                continue
            dist[n] = dist[h] + 1
            queue.append(n)
    raise SystemExit(f"no route between {cities[a].name} and {cities[b].name}")


def _major_lines(land: dict, city_at: dict, barriers: list, report: list[str]) -> list[dict]:
    by_name = {spec.name: h for h, spec in city_at.items()}
    blocked = {frozenset(tuple(x) for x in b["between"]) for b in barriers}
    lines = []
    for spec in design.MAJOR_LINES:
        tiles = sum(_route_tiles(land, city_at, blocked, by_name[x], by_name[y])
                    for x, y in zip(spec.cities, spec.cities[1:]))
        # Points: one for every three track hexes of the shortest route, at least 2 — the
        # scale of the base game's major-line cards (reconstructed, see map_notes.md).
        vp = max(2, math.ceil(tiles / 3))
        report.append(f"major line {spec.id}: {tiles} track hexes -> {vp} VP")
        lines.append({"id": spec.id, "name": spec.name, "from": spec.cities[0],
                      "to": spec.cities[-1], "via": list(spec.cities[1:-1]), "vp": vp,
                      "history": spec.history, "min_track_hexes": tiles,
                      "src": ["S1", "G1"], "reconstructed": True})
    return lines


def render(data: dict) -> str:
    """JSON with one hex, barrier or line per row, so diffs stay readable."""
    out = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        value = data[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            out.append(f"  {json.dumps(key)}: [")
            for j, item in enumerate(value):
                sep = "," if j < len(value) - 1 else ""
                out.append(f"    {json.dumps(item, ensure_ascii=False)}{sep}")
            out.append(f"  ]{comma}")
        elif isinstance(value, dict):
            inner = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
            out.append(f"  {json.dumps(key)}: {inner}{comma}")
        else:
            out.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    out.append("}")
    return "\n".join(out) + "\n"


def ascii_board(data: dict) -> str:
    """The board as text, two characters a hex, odd rows shifted: . plain, ~ water,
    ^ mountain, & mountain with water, a letter for a city (its initial)."""
    symbol = {"plain": ".", "water": "~", "mountain": "^", "mountain_water": "&", "sea": " "}
    cells = {(h["col"], h["row"]): (h["city"]["name"][0] if h["city"] else symbol[h["terrain"]])
             for h in data["hexes"]}
    max_col = max(c for c, _ in cells)
    max_row = max(r for _, r in cells)
    lines = []
    for row in range(max_row + 1):
        line = " " * (row & 1) + " ".join(cells.get((col, row), " ") for col in range(max_col + 1))
        lines.append(f"{row:3d} {line.rstrip()}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if map.json is stale")
    parser.add_argument("--report", action="store_true", help="print placement decisions")
    parser.add_argument("--ascii", action="store_true", help="print the board as text")
    args = parser.parse_args(argv)
    data, report = build()
    text = render(data)
    if args.report:
        print("\n".join(report))
    if args.ascii:
        print(ascii_board(data))
    if args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT} is stale: run build_map.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    playable = sum(1 for h in data["hexes"] if h["terrain"] != "sea")
    print(f"wrote {OUTPUT} ({playable} playable hexes, {len(data['hexes']) - playable} sea)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
