"""The merger round's decisions with the board's part: connectivity decides which minors may
join, and an accepted merger moves the minors' tokens (and assignment bonuses) to the major."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import LegalAction, RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.legal import covers
from shared.games.core18xx.memo import Last
from shared.games.core18xx.rounds.base import Round
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import merger_round as MG
from shared.games.g18ireland import upkeep as U
from shared.games.g18ireland.common_steps import NONE, DiscardTrain, IrelandStep, Play, seat_of_player
from shared.games.g18ireland.map import merge_connected, same_tile
from shared.games.g18ireland.state import State

replace = msgspec.structs.replace


def connectivity(state: State) -> tuple[Any, Any]:
    """The board's two merger questions on this state's board. The merger round asks the same
    pairs again and again (each player's candidates, the auto-passes, the legality check) of
    one board: the answers are memoized per board, the last board's kept by identity."""
    b = state.board
    hit = _CONNECTIVITY.get((b,))
    if hit is not None:
        return hit
    m = BO.the_map()
    return _CONNECTIVITY.put((b,), (_memo2(lambda a, z: merge_connected(m, b, a, z)),
                                    _memo2(lambda a, z: same_tile(m, b, a, z))))


_CONNECTIVITY = Last()


def _memo2(ask: Any) -> Any:
    known: dict[tuple[str, str], bool] = {}

    def answer(a: str, z: str) -> bool:
        hit = known.get((a, z))
        if hit is None:
            hit = known[(a, z)] = ask(a, z)
        return hit
    return answer


def merger_step(state: State, player: str, action: Any) -> State:
    """One decision of the merger round (a proposal, an added minor, a vote, the major picked);
    the round reports where it stands in `state.merger` (`finished`)."""
    mr = state.merger
    assert mr is not None
    connected, same = connectivity(state)
    money, depot, board, assigned = state.money, state.depot, state.board, state.assigned
    try:
        if isinstance(action, A.Choose):
            mr = MG.vote(money, mr, player, str(action.choice))
        elif isinstance(action, A.Pass):
            mr = MG.pass_(money, mr, player, connected, same)
        elif mr.outcome == "for":
            major = str(action.corporation)
            merged = list(mr.merging or [])
            money, depot, mr = MG.complete(money, depot, mr, player, major)
            for minor in merged:
                board = B.replace_tokens(board, minor, major)
            assigned = {c: (h, major if who in merged else who) for c, (h, who) in assigned.items()}
        else:
            mr = MG.propose(money, mr, player, str(action.corporation), connected, same)
    except KeyError as exc:
        # The merged price is the market cell at the minors' top row and left column; where the
        # market has no such cell (18xx.games fails there too) the merger cannot be made.
        raise RuleError("no_merger_price", f"these minors have no merged share price ({exc.args[0]})") from None
    state = U.with_board(replace(state, money=money, depot=depot, board=board, assigned=assigned, merger=mr))
    return U.check_end(state)


def auto_pass(state: State) -> State:
    """18xx.games passes for a player who has nothing to propose (Merge step `auto_actions`),
    turn after turn, until someone can act or the round ends."""
    connected, same = connectivity(state)
    passed = list(state.auto_passed)
    made = len(passed)
    mr = state.merger
    while mr is not None and not mr.finished and not mr.to_vote and mr.outcome is None and not mr.merging:
        player = MG.active_player(state.money, mr)
        if player is None or MG.candidates(state.money, mr, player, connected, same):
            break
        mr = MG.pass_(state.money, mr, player, connected, same)
        passed.append(player)
    if len(passed) == made:
        return state
    # each automatic pass is an action of its own in 18xx.games, after which it looks for end
    # triggers (upkeep.check_end): a bank broken in the operating rounds before is seen here
    return U.check_end(replace(state, merger=mr, auto_passed=passed))


def legal(state: State, player: str) -> list[LegalAction]:
    mr = state.merger
    assert mr is not None
    out = []
    for la in MG.legal(state.money, mr, player, *connectivity(state)):
        try:
            merger_step(state, player, la.action)
        except RuleError:
            continue
        out.append(la)
    return out


class Merge(IrelandStep):
    """Proposals, votes and the major picked (18xx.games' MergerVote and Merge in one step);
    a player with nothing to propose is passed by the round (`reached`)."""

    name = "merge"
    kinds = frozenset({"merge", "pass", "choose"})

    def blocking(self, state: State) -> bool:
        return state.merger is not None and not state.merger.finished

    def actions(self, state: State, entity: str) -> frozenset[str]:
        return self.kinds if self.blocking(state) else NONE

    def reached(self, state: State) -> State:
        return auto_pass(state)

    def _player(self, state: State) -> str | None:
        assert state.merger is not None
        return MG.active_player(state.money, state.merger)

    def active_entities(self, state: State) -> list[int]:
        player = self._player(state)
        return [] if player is None else [seat_of_player(state, player)]

    def legal(self, state: State) -> list[LegalAction]:
        player = self._player(state)
        return legal(state, player) if player else []

    def process(self, state: State, action: Any) -> State:
        mr = state.merger
        assert mr is not None
        player = str(action.entity)
        if not covers(MG.legal(state.money, mr, player, *connectivity(state)), action):
            raise RuleError("not_allowed", f"{type(action).__name__} is not open to you now")
        return merger_step(state, player, action)


class MergerPlay(Play):
    def decide(self, state: State, seat: int, action: Any) -> State:
        # a discard is a decision of its own: 18xx.games looks for end triggers after it
        return U.check_end(super().decide(state, seat, action))


MERGER = MergerPlay(Round("merger", [DiscardTrain(), Merge()]))


def start_merger(state: State) -> State:
    return replace(state, round="merger", operating=None, merger=MG.start(state.money))
