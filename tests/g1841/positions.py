"""Hand-built 1841 positions for the board tests: the default map, tokens and tiles put down
as given (no legality checks), the phase's borders closed."""

from __future__ import annotations

from shared.games.core18xx.board import state as S
from shared.games.g1841 import data as D
from shared.games.g1841.board import regions as RG

M = D.the_map()


def board(tokens: list[tuple[str, str, int]], tiles: list[tuple[str, str, int]] = (),  # type: ignore[assignment]
          phase: int = 2) -> S.BoardState:
    b = S.initial(M)
    for corp, coord, city in tokens:
        b = S.place_token(M, b, corp, coord, city)
    for coord, tile, rot in tiles:
        b = S.lay(M, b, coord, tile, rot)
    return RG.phase_board(M, b, "default", phase)
