"""What a seat can do on its turn, as whole decisions: deliveries scored by the victory points
they move, and builds planned tile by tile up to a completed link (a link left open is removed
at the end of the turn, so only plans that complete within the build are worth laying)."""

from __future__ import annotations

import heapq
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from shared.games.rotw_england_wales import build, deliver, rules
from shared.games.rotw_england_wales.actions import Deliver, LayTrack
from shared.games.rotw_england_wales.board import MOUNTAINS, TERRAIN_COST, get_board
from shared.games.rotw_england_wales.goods import city_colour
from shared.games.rotw_england_wales.state import State

_key_enc = msgspec.msgpack.Encoder()


@dataclass
class Delivery:
    action: Deliver
    mine: int  # VP to the deliverer
    others: int  # VP to the best-served rival


class _Routes:
    """Delivery paths over one set of completed links at one engine level, per (city, colour),
    worked out when first asked for."""

    def __init__(self, s: State, level: int) -> None:
        self.graph = deliver._graph(s)
        self.level = level
        self.paths: dict[tuple[str, str], list[list[int]]] = {}

    def get(self, s: State, city: str, colour: str) -> list[list[int]]:
        found = self.paths.get((city, colour))
        if found is None:
            found = self.paths[(city, colour)] = deliver.paths(s, city, colour, self.level, self.graph)
        return found


_ROUTES: OrderedDict[bytes, _Routes] = OrderedDict()
ROUTES_SIZE = 256


def _routes(s: State, level: int) -> _Routes:
    # Paths depend on the completed links (ids, ends) and the city colours (urbanized towns).
    key = _key_enc.encode((level, s.urban, [(link.id, link.a, link.b) for link in s.links if link.complete]))
    hit = _ROUTES.get(key)
    if hit is not None:
        _ROUTES.move_to_end(key)
        return hit
    made = _ROUTES[key] = _Routes(s, level)
    if len(_ROUTES) > ROUTES_SIZE:
        _ROUTES.popitem(last=False)
    return made


def deliveries(s: State, seat: int, level: int | None = None) -> list[Delivery]:
    """Every delivery open to `seat` (at engine `level`, default its own), best first."""
    level = s.players[seat].engine if level is None else level
    routes = _routes(s, level)
    out: list[Delivery] = []
    for h in sorted(s.cubes):
        if h not in routes.graph:
            continue
        for colour in sorted(set(s.cubes[h])):
            for path in routes.get(s, h, colour):
                gain: dict[int, int] = {}
                for lid in path:
                    owner = s.links[lid].owner
                    gain[owner] = gain.get(owner, 0) + 1
                mine = gain.pop(seat, 0)
                out.append(Delivery(Deliver(city=h, color=colour, path=list(path)), mine, max(gain.values(), default=0)))
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


class _Ends:
    """What joining two places is worth beyond the link's own VP: goods at one end whose
    colour is the other end's (deliverable over this link alone), and goods there at all.
    Each place's colour and goods are read once per ranking."""

    def __init__(self, s: State, board: Any) -> None:
        self.s, self.board = s, board
        self.places: dict[str, tuple[str | None, dict[str, int], int]] = {}

    def _place(self, h: str) -> tuple[str | None, dict[str, int], int]:
        found = self.places.get(h)
        if found is None:
            cubes = self.s.cubes.get(h, [])
            counts: dict[str, int] = {}
            for c in cubes:
                counts[c] = counts.get(c, 0) + 1
            found = self.places[h] = (city_colour(self.s, self.board, h), counts, len(cubes))
        return found

    def value(self, a: str, b: str) -> float:
        places = self.places
        ca, at_a, na = places.get(a) or self._place(a)
        cb, at_b, nb = places.get(b) or self._place(b)
        direct = (at_a.get(cb, 0) if cb is not None else 0) + (at_b.get(ca, 0) if ca is not None else 0)
        return 1.2 * min(direct, 4) + 0.15 * (na + nb)


RawPlan = tuple[tuple[LayTrack, ...], int, str, str, bool]  # lays, cost, from, to, extends an open link

# Link plans depend only on the track (links, segments), the seat's open links, the tiles left
# in the build and the Tunnel Engineer; a search meets the same track again and again (after
# deliveries, cards, passes, the other seat's moves), so plans are cached by that key and
# only filtered by cash and valued (goods move) per call.
_CACHE: OrderedDict[bytes, _PlanSet] = OrderedDict()
CACHE_SIZE = 384


