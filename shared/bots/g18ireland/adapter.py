"""18Ireland as the 18xx bot kit asks it (`shared/bots/kit18xx/title.py`): the one module of
this bot package that imports the title's rule modules and the shared 18xx core, so when
their paths move only this file follows.

Everything here reads a state; nothing decides. Route revenues come from the core's exact
best-route search (`autoroute.best_routes`, through `board_ops`), read-only.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from shared.games.core18xx.board import autoroute as AR
from shared.games.core18xx.board import hexgrid as HG
from shared.games.core18xx.board import network as NW
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as TR
from shared.games.core18xx.board.tiles import placed
from shared.games.core18xx.memo import Last
from shared.games.core18xx.money import operating as O
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import merger_round as MG
from shared.games.g18ireland.flow import COMPANY_REVENUE, COMPANY_VALUES
from shared.games.g18ireland.map import TRACK_RULES
from shared.games.g18ireland.state import State


class Ireland18xx:
    """`Title18xx` for 18Ireland."""

    title = "18ireland"
    company_values = COMPANY_VALUES
    company_revenue = COMPANY_REVENUE
    # a minor has five share units (president 2 + three singles), a major ten
    share_units = {"minor": 5, "major": 10}

    def round(self, state: State) -> str:
        return state.round

    def money(self, state: State) -> Any:
        return state.money

    def depot(self, state: State) -> Any:
        return state.depot

    def players(self, state: State) -> list[str]:
        return list(state.players)

    def operating(self, state: State) -> tuple[str, str] | None:
        """(company operating now, its step) in an operating round."""
        op = state.operating
        if state.round != "operating" or op is None or op.turn is None:
            return None
        return op.turn.corp, op.turn.stage

    def pending_token(self, state: State) -> bool:
        return bool(state.pending)

    def phase(self, state: State) -> str:
        return BO.phase(state)

    def player_value(self, state: State, player: str) -> int:
        return O.player_value(state.money, player, COMPANY_VALUES)

    def revenue(self, state: State, corp: str, extra: tuple[int, ...] = (), board: Any = None) -> int:
        """The best total revenue `corp` runs now (on `board`, when given: a lay's outcome),
        with its own trains plus hypothetical ones of the distances in `extra` (what a train
        purchase or a longer reach would earn)."""
        money = state.money
        c = money.corps.get(corp)
        if c is None or c.closed or not c.ipoed:
            return 0
        trains = list(BO.trains(state, corp).values())
        trains += [R.Train(f"extra-{i}", d) for i, d in enumerate(extra)]
        if not trains:
            return 0
        # searches and lookaheads ask again and again of boards that did not change (a share
        # bought, a dividend paid): the answer is kept per board, company, trains and phase
        b = state.board if board is None else board
        ctx = BO.ctx(state, corp)
        key = (id(b.tiles), id(b.tokens), tuple(sorted(t.distance for t in trains)), ctx)
        hit = _REVENUE.get(key)
        if hit is not None and hit[0] is b.tiles and hit[1] is b.tokens:
            return hit[2]
        best: AR.BestRoutes = AR.best_routes(BO.the_map(), b, ctx, trains, limit=50_000)
        if len(_REVENUE) > 8192:
            _REVENUE.clear()
        _REVENUE[key] = (b.tiles, b.tokens, best.total)
        return best.total

    def reach(self, state: State, corp: str, board: Any = None) -> float:
        """How close `corp`'s network is to revenue it does not reach yet: every stop hex off
        its network counts its best value, halved for each hex between it and the nearest hex
        the company may lay track on (a lay there joins it: full value). Lays that lead
        toward revenue raise it before any train can run there."""
        return self._prospects(state, corp, board)[1]

    def network_value(self, state: State, corp: str, board: Any = None) -> float:
        """The summed value of the stops `corp`'s network reaches (unbuilt ones at what their
        first tile usually gives): what a lay joining or upgrading a stop raises, read off the
        network without a route search."""
        return self._prospects(state, corp, board)[0]

    def _prospects(self, state: State, corp: str, board: Any) -> tuple[float, float]:
        b = state.board if board is None else board
        return self._scan(state, corp, b, None if b is state.board else self._scan(state, corp, state.board, None)).values

    def _scan(self, state: State, corp: str, b: B.BoardState, base: _Scan | None) -> _Scan:
        """`_Scan` of `corp` on `b`; with `base` (the scan of the state's own board, which `b`
        is a lay or two away from), only what the lay changed is recomputed: the laid hexes'
        stop values and the distances to the network's new hexes."""
        colors = BO.colors(state)
        key = (id(b.tiles), id(b.tokens), corp, colors)
        hit = _REACH.get(key)
        if hit is not None and hit[0] is b.tiles and hit[1] is b.tokens:
            return hit[2]
        m = BO.the_map()
        net = NW.broad(m, b, corp)
        frontier = frozenset(net.hexes)
        reached = {coord for coord, _ in net.nodes}
        on_net = float(sum(_node_value(m, b, coord, node, colors) for coord, node in net.nodes))
        changed = NW.changed_hexes(state.board.tiles, b.tiles) if base is not None else None
        incremental = base is not None and changed is not None and base.frontier <= frontier
        if incremental:
            assert base is not None and changed is not None
            stops = dict(base.stops)
            for coord in changed:
                value = _hex_value(m, b, coord, colors)
                if value > 0:
                    stops[coord] = value
                else:
                    stops.pop(coord, None)
        else:
            stops = dict(_stop_values(m, b, colors))
        near: dict[str, int] = {}
        if frontier:
            dist = _distances(m)
            extra = frontier - base.frontier if incremental and base is not None else frontier
            for coord in stops:
                row = dist[coord]
                d = min((row[f] for f in extra), default=99)
                if incremental and base is not None:
                    # the distance to the frontier does not depend on the stop's own tile
                    was = base.near.get(coord)
                    d = min(d, was if was is not None else min(row[f] for f in frontier))
                near[coord] = d
        total = 0.0
        for coord, value in stops.items():
            d = near.get(coord, 99)
            if coord not in reached and d <= 6:
                total += value * 0.5 ** d
        if len(_REACH) > 4096:
            _REACH.clear()
        out = _Scan((on_net, total), frontier, stops, near)
        _REACH[key] = (b.tiles, b.tokens, out)
        return out

    def lay_cost(self, state: State, corp: str, coord: str, tile: str, rotation: int) -> int | None:
        """What `corp`'s next lay of `tile` on `coord` at `rotation` costs (a lay the engine
        offers: its legality is not checked here), as the core's lay enumeration prices it:
        the replaced tile's terrain plus the turn's extra cost for a second lay. None when
        the company has no lay left."""
        op = state.operating
        turn = op.turn if op is not None else None
        if state.round != "operating" or turn is None or turn.corp != corp:
            return None
        slot = BO.lay_slot(state, corp, turn.lays, turn.upgraded)
        if slot is None:
            return None
        m = BO.the_map()
        old = B.tile_at(m, state.board, coord)
        new = placed(m.tiles[tile], rotation % 6)
        extra = slot.cost if new.tile.color == "yellow" else slot.upgrade_cost
        return TR.terrain_cost(old, new, TRACK_RULES, None) + extra

    def board_after_lay(self, state: State, coord: str, copy: str, rotation: int) -> Any | None:
        """The board once tile copy `copy` lies on `coord` (the engine's own board step), or
        None when the lay lifts tokens whose owners must place them again (the engine then
        decides where: ask it)."""
        name = copy.rpartition("-")[0] or copy
        try:
            board, lifted = B.lay_lifting(BO.the_map(), state.board, coord, name, rotation, copy)
        except B.BoardError:
            return None
        return None if lifted else board

    def merged_price(self, state: State, minors: list[str]) -> int | None:
        """The share price a major formed from `minors` would start at (None: no such cell)."""
        try:
            coord = MG.new_price_cell(state.money, minors)
            return state.money.market.at(coord).price
        except Exception:  # noqa: BLE001 - the rules refuse such a proposal anyway
            return None

    def merging(self, state: State) -> list[str]:
        mr = state.merger
        return list(mr.merging or []) if state.round == "merger" and mr is not None else []

    def proposed(self, state: State) -> list[list[str]]:
        """The sets of minors already put to a vote this merger round (sorted)."""
        mr = state.merger
        return [list(x) for x in mr.proposed] if state.round == "merger" and mr is not None else []


