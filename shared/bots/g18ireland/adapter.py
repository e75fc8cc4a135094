"""18Ireland as the 18xx bot kit asks it (`shared/bots/kit18xx/title.py`): the one module of
this bot package that imports the title's rule modules and the shared 18xx core, so when
their paths move only this file follows.

Everything here reads a state; nothing decides. Route revenues come from the core's
best-route search (`autoroute.best_routes`, through `board_ops`), read-only, exact but for
a bound on its choice of routes (`ROUTE_TRIES`).
"""

from __future__ import annotations

from typing import Any

from shared.bots.kit18xx import reach as RC
from shared.bots.kit18xx.title import StateFields, kept_revenue
from shared.games.core18xx.board import autoroute as AR
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.board import track as TR
from shared.games.core18xx.board.tiles import placed
from shared.games.core18xx.money import operating as O
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import merger_round as MG
from shared.games.g18ireland.flow import COMPANY_REVENUE, COMPANY_VALUES
from shared.games.g18ireland.map import TRACK_RULES
from shared.games.g18ireland.state import State

# The choice of one route per train is exponential in the trains where routes share track:
# four late trains on a grown board take 3-4 s exact (24 s on a loaded machine), and the
# heuristic asks with hypothetical extra trains; bounded, the estimate is the best set found
# within the tries (0.33 s there, the exact revenue for 13 of 14 companies: docs/benchmarks.md)
ROUTE_TRIES = 1_000_000


class Ireland18xx(StateFields):
    """`Title18xx` for 18Ireland."""

    title = "18ireland"
    company_values = COMPANY_VALUES
    company_revenue = COMPANY_REVENUE
    # a minor has five share units (president 2 + three singles), a major ten
    share_units = {"minor": 5, "major": 10}

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
        b = state.board if board is None else board
        ctx = BO.ctx(state, corp)
        key = (tuple(sorted(t.distance for t in trains)), ctx)

        def count() -> int:
            return AR.best_routes(BO.the_map(), b, ctx, trains, limit=50_000, tries=ROUTE_TRIES).total
        return kept_revenue(b, key, count)

    def reach(self, state: State, corp: str, board: Any = None) -> float:
        """How close `corp`'s network is to revenue it does not reach yet (`kit18xx.reach`)."""
        return self._prospects(state, corp, board)[1]

    def network_value(self, state: State, corp: str, board: Any = None) -> float:
        """The summed value of the stops `corp`'s network reaches (unbuilt ones at what their
        first tile usually gives): what a lay joining or upgrading a stop raises, read off the
        network without a route search."""
        return self._prospects(state, corp, board)[0]

    def _prospects(self, state: State, corp: str, board: Any) -> tuple[float, float]:
        b = state.board if board is None else board
        return RC.prospects(BO.the_map(), state.board, b, corp, BO.colors(state))

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




TITLE = Ireland18xx()