class _PlanSet:
    """The raw plans of one track, and the same plans grouped by (from, to, extends): within a
    group a plan's value falls with its cost alone, so each group lists its plans cheapest
    first (then fewest tiles, then search order: the full ranking's tie-breaks) and a ranking
    merges the groups' heads instead of valuing every plan."""

    __slots__ = ("raw", "groups", "ranked")

    def __init__(self, raw: list[RawPlan], universe: _Universe | None = None, opened: list[int] | None = None) -> None:
        """`raw`: searched plans, then (given a universe) the universe's plans `opened`, in order."""
        self.raw = raw
        # Rankings asked for on this track, by goods, urbanized towns, cash cap and limit: a
        # search's playouts from one position meet the same ones again and again.
        self.ranked: dict[bytes, list[Plan]] = {}
        searched = len(raw) - (len(opened) if opened is not None else 0)
        self.groups = _groups(raw, range(searched))
        if universe is not None and opened is not None:
            # The universe's groups are sorted once; a raw index grows with the universe's.
            at = [-1] * len(universe.plans)
            for k, u in enumerate(opened):
                at[u] = searched + k
            for a, b, ordered in universe.groups:
                members = [at[u] for u in ordered if at[u] >= 0]
                if members:
                    self.groups.append((a, b, False, [raw[i][1] for i in members], members))


Group = tuple[str, str, bool, list[int], list[int]]  # from, to, extends, costs, raw indices


def _groups(raw: list[RawPlan], indices: Iterable[int]) -> list[Group]:
    by_key: dict[tuple[str, str, bool], list[int]] = {}
    for i in indices:
        _, _, a, b, ext = raw[i]
        by_key.setdefault((a, b, ext), []).append(i)
    out = []
    for (a, b, ext), members in by_key.items():
        members.sort(key=lambda i: (raw[i][1], len(raw[i][0]), i))
        out.append((a, b, ext, [raw[i][1] for i in members], members))
    return out


class _Universe:
    """Every link of at most four tiles from a city or town edge on the empty map, with an
    index from what each one needs (a hex, a hex edge, a city edge, a pair of places not yet
    joined) to the plans that need it. Track only ever takes room away, so the plans open
    from cities on any board are the ones whose needs nothing has taken yet: a few set
    look-ups instead of a depth-4 search from every city edge."""

    def __init__(self, s: State) -> None:
        empty = msgspec.structs.replace(s, links=[], track={}, build=None)
        self.plans = _search(empty, 0, rules.MAX_TILES_PER_BUILD, False, cities=True)
        self.by_hex: dict[str, list[int]] = {}
        self.by_edge: dict[tuple[str, int], list[int]] = {}
        self.by_pair: dict[frozenset[str], list[int]] = {}
        for i, (lays, _, a, b, _) in enumerate(self.plans):
            needs = {(a, (lays[0].entry + 3) % 6), (b, (lays[-1].exit + 3) % 6)}
            for lay in lays:
                self.by_hex.setdefault(lay.hex, []).append(i)
                needs.add((lay.hex, lay.entry))
                needs.add((lay.hex, lay.exit))
            for need in needs:
                self.by_edge.setdefault(need, []).append(i)
            self.by_pair.setdefault(frozenset((a, b)), []).append(i)
        self.groups = [(a, b, members) for a, b, _, _, members in _groups(self.plans, range(len(self.plans)))]

    def open_indices(self, ix: build.TrackIndex, left: int) -> list[int]:
        taken: set[int] = set()
        for h, segs in ix.count.items():
            if segs >= 2:  # a hex holds at most two segments
                taken.update(self.by_hex.get(h, ()))
            else:
                for e in ix.edges.get(h, ()):
                    taken.update(self.by_edge.get((h, e), ()))
        for h, edges in ix.ends.items():
            for e in edges:
                taken.update(self.by_edge.get((h, e), ()))
        for pair in ix.pairs:
            taken.update(self.by_pair.get(pair, ()))
        return [i for i, p in enumerate(self.plans) if i not in taken and len(p[0]) <= left]


_UNIVERSES: dict[str, _Universe] = {}


def _universe(s: State) -> _Universe:
    found = _UNIVERSES.get(s.board)
    if found is None:
        found = _UNIVERSES[s.board] = _Universe(s)
    return found


def _plan_key(s: State, seat: int, left: int, tunnel: bool) -> bytes:
    return _key_enc.encode((seat, left, tunnel, s.links, s.track))


def raw_plans(s: State, seat: int) -> list[RawPlan]:
    """Every build of at most the tiles left that completes a link, at any cost, in the order
    of a search from the seat's open links, then from every free city edge. Cached by track."""
    return _plan_set(s, seat).raw


