"""The merger round's decisions with the board's part: connectivity decides which minors may
join, and an accepted merger moves the minors' tokens (and assignment bonuses) to the major."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import LegalAction, RuleError
from shared.games.core18xx.memo import Last
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.rounds import operating_legal as OM
from shared.games.g18ireland import merger_round as MG
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import upkeep as U
from shared.games.g18ireland import company_turn as OP
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


def crowded(state: State) -> str | None:
    """The first company over its train limit (a merger hands the minors' trains to the major):
    it discards before the round goes on (18xx.games' merger round starts with DiscardTrain)."""
    over = OP.crowded(state.money, state.depot)
    return over[0] if over else None


def discard_legal(state: State, corp: str) -> list[LegalAction]:
    return OM.discard(state.money, state.depot, corp)


def merger_step(state: State, player: str, action: Any) -> State:
    """One decision of the merger round; the round reports where it stands in `state.merger`
    (`finished`), and the flow takes it from there (`flow.after_merger_action`)."""
    mr = state.merger
    assert mr is not None
    corp = crowded(state)
    if corp is not None:
        if not isinstance(action, A.DiscardTrain) or action.entity != corp:
            raise RuleError("discard_first", f"{corp} must discard a train first")
        if not any(la.action == action for la in discard_legal(state, corp)):
            raise RuleError("not_owner", f"{corp} does not own {action.train}")
        state = replace(state, depot=T.discard(state.depot, corp, action.train))
        return auto_pass(U.check_end(state))
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
    return auto_pass(U.check_end(state))


def auto_pass(state: State) -> State:
    """18xx.games passes for a player who has nothing to propose (Merge step `auto_actions`),
    turn after turn, until someone can act or the round ends."""
    connected, same = connectivity(state)
    passed = list(state.auto_passed)
    made = len(passed)
    mr = state.merger
    if crowded(state) is not None:
        return state
    while mr is not None and not mr.finished and not mr.to_vote and mr.outcome is None and not mr.merging:
        player = MG.active_player(state.money, mr)
        if player is None or MG.candidates(state.money, mr, player, connected, same):
            break
        mr = MG.pass_(state.money, mr, player, connected, same)
        passed.append(player)
    state = replace(state, merger=mr, auto_passed=passed)
    # each automatic pass is an action of its own in 18xx.games, after which it looks for end
    # triggers (upkeep.check_end): a bank broken in the operating rounds before is seen here
    return U.check_end(state) if len(passed) > made else state


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
