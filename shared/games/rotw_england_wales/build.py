"""Build track (up to four tiles from a city/town or your own track), urbanize, upgrade engine.

A build is a run of `lay_track` decisions ending with `end_build` (or the fourth tile).
Each tile is one track segment in one hex: it enters across `entry` — facing a city/town
the new link starts from, or the open end of an incomplete link it extends — and leaves
across `exit`. Readings (README 'Track'): no sharp (60 degree) turns; at most two segments
in a hex (a crossing) sharing no edge; a city/town edge carries one link; no second link
between the same two cities; cities/towns are never built on, they end links.
"""

from __future__ import annotations

from shared.engine import RuleError

from . import majors, rules, turn
from .actions import EndBuild, LayTrack, UpgradeEngine, Urbanize, UseTunnelEngineer
from .board import MOUNTAINS, TERRAIN_COST, Board, get_board
from .compat import Choice, LegalAction
from .goods import add_cubes, city_name, is_endpoint, urbanizable
from .payment import pay
from .state import ACTION, BUILD, Build, Link, Seg, State, card_kind


class TrackIndex:
    """What the track rules ask about the board, computed once per question."""

    def __init__(self, s: State) -> None:
        self.board = get_board(s.board)
        self.ends: dict[str, set[int]] = {}  # endpoint hex -> edges carrying a link
        self.pairs: set[frozenset[str]] = set()  # places joined by a complete link
        for link in s.links:
            self.ends.setdefault(link.a, set()).add(link.start_edge)
            if link.b is not None:
                self.ends.setdefault(link.b, set()).add((link.exit + 3) % 6)
                self.pairs.add(frozenset((link.a, link.b)))
        self.edges: dict[str, set[int]] = {h: {e for g in segs for e in (g.e1, g.e2)} for h, segs in s.track.items()}
        self.count: dict[str, int] = {h: len(segs) for h, segs in s.track.items()}
        self.endpoints = {*self.board.cities, *self.board.towns}

    def can_take(self, h: str, entry: int) -> bool:
        """Can a new segment enter track hex `h` across `entry`?"""
        if h in self.endpoints or h not in self.board.terrain:
            return False
        return self.count.get(h, 0) < 2 and entry not in self.edges.get(h, ())


def sources(s: State, seat: int, ix: TrackIndex | None = None) -> dict[tuple[str, int], tuple[str, int]]:
    """(hex, entry) a tile may be laid at -> ("link", link id) or ("city", -1)."""
    ix = ix or TrackIndex(s)
    board = ix.board
    out: dict[tuple[str, int], tuple[str, int]] = {}
    for link in s.links:
        if link.complete or link.owner != seat:
            continue
        h = board.neighbour(link.hexes[-1], link.exit)
        entry = (link.exit + 3) % 6
        if h is not None and ix.can_take(h, entry):
            out[(h, entry)] = ("link", link.id)
    for e_hex in sorted(ix.endpoints):
        used = ix.ends.get(e_hex, ())
        for e in range(6):
            if e in used:
                continue
            h = board.neighbour(e_hex, e)
            entry = (e + 3) % 6
            if h is not None and ix.can_take(h, entry):
                out.setdefault((h, entry), ("city", -1))
    return out


def source_for(s: State, seat: int, ix: TrackIndex, h: str, entry: int) -> tuple[str, int] | None:
    """What `sources` would say for (h, entry), without listing every source (apply's check)."""
    if not ix.can_take(h, entry):
        return None
    n = ix.board.neighbour(h, entry)
    if n is None:
        return None
    back = (entry + 3) % 6
    if n in ix.endpoints:
        return None if back in ix.ends.get(n, ()) else ("city", -1)
    for link in s.links:
        if not link.complete and link.owner == seat and link.hexes[-1] == n and link.exit == back:
            return ("link", link.id)
    return None


def _origin(s: State, board: Board, h: str, entry: int, src: tuple[str, int]) -> str:
    if src[0] == "link":
        return s.links[src[1]].a
    n = board.neighbour(h, entry)
    assert n is not None
    return n


def exits(s: State, seat: int, h: str, entry: int, src: tuple[str, int], ix: TrackIndex | None = None) -> list[int]:
    ix = ix or TrackIndex(s)
    return exits_from(ix, h, entry, _origin(s, ix.board, h, entry, src))


