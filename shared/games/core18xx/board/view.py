"""A JSON-able picture of the board for views and the web page (no rules here).

Each hex: where it sits (doubled x/y, so a client can place it for either layout), its tile
(name, colour, rotation, label, terrain cost), absolute track (ends as edges 0..5 or node
indices, with gauge), its nodes (kind, revenue now, slots with owners, reservations) and
impassable borders. Plus the tile supply.
"""

from __future__ import annotations

from typing import Any

from shared.games.core18xx.board import hexgrid
from shared.games.core18xx.board.mapdef import MapDef
from shared.games.core18xx.board.state import BoardState, available_tiles, slots, tile_at
from shared.games.core18xx.board.tiles import NODE


def hex_view(m: MapDef, b: BoardState, coord: str, phase_colors: tuple[str, ...]) -> dict[str, Any]:
    t = tile_at(m, b, coord)
    h = m.hexes[coord]
    x, y = hexgrid.xy(coord, m.axes)
    owners = slots(m, b, coord)
    reserved = b.reservations.get(coord, ())
    nodes = []
    for i, n in enumerate(t.tile.nodes):
        node: dict[str, Any] = {"kind": n.kind}
        if n.kind != "junction":
            node["revenue"] = n.value(phase_colors)
            if n.phase_revenue:
                node["phase_revenue"] = dict(n.phase_revenue)
            node["id"] = f"{coord}-{n.part}"
            node["edges"] = list(t.node_edges[i])
        if n.kind == "city":
            node["slots"] = [o or None for o in owners[i]]
            node["reserved"] = [r.corp for r in reserved if r.city == i and r.corp]
        nodes.append(node)
    return {
        "hex": coord,
        "x": x,
        "y": y,
        "name": h.name,
        "tile": t.tile.name if coord in b.tiles else None,
        "tile_id": b.ids.get(coord),
        "color": t.tile.color,
        "rotation": t.rotation,
        "label": t.tile.label,
        "cost": h.tile.upgrade_cost if coord not in b.tiles else t.tile.upgrade_cost,
        "terrain": list(h.tile.terrain) if coord not in b.tiles else list(t.tile.terrain),
        "paths": [
            {"a": p.a if p.a < NODE else f"n{p.a - NODE}", "b": p.b if p.b < NODE else f"n{p.b - NODE}",
             "track": p.track}
            for p in t.paths
        ],
        "nodes": nodes,
        "borders": [bd.edge for bd in h.tile.borders if bd.type == "impassable"],
        "reserved_hex": [r.corp for r in reserved if r.city < 0],
    }


def board_view(m: MapDef, b: BoardState, phase_colors: tuple[str, ...]) -> dict[str, Any]:
    return {
        "layout": m.layout,
        "axes": m.axes,
        "hexes": [hex_view(m, b, c, phase_colors) for c in sorted(m.hexes, key=lambda c: m.order[c])],
        "tiles": {name: n for name, n in sorted(available_tiles(m, b).items()) if n > 0},
        # borders closed now (by phase), [hex, edge] from both sides; only when there are any,
        # so a title whose borders never change shows the board as before
        **({"closed": sorted([c, e] for c, e in b.closed)} if b.closed else {}),
    }


# map id -> (the map, kept so the id is not reused; its tiles' drawings)
_DEFS: dict[int, tuple[MapDef, dict[str, Any]]] = {}


def tile_defs(m: MapDef) -> dict[str, Any]:
    """Every layable tile's drawing at rotation 0 (ends 0..5 edges, "nK" node K), so a page
    previews a lay before it is sent. Static: the same for every state of a map (the maps are
    loaded once, so this holds one entry per map)."""
    hit = _DEFS.get(id(m))
    if hit is None:
        hit = _DEFS[id(m)] = (m, _drawings(m))
    return hit[1]


def _drawings(m: MapDef) -> dict[str, Any]:
    def end(e: int) -> int | str:
        return e if e < NODE else f"n{e - NODE}"

    return {name: {"color": t.color, "label": t.label,
                   "paths": [{"a": end(p.a), "b": end(p.b), "track": p.track} for p in t.paths],
                   "nodes": [{"kind": n.kind, "revenue": n.revenue, "slots": n.slots} for n in t.nodes]}
            for name, t in sorted(m.tiles.items())}
