"""A player's turn: advance one dial, perform that action or forgo it, then pass the turn.

Each dial counts how often its action was chosen this round; once it reaches its length
it is on red and cannot be chosen. When a turn ends with two dials on red, the dividend
phase runs before the next player's turn (then the dials go back to the start).
"""

from __future__ import annotations

from shared.engine import LegalAction, RuleError

from . import events as ev
from .actions import Choose, Forgo
from .board import ACTIONS
from .dividends import dividend_phase
from .state import BUILD, CHOOSE, DEVELOP, OFFER, OVER, TURN_OVER, BuildProgress, State, next_seat, red_dials

_PHASE_OF = {"auction": OFFER, "build": BUILD, "develop": DEVELOP}
_ACTION_OF = {phase: action for action, phase in _PHASE_OF.items()}
CHOOSE_ACTIONS = tuple(LegalAction(Choose(a)) for a in ACTIONS)


def choose(s: State, seat: int, action: Choose) -> None:
    name = action.action
    if not isinstance(name, str) or name not in _PHASE_OF:
        raise RuleError("unknown_action", f"choose one of {', '.join(ACTIONS)}, not {name!r}")
    dial = ACTIONS.index(name)
    if s.dials[dial] >= s.dial_lengths[dial]:
        raise RuleError("dial_red", f"the {name} dial is on red: {name} cannot be chosen until the dividend phase")
    s.dials[dial] += 1
    s.log.append(ev.Chose(seat=seat, action=name))
    s.phase = _PHASE_OF[name]
    if s.phase == BUILD:
        s.build = BuildProgress(company=-1, placed=(), reached_chicago=False)


def forgo(s: State, seat: int, action: Forgo) -> None:
    if s.build is not None and s.build.placed:
        raise RuleError("already_building", "locomotives were placed; finish the build with done")
    s.log.append(ev.Forgone(seat=seat, action=_ACTION_OF[s.phase]))
    s.build = None
    s.phase = TURN_OVER


def finish_turn(s: State) -> None:
    if red_dials(s) >= 2:
        dividend_phase(s)
        if s.phase == OVER:
            return
    s.current = next_seat(s, s.current)
    s.phase = CHOOSE


def legal_choices(s: State) -> list[LegalAction]:
    return [CHOOSE_ACTIONS[d] for d in range(len(ACTIONS)) if s.dials[d] < s.dial_lengths[d]]