def _plan_set(s: State, seat: int) -> _PlanSet:
    left = rules.MAX_TILES_PER_BUILD - (s.build.tiles if s.build is not None else 0)
    tunnel = s.build is not None and s.build.tunnel
    key = _plan_key(s, seat, left, tunnel)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    if tunnel:  # mountain costs differ from the universe's: search (a rare build)
        made = _PlanSet(search_plans(s, seat, left, tunnel))
    else:
        ix = build.TrackIndex(s)
        out = _search(s, seat, left, tunnel, cities=False, ix=ix)
        universe = _universe(s)
        opened = universe.open_indices(ix, left)
        out.extend(universe.plans[i] for i in opened)
        made = _PlanSet(out, universe, opened)
    _CACHE[key] = made
    if len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return made


def search_plans(s: State, seat: int, left: int, tunnel: bool) -> list[RawPlan]:
    """The plain depth-first search over every source (what the cache and universe shortcut)."""
    return _search(s, seat, left, tunnel, cities=None)


def _search(s: State, seat: int, left: int, tunnel: bool, cities: bool | None,
            ix: build.TrackIndex | None = None) -> list[RawPlan]:
    """Plans from the seat's open links (cities False), from city edges (True) or both (None)."""
    ix = ix or build.TrackIndex(s)
    board = ix.board
    out: list[RawPlan] = []
    if cities is False:  # the open ends of the seat's links only
        srcs = {}
        for link in s.links:
            if not link.complete and link.owner == seat:
                h = board.neighbour(link.hexes[-1], link.exit)
                entry = (link.exit + 3) % 6
                if h is not None and ix.can_take(h, entry):
                    srcs[(h, entry)] = ("link", link.id)
    else:
        srcs = build.sources(s, seat, ix)

    def cost_of(h: str) -> int:
        t = board.terrain[h]
        if t in MOUNTAINS and tunnel:
            return rules.card_value("tunnel_engineer", "mountain_cost")
        return TERRAIN_COST[t]

    def dfs(h: str, entry: int, origin: str, lays: tuple[LayTrack, ...], cost: int, seen: set[str], ext: bool) -> None:
        c = cost + cost_of(h)
        for x in build.exits_from(ix, h, entry, origin):   # the rules' own choice of exits
            n = board.neighbour(h, x)
            assert n is not None
            step = (*lays, LayTrack(hex=h, entry=entry, exit=x))
            if n in ix.endpoints:
                out.append((step, c, origin, n, ext))
            elif len(step) < left and n not in seen:
                dfs(n, (x + 3) % 6, origin, step, c, seen | {n}, ext)

    for (h, entry), src in srcs.items():
        if src[0] == "link":
            if cities:
                continue
            origin, ext = s.links[src[1]].a, True
        else:
            if cities is False:
                continue
            nb = board.neighbour(h, entry)
            assert nb is not None
            origin, ext = nb, False
        dfs(h, entry, origin, (), 0, {h}, ext)
    return out


def plans(s: State, seat: int, cash_cap: int, limit: int | None = None) -> list[Plan]:
    """Builds of at most the tiles left that complete a link, costing at most `cash_cap`, best
    first (the best `limit` of them if given)."""
    found = _plan_set(s, seat)
    key = _key_enc.encode((s.cubes, s.urban, cash_cap, limit))
    hit = found.ranked.get(key)
    if hit is not None:
        return hit
    if len(found.ranked) >= RANKED_SIZE:
        found.ranked.clear()
    out = found.ranked[key] = _rank(s, found, cash_cap, limit)
    return out


RANKED_SIZE = 64


def _rank(s: State, found: _PlanSet, cash_cap: int, limit: int | None) -> list[Plan]:
    ends = _Ends(s, get_board(s.board))
    raw = found.raw
    # Heads of the groups' affordable prefixes, keyed as the full ranking is: (-value, cost,
    # tiles, search order), then where the group goes on. Track already laid on an open link
    # is lost unless the link is completed (the bonus for extending one).
    heap: list[tuple[float, int, int, int, int, int]] = []
    value = ends.value
    for g, (a, b, ext, costs, members) in enumerate(found.groups):
        cost = costs[0]
        if cost > cash_cap:
            continue
        i = members[0]
        heap.append((-(1.0 + value(a, b) - cost / 6000.0 + (1.0 if ext else 0.0)), cost, len(raw[i][0]), i, g, 0))
    heapq.heapify(heap)
    out: list[Plan] = []
    while heap and (limit is None or len(out) < limit):
        neg, cost, _, i, g, pos = heapq.heappop(heap)
        lays, _, a, b, ext = raw[i]
        out.append(Plan(list(lays), cost, a, b, value=-neg, extends=ext))
        _, _, _, costs, members = found.groups[g]
        pos += 1
        if pos < len(members) and costs[pos] <= cash_cap:
            j = members[pos]
            cost = costs[pos]
            heapq.heappush(heap, (-(1.0 + value(a, b) - cost / 6000.0 + (1.0 if ext else 0.0)), cost,
                                  len(raw[j][0]), j, g, pos))
    return out
