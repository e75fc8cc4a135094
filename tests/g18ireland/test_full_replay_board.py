"""Whole games with the board side (core18xx board/track/tokens/network and the 18Ireland map,
built on the board branch, followed through its own export walker): the board prices every tile
lay and answers the operating steps' questions (a token possible? a route to run?), our step
machine must find every pass and decision exactly where 18xx.games had them, and the final values
and end reason must be the export's. The board's lay costs must also equal the test stand-in's.
Skips until the board side is present."""

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
K = pytest.importorskip("shared.games.core18xx.tokens", reason="board side (core18xx.tokens) not merged yet")
NW = pytest.importorskip("shared.games.core18xx.network", reason="board side (core18xx.network) not merged yet")
MAP = pytest.importorskip("shared.games.g18ireland.map", reason="18Ireland map (board side) not merged yet")
WALK = pytest.importorskip("core18xx.ireland_replay", reason="board export walker (tests/core18xx) not merged yet")

EXPORTS = export_paths("18Ireland")


class Board:
    """The board branch's export walker as the replay's board: it sees every decision; lays are
    priced on the board before them (terrain of the replaced tile, none for all-narrow tiles, plus
    the slot's fee); a token is possible where a reachable city has a free slot; a route exists
    when a token reaches two or more stops over broad gauge (18xx.games `route_available`)."""

    def __init__(self) -> None:
        self.walker = WALK.Replay()
        self.standin = LayCosts()
        self.diffs: list[tuple[Any, ...]] = []

    def see(self, move: dict[str, Any]) -> None:
        self.walker.step(move)

    def lay(self, move: dict[str, Any], lays_done: int, upgraded: bool, dargan: bool) -> tuple[int, bool]:
        w = self.walker
        coord, name = move["hex"], move["tile"].rpartition("-")[0]
        old = B.tile_at(w.m, w.b, coord)
        after, _ = B.lay_lifting(w.m, w.b, coord, name, move["rotation"], move["tile"])
        new = B.tile_at(w.m, after, coord)
        slot = TR.ireland_lay_slot(lays_done, upgraded, dargan=dargan)
        extra = (slot.cost if new.tile.color == "yellow" else slot.upgrade_cost) if slot else 0
        cost = TR.terrain_cost(old, new, TR.IRELAND, None) + extra
        if cost != self.standin(None, str(move["entity"]), move, lays_done):
            self.diffs.append((coord, name, lays_done, cost))
        return cost, old.tile.color != "white"

    def can_token(self, corp: str, cost: int, cash: int) -> bool:
        return bool(K.legal_tokens(self.walker.m, self.walker.b, corp, cost, cash))

    def can_run(self, corp: str) -> bool:
        return len(NW.broad(self.walker.m, self.walker.b, corp).nodes) > 1

    def tokens_placed(self, corp: str) -> int:
        return len(B.token_hexes(self.walker.b, corp))

    def connected(self, minor: str, other: str) -> bool:
        return MAP.merge_connected(self.walker.m, self.walker.b, minor, other)

    def same_tile(self, minor: str, other: str) -> bool:
        return MAP.same_tile(self.walker.m, self.walker.b, minor, other)


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_whole_game_with_the_board(path: Path) -> None:
    export = json.loads(path.read_text())
    board = Board()
    rp = R.replay(export, check_legal=True, board=board)
    assert rp.used == rp.total
    assert R.summary(rp) == {"result": {str(k): v for k, v in export["result"].items()},
                             "game_end_reason": export["game_end_reason"]}
    assert board.diffs == []
    assert board.walker.failures == []
