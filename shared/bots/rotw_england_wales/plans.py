"""What a seat can do on its turn, as whole decisions: deliveries scored by the victory points
they move, and builds planned tile by tile up to a completed link (a link left open is removed
at the end of the turn, so only plans that complete within the build are worth laying)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.games.rotw_england_wales import build, deliver, rules
from shared.games.rotw_england_wales.actions import Deliver, LayTrack
from shared.games.rotw_england_wales.board import MOUNTAINS, TERRAIN_COST, get_board
from shared.games.rotw_england_wales.goods import city_colour
from shared.games.rotw_england_wales.state import State


@dataclass
class Delivery:
    action: Deliver
    mine: int  # VP to the deliverer
    others: int  # VP to the best-served rival


def deliveries(s: State, seat: int, level: int | None = None) -> list[Delivery]:
    """Every delivery open to `seat` (at engine `level`, default its own), best first."""
    level = s.players[seat].engine if level is None else level
    g = deliver._graph(s)
    out: list[Delivery] = []
    for h in sorted(s.cubes):
        if h not in g:
            continue
        for colour in sorted(set(s.cubes[h])):
            for path in deliver.paths(s, h, colour, level, g):
                gain: dict[int, int] = {}
                for lid in path:
                    owner = s.links[lid].owner
                    gain[owner] = gain.get(owner, 0) + 1
                mine = gain.pop(seat, 0)
                out.append(Delivery(Deliver(city=h, color=colour, path=path), mine, max(gain.values(), default=0)))
    out.sort(key=lambda d: (-(d.mine - 0.5 * d.others), len(d.action.path)))
    return out


def delivery_score(d: Delivery) -> float:
    return d.mine - 0.5 * d.others


@dataclass
class Plan:
    lays: list[LayTrack]
    cost: int
    a: str  # where the link starts
    b: str  # where it ends
    value: float = 0.0
    extends: bool = False  # continues an open link of the seat's
    notes: list[str] = field(default_factory=list)


def _endpoint_value(s: State, board: Any, a: str, b: str) -> float:
    """What joining a and b is worth beyond the link's own VP: goods at one end whose colour
    is the other end's (deliverable over this link alone), and goods there at all."""
    ca, cb = city_colour(s, board, a), city_colour(s, board, b)
    at_a, at_b = s.cubes.get(a, []), s.cubes.get(b, [])
    direct = sum(1 for c in at_a if c == cb) + sum(1 for c in at_b if c == ca)
    return 1.2 * min(direct, 4) + 0.15 * (len(at_a) + len(at_b))


def plans(s: State, seat: int, cash_cap: int) -> list[Plan]:
    """Builds of at most the tiles left that complete a link, costing at most `cash_cap`, best first."""
    ix = build.TrackIndex(s)
    board = ix.board
    left = rules.MAX_TILES_PER_BUILD - (s.build.tiles if s.build is not None else 0)
    tunnel = s.build is not None and s.build.tunnel
    out: list[Plan] = []
    srcs = build.sources(s, seat, ix)

    def cost_of(h: str) -> int:
        t = board.terrain[h]
        if t in MOUNTAINS and tunnel:
            return rules.card_value("tunnel_engineer", "mountain_cost")
        return TERRAIN_COST[t]

    def dfs(h: str, entry: int, origin: str, lays: list[LayTrack], cost: int, seen: set[str], ext: bool) -> None:
        c = cost + cost_of(h)
        if c > cash_cap:
            return
        used = ix.edges.get(h, ())
        for x in range(6):
            if x == entry or (x - entry) % 6 not in (2, 3, 4) or x in used:
                continue
            n = board.neighbour(h, x)
            if n is None:
                continue
            back = (x + 3) % 6
            step = [*lays, LayTrack(hex=h, entry=entry, exit=x)]
            if n in ix.endpoints:
                if n == origin or back in ix.ends.get(n, ()) or frozenset((origin, n)) in ix.pairs:
                    continue
                out.append(Plan(step, c, origin, n, extends=ext))
            elif len(step) < left and n not in seen and ix.can_take(n, back):
                dfs(n, back, origin, step, c, seen | {n}, ext)

    for (h, entry), src in srcs.items():
        if src[0] == "link":
            origin, ext = s.links[src[1]].a, True
        else:
            nb = board.neighbour(h, entry)
            assert nb is not None
            origin, ext = nb, False
        dfs(h, entry, origin, [], 0, {h}, ext)
    for p in out:
        # Track already laid on an open link is lost unless the link is completed.
        p.value = 1.0 + _endpoint_value(s, board, p.a, p.b) - p.cost / 6000.0 + (1.0 if p.extends else 0.0)
    out.sort(key=lambda p: (-p.value, p.cost, len(p.lays)))
    return out
