"""What a run of trains would earn, before it is sent (the engine contract's optional `preview`):
the core's run preview (`core18xx.board.preview`) on 18Ireland's route rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.games.core18xx.board.preview import run_preview
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland.state import State


def preview(apply: Callable[[State, int, Any], State], state: State, seat: int, action: Any) -> dict[str, Any]:
    turn = state.operating.turn if state.operating is not None else None
    running = turn.corp if turn is not None and turn.stage == "route" else None
    return run_preview("18Ireland", apply, state, seat, action, running,
                       lambda specs: BO.run(state, running or "", specs))
