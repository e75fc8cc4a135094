"""1841 as the 18xx bot kit asks it (`shared/bots/kit18xx/title.py`): the one module of this
bot package that imports the title's rule modules and the shared 18xx core, so when their
paths move only this file follows.

Everything here reads a state; nothing decides (`decisions.py` scores what 1841 adds). Route
revenues come from the title's exact best-route search (`g1841.board.routes.best_routes`,
trains crossing the province borders), read-only. 1841's corporations hold corporations: the
player who decides for one is the player at the top of its chain (`controller`).
"""

from __future__ import annotations

from typing import Any

from shared.bots.kit18xx import reach as RC
from shared.bots.kit18xx.title import StateFields, kept_revenue
from shared.games.core18xx.board import state as B
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import data as D
from shared.games.g1841 import holders as H
from shared.games.g1841 import operating as OP
from shared.games.g1841.board import regions as RG
from shared.games.g1841.board import routes as BR
from shared.games.g1841.board import track as BT
from shared.games.g1841.money import company_revenue, company_values, player_value
from shared.games.g1841.state import State

# searches stop here: a late 1841 network with three long trains has more route sets than a
# heuristic's question is worth (the engine's own suggestion uses 20 000)
ROUTE_LIMIT = 20_000


class G1841Title(StateFields):
    """`Title18xx` for 1841."""

    title = "1841"
    company_values = company_values("default")
    company_revenue = company_revenue("default")
    # a minor has five share units (20 % each, the president's 40 %), a major ten
    share_units = {"minor": 5, "major": 10}

    def round(self, state: State) -> str:
        """The round, or "event" while a train event asks, "founding" while a founding buys
        its tokens (the kit leaves both to `decisions.py`)."""
        if state.event is not None:
            return "event"
        if state.founding:
            return "founding"
        return state.round

    def controller(self, state: State, sym: str) -> str | None:
        return H.decider(state, sym)

    def operating(self, state: State) -> tuple[str, str] | None:
        op = state.operating
        if state.round != "operating" or op is None or op.turn is None or state.event is not None or state.founding:
            return None
        step = OP.ROUND.active_step(state)
        return op.turn.corp, step.name if step is not None else ""

    def pending_token(self, state: State) -> bool:
        """A founding's home token (or a major's optional second) waits to be placed."""
        return state.event is None and bool(state.founding) and state.founding[0].kind in ("home", "home2")

    def phase(self, state: State) -> str:
        return state.depot.current_phase.name

    def player_value(self, state: State, player: str) -> int:
        return player_value(state.money, player, state.loans, state.variant)

    def revenue(self, state: State, corp: str, extra: tuple[int, ...] = (), board: Any = None) -> int:
        """The best total revenue `corp` runs now (on `board`, when given), with its own trains
        plus hypothetical ones of the distances in `extra` (1841's train types are named by
        their distance)."""
        c = state.money.corps.get(corp)
        if c is None or c.closed or not c.ipoed:
            return 0
        trains = [(t.id, t.name) for t in state.depot.owned_by(corp)]
        trains += [(f"extra-{i}", str(d)) for i, d in enumerate(extra)]
        if not trains:
            return 0
        b = state.board if board is None else board
        phase = BS.phase(state)
        key = (tuple(sorted(n for _, n in trains)), corp, phase, state.variant)
        return kept_revenue(b, key, lambda: BR.best_routes(D.the_map(state.variant), b, state.variant, phase, corp, trains,
                                                           limit=ROUTE_LIMIT).total)

    def reach(self, state: State, corp: str, board: Any = None) -> float:
        return self._prospects(state, corp, board)[1]

    def network_value(self, state: State, corp: str, board: Any = None) -> float:
        return self._prospects(state, corp, board)[0]

    def _prospects(self, state: State, corp: str, board: Any) -> tuple[float, float]:
        m = D.the_map(state.variant)
        phase = BS.phase(state)
        b = state.board if board is None else board
        # track is walked with the phase's province borders closed (they bind in phase 2)
        walked = lambda x: RG.track_board(m, x, state.variant, phase)  # noqa: E731
        return RC.prospects(m, state.board, b, corp, BT.phase_colors(state.variant, phase), walked)

    def lay_cost(self, state: State, corp: str, coord: str, tile: str, rotation: int) -> int | None:
        """What the lay costs, as the engine's own lay enumeration prices it (memoized per
        board: the listing asked for it already). None when it is not among them."""
        op = state.operating
        if state.round != "operating" or op is None or op.turn is None or op.turn.corp != corp:
            return None
        lays = BS.legal_lays(state, corp)
        key = id(lays)
        table = _COSTS.get(key)
        if table is None or table[0] is not lays:
            if len(_COSTS) > 64:
                _COSTS.clear()
            table = _COSTS[key] = (lays, {(x.hex, x.tile, x.rotation % 6): x.cost for x in lays})
        return table[1].get((coord, tile, rotation % 6))

    def board_after_lay(self, state: State, coord: str, copy: str, rotation: int) -> Any | None:
        name = copy.rpartition("-")[0] or copy
        try:
            board, lifted = B.lay_lifting(D.the_map(state.variant), state.board, coord, name, rotation, copy)
        except B.BoardError:
            return None
        return None if lifted else board

    # 1841's mergers are asked in the operating turn and by its events (`decisions.py`), not
    # in a merger round of the kit's kind
    def merged_price(self, state: State, minors: list[str]) -> int | None:
        return None

    def merging(self, state: State) -> list[str]:
        return []

    def proposed(self, state: State) -> list[list[str]]:
        return []

    def scores(self, p: Any, legal: list[Any]) -> tuple[list[tuple[float, Any]], list[Any]]:
        from . import decisions
        return decisions.scores(p, legal)


_COSTS: dict[int, tuple[Any, dict[tuple[str, str, int], int]]] = {}

TITLE = G1841Title()