def exits_from(ix: TrackIndex, h: str, entry: int, origin: str) -> list[int]:
    """Edges a segment entering `h` across `entry`, on a link from `origin`, may leave by."""
    board = ix.board
    used = ix.edges.get(h, ())
    out = []
    for x in range(6):
        if x == entry or (x - entry) % 6 not in (2, 3, 4) or x in used:
            continue
        n = board.neighbour(h, x)
        if n is None:
            continue
        back = (x + 3) % 6
        if n in ix.endpoints:
            if n == origin or back in ix.ends.get(n, ()) or frozenset((origin, n)) in ix.pairs:
                continue
        elif not ix.can_take(n, back):
            continue
        out.append(x)
    return out


def tile_cost(s: State, seat: int, h: str) -> int:
    board = get_board(s.board)
    t = board.terrain[h]
    if t in MOUNTAINS and _tunnel_on(s):
        return rules.card_value("tunnel_engineer", "mountain_cost")
    return TERRAIN_COST[t]


def _tunnel_on(s: State) -> bool:
    return s.build is not None and s.build.tunnel


def _holds(s: State, seat: int, kind: str) -> str | None:
    for c in s.players[seat].hand:
        if card_kind(c) == kind:
            return c
    return None


def legal_lays(s: State, seat: int) -> LegalAction | None:
    if s.build is not None and s.build.tiles >= rules.MAX_TILES_PER_BUILD:
        return None
    ix = TrackIndex(s)
    tries: dict[str, list[tuple[int, list[int]]]] = {}
    for (h, entry), src in sorted(sources(s, seat, ix).items()):
        xs = exits(s, seat, h, entry, src, ix)
        if xs:
            tries.setdefault(h, []).append((entry, xs))
    if not tries:
        return None
    hexes = sorted(tries)
    first_h = hexes[0]
    first_e, first_xs = tries[first_h][0]
    then = [Choice("entry", [e for e, _ in tries[h]], then=[Choice("exit", xs) for _, xs in tries[h]])
            for h in hexes]
    return LegalAction(LayTrack(hex=first_h, entry=first_e, exit=first_xs[0]),
                       choices=Choice("hex", hexes, then=then))


def lay_track(s: State, seat: int, a: LayTrack) -> None:
    board = get_board(s.board)
    if s.build is not None and s.build.tiles >= rules.MAX_TILES_PER_BUILD:
        raise RuleError("build_full", f"a build lays at most {rules.MAX_TILES_PER_BUILD} tiles")
    if a.hex not in board.terrain:
        raise RuleError("bad_hex", f"{a.hex} is not a hex of the map")
    if not (0 <= a.entry < 6 and 0 <= a.exit < 6):
        raise RuleError("bad_edge", "edges are numbered 0 to 5")
    ix = TrackIndex(s)
    src = source_for(s, seat, ix, a.hex, a.entry)
    if src is None:
        raise RuleError("not_connected", f"no city, town or track of yours leads into {a.hex} across edge {a.entry}"
                        " (or that hex/edge is taken)")
    if a.exit not in exits(s, seat, a.hex, a.entry, src, ix):
        raise RuleError("bad_exit", f"track cannot leave {a.hex} across edge {a.exit} from edge {a.entry}")
    cost = tile_cost(s, seat, a.hex)
    p = s.players[seat]
    if s.phase == ACTION:
        s.phase = BUILD
        s.build = Build()
    assert s.build is not None
    pay(s, seat, cost, f"track in {_name(board, s, a.hex)}")
    s.build.tiles += 1
    s.build.spent += cost
    if board.terrain[a.hex] in MOUNTAINS:
        p.mountain_tiles += 1
    link = place_tile(s, board, seat, a, s.links[src[1]] if src[0] == "link" else None)
    if link.complete:
        s.log.append(f"{p.name} completes a link {_name(board, s, link.a)} - {_name(board, s, link.b or '')}")
        majors.check(s, seat)
    if s.build.tiles >= rules.MAX_TILES_PER_BUILD:
        _finish(s, seat)