class _Scan(NamedTuple):
    """What `reach` and `network_value` read off one board for one company."""

    values: tuple[float, float]      # (network value, reach)
    frontier: frozenset[str]         # hexes the company may lay on
    stops: dict[str, int]            # stop hex -> its best value
    near: dict[str, int]             # stop hex -> hexes from the frontier


_REACH: dict[tuple, tuple[Any, Any, _Scan]] = {}
_REVENUE: dict[tuple, tuple[Any, Any, int]] = {}


# Printed cities and towns with no tile yet show no revenue (the first tile brings it): they
# count at what a yellow tile usually gives them.
UNBUILT = {"city": 20, "town": 10}


def _node_value(m: Any, b: B.BoardState, coord: str, node: int, colors: tuple[str, ...]) -> int:
    n = B.tile_at(m, b, coord).tile.nodes[node]
    return (n.value(colors) or UNBUILT.get(n.kind, 0)) if n.is_stop else 0


def _hex_value(m: Any, b: B.BoardState, coord: str, colors: tuple[str, ...]) -> int:
    """The best stop value on `coord` (0: no stop). It depends only on the tile there: kept
    per hex, tile and phase colours."""
    laid = b.tiles.get(coord)
    key = (coord, laid[0] if laid else None, colors)
    best = _HEX_VALUE.get(key)
    if best is None:
        nodes = B.tile_at(m, b, coord).tile.nodes
        best = _HEX_VALUE[key] = max((n.value(colors) or UNBUILT.get(n.kind, 0) for n in nodes if n.is_stop), default=0)
    return best


def _stop_values(m: Any, b: B.BoardState, colors: tuple[str, ...]) -> list[tuple[str, int]]:
    """(hex, best stop value there) for every hex with a stop, on the board as it is."""
    hit = _STOPS.get((b.tiles,), colors)
    if hit is not None:
        return hit
    out = [(coord, v) for coord in m.hexes if (v := _hex_value(m, b, coord, colors)) > 0]
    return _STOPS.put((b.tiles,), out, colors)


def _distances(m: Any) -> dict[str, dict[str, int]]:
    """Hex distance between every two hexes of the map (computed once per map)."""
    hit = _DIST.get((m,))
    if hit is not None:
        return hit
    hexes = list(m.hexes)
    table = {a: {z: HG.distance(a, z, m.layout, m.axes) for z in hexes} for a in hexes}
    return _DIST.put((m,), table)


_STOPS = Last()
_DIST = Last()
_HEX_VALUE: dict[tuple[str, str | None, tuple[str, ...]], int] = {}

TITLE = Ireland18xx()
