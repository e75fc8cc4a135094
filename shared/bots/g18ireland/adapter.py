"""18Ireland as the 18xx bot kit asks it (`shared/bots/kit18xx/title.py`): the one module of
this bot package that imports the title's rule modules and the shared 18xx core, so when
their paths move only this file follows.

Everything here reads a state; nothing decides. Route revenues come from the core's exact
best-route search (`autoroute.best_routes`, through `board_ops`), read-only.
"""

from __future__ import annotations

from typing import Any

from shared.games.core18xx.board import autoroute as AR
from shared.games.core18xx.board import hexgrid as HG
from shared.games.core18xx.board import network as NW
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import operating as O
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import merger_round as MG
from shared.games.g18ireland.flow import COMPANY_REVENUE, COMPANY_VALUES
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

    def revenue(self, state: State, corp: str, extra: tuple[int, ...] = ()) -> int:
        """The best total revenue `corp` runs now, with its own trains plus hypothetical ones of
        the distances in `extra` (what a train purchase or a longer reach would earn)."""
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
        b = state.board
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

    def reach(self, state: State, corp: str) -> float:
        """How close `corp`'s network is to revenue it does not reach yet: every stop hex off
        its network counts its best value, halved for each hex between it and the nearest hex
        the company may lay track on (a lay there joins it: full value). Lays that lead
        toward revenue raise it before any train can run there."""
        m, b = BO.the_map(), state.board
        key = (id(b.tiles), id(b.tokens), corp, BO.phase(state))
        hit = _REACH.get(key)
        if hit is not None and hit[0] is b.tiles and hit[1] is b.tokens:
            return hit[2]
        net = NW.broad(m, b, corp)
        frontier = list(net.hexes)
        reached = {coord for coord, _ in net.nodes}
        colors = BO.colors(state)
        layout, axes = m.layout, m.axes
        total = 0.0
        if frontier:
            for coord, value in _stop_values(m, b, colors):
                if coord in reached:
                    continue
                d = min(HG.distance(f, coord, layout, axes) for f in frontier)  # type: ignore[arg-type]
                if d <= 6:
                    total += value * 0.5 ** d
        if len(_REACH) > 4096:
            _REACH.clear()
        _REACH[key] = (b.tiles, b.tokens, total)
        return total

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


_REACH: dict[tuple, tuple[Any, Any, float]] = {}
_REVENUE: dict[tuple, tuple[Any, Any, int]] = {}


# Printed cities and towns with no tile yet show no revenue (the first tile brings it): they
# count at what a yellow tile usually gives them.
UNBUILT = {"city": 20, "town": 10}


def _stop_values(m: Any, b: B.BoardState, colors: tuple[str, ...]) -> list[tuple[str, int]]:
    """(hex, best stop value there) for every hex with a stop, on the board as it is."""
    hit = _STOPS.get("last")
    if hit is not None and hit[0] is b.tiles and hit[1] == colors:
        return hit[2]
    out = []
    for coord in m.hexes:
        nodes = B.tile_at(m, b, coord).tile.nodes
        best = max((n.value(colors) or UNBUILT.get(n.kind, 0) for n in nodes if n.is_stop), default=0)
        if best > 0:
            out.append((coord, best))
    _STOPS["last"] = (b.tiles, colors, out)
    return out


_STOPS: dict[str, tuple[Any, tuple[str, ...], list[tuple[str, int]]]] = {}

TITLE = Ireland18xx()
