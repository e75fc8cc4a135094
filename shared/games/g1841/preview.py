"""What a run of trains would earn, before it is sent (the engine contract's optional `preview`,
which the 18xx page's hand-edited routes ask): the core's run preview (`core18xx.board.preview`)
on 1841's route rules (`boardside.run`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shared.games.core18xx.board.preview import run_preview
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import operating as OP
from shared.games.g1841.state import State


def preview(apply: Callable[[State, int, Any], State], state: State, seat: int, action: Any) -> dict[str, Any]:
    running = None
    if state.round == "operating" and state.operating is not None and state.operating.turn is not None \
            and state.event is None and not state.founding:
        step = OP.ROUND.active_step(state)
        running = state.operating.turn.corp if step is not None and step.name == "route" else None
    return run_preview("1841", apply, state, seat, action, running, lambda specs: BS.run(state, running or "", specs))
