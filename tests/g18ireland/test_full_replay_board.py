"""Whole games with the board side's own tile-lay costs (core18xx board/track and the 18Ireland
map, built on the board branch): the same exact final values and end reasons, and the board's
costs equal the test stand-in's on every lay. Skips until the board side is present."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.games.g18ireland import replay as R

from .board_standin import LayCosts
from .exports import export_paths

B = pytest.importorskip("shared.games.core18xx.board", reason="board side (core18xx.board) not merged yet")
TR = pytest.importorskip("shared.games.core18xx.track", reason="board side (core18xx.track) not merged yet")
MAP = pytest.importorskip("shared.games.g18ireland.map", reason="18Ireland map (board side) not merged yet")

EXPORTS = export_paths("18Ireland")


class BoardCosts:
    """Lay cost from the board: terrain of the tile replaced (none for all-narrow tiles) plus the
    lay slot's fee, tracking the board through every lay."""

    def __init__(self) -> None:
        self.m = MAP.board_map()
        self.b = B.initial(self.m)
        self.upgraded = False
        self.standin = LayCosts()
        self.diffs: list[tuple[Any, ...]] = []

    def __call__(self, money: Any, company: str, action: dict[str, Any], n: int) -> int:
        coord, name = action["hex"], action["tile"].rpartition("-")[0]
        if n == 0:
            self.upgraded = False
        old = B.tile_at(self.m, self.b, coord)
        slot = TR.ireland_lay_slot(n, self.upgraded, dargan=money.companies.get("WDE") == company)
        self.b, _ = B.lay_lifting(self.m, self.b, coord, name, action["rotation"], action["tile"])
        new = B.tile_at(self.m, self.b, coord)
        if old.tile.color != "white":
            self.upgraded = True
        extra = (slot.cost if new.tile.color == "yellow" else slot.upgrade_cost) if slot else 0
        cost = TR.terrain_cost(old, new, TR.IRELAND, None) + extra
        if cost != self.standin(money, company, action, n):
            self.diffs.append((coord, name, n, cost))
        return cost


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_whole_game_with_board_costs(path: Path) -> None:
    export = json.loads(path.read_text())
    costs = BoardCosts()
    rp = R.replay(export, costs, check_legal=True)
    assert rp.used == rp.total
    assert R.summary(rp) == {"result": {str(k): v for k, v in export["result"].items()},
                             "game_end_reason": export["game_end_reason"]}
    assert costs.diffs == []