def place_tile(s: State, board: Board, owner: int, a: LayTrack, extend: Link | None) -> Link:
    """Lay one checked tile: extend `extend` or start a new link of `owner`; complete the link
    when the tile points into a city/town. Returns the link (shared with the advanced game)."""
    if extend is not None:
        link = extend
        link.hexes.append(a.hex)
        link.exit = a.exit
    else:
        origin = board.neighbour(a.hex, a.entry)
        assert origin is not None
        link = Link(id=len(s.links), owner=owner, a=origin, start_edge=(a.entry + 3) % 6, hexes=[a.hex],
                    exit=a.exit, turn=s.turn)
        s.links.append(link)
    s.track.setdefault(a.hex, []).append(Seg(link.id, a.entry, a.exit))
    nxt = board.neighbour(a.hex, a.exit)
    if nxt is not None and is_endpoint(s, board, nxt):
        link.b, link.complete = nxt, True
    return link


def _name(board: Board, s: State, h: str) -> str:
    c = board.cities.get(h)
    return c.name if c else board.towns.get(h, h)


def end_build(s: State, seat: int, a: EndBuild) -> None:
    if s.build is None or (s.build.tiles == 0 and not s.build.tunnel):
        raise RuleError("no_build", "lay a tile before ending the build")
    _finish(s, seat)


def legal_tunnel(s: State, seat: int) -> LegalAction | None:
    # Offered even when no tile is affordable at full price: half-price mountains may be.
    if _holds(s, seat, "tunnel_engineer") is None or _tunnel_on(s):
        return None
    if s.build is not None and s.build.tiles >= rules.MAX_TILES_PER_BUILD:
        return None
    return LegalAction(UseTunnelEngineer())


def use_tunnel_engineer(s: State, seat: int, a: UseTunnelEngineer) -> None:
    """Seed: the holder may use the card for one later build, all mountains at $2,000."""
    card = _holds(s, seat, "tunnel_engineer")
    if card is None:
        raise RuleError("no_card", "you do not hold a Tunnel Engineer")
    if _tunnel_on(s):
        raise RuleError("already_used", "the Tunnel Engineer is already working on this build")
    if s.phase == ACTION:  # the card starts a build (which may then lay no tile at all)
        s.phase = BUILD
        s.build = Build()
    assert s.build is not None
    p = s.players[seat]
    p.hand.remove(card)
    s.discard.append(card)
    s.build.tunnel = True
    s.log.append(f"{p.name} uses the Tunnel Engineer: mountains cost half in this build")


def _finish(s: State, seat: int) -> None:
    b = s.build
    assert b is not None
    s.log.append(f"{s.players[seat].name} builds {b.tiles} tile(s) for ${b.spent:,}")
    turn.action_done(s)


# --- urbanize, upgrade engine ---------------------------------------------------------------

def legal_urbanize(s: State, seat: int) -> LegalAction | None:
    board = get_board(s.board)
    if not s.new_cities:
        return None
    towns = urbanizable(s, board)
    if not towns:
        return None
    colours = sorted(set(s.new_cities))
    return LegalAction(Urbanize(hex=towns[0], color=colours[0]),
                       choices=Choice("hex", towns, then=[Choice("color", colours)]))


def urbanize(s: State, seat: int, a: Urbanize) -> None:
    board = get_board(s.board)
    if a.hex in s.urban:
        raise RuleError("already_city", "that town has been urbanized already")
    if a.hex not in urbanizable(s, board):
        raise RuleError("not_a_town", f"{a.hex} is not a town or grey city")
    if a.color not in s.new_cities:
        raise RuleError("no_tile", f"no {a.color} new-city tile is left")
    p = s.players[seat]
    pay(s, seat, rules.URBANIZE_COST, f"urbanizing {city_name(s, board, a.hex)}")
    s.new_cities.remove(a.color)
    s.urban[a.hex] = a.color
    got = add_cubes(s, a.hex, rules.URBANIZE_CUBES)
    s.log.append(f"{p.name} urbanizes {city_name(s, board, a.hex)} into a {a.color} city ({got} goods)")
    turn.action_done(s)


def legal_upgrade(s: State, seat: int) -> LegalAction | None:
    p = s.players[seat]
    if p.engine >= rules.MAX_ENGINE:
        return None
    return LegalAction(UpgradeEngine())


def upgrade_engine(s: State, seat: int, a: UpgradeEngine) -> None:
    p = s.players[seat]
    if p.engine >= rules.MAX_ENGINE:
        raise RuleError("engine_max", f"the engine is at its top level {rules.MAX_ENGINE}")
    cost = rules.engine_cost(p.engine + 1)
    pay(s, seat, cost, f"a level {p.engine + 1} engine")
    p.engine += 1
    s.log.append(f"{p.name} upgrades to a level {p.engine} engine for ${cost:,}")
    turn.action_done(s)
