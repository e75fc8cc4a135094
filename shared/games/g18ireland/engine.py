"""ENGINE: 18Ireland under the engine contract (see docs/engine-contract.md and README.md).

Actions are 18xx.games' own (`core18xx.actions.GameAction`: its type tags and field names), so
an 18xx.games export's decisions apply as they are, with player ids replaced by seat ids.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from shared.engine import LegalAction, Result, RuleError, TitleMeta
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.legal import has_bookkeeping
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.rounds import waterfall_auction as W
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import flow as F
from shared.games.g18ireland import from_18xx
from shared.games.g18ireland import listing as L
from shared.games.g18ireland import money as M
from shared.games.g18ireland import preview as PR
from shared.games.g18ireland import program_moves as PM
from shared.games.g18ireland import programs as PG
from shared.games.g18ireland.meta import META
from shared.games.g18ireland.setup_random import draw_setup
from shared.games.g18ireland.state import State
from shared.games.g18ireland.view import round_label as label_of
from shared.games.g18ireland.view import view as build_view

replace = msgspec.structs.replace
PROGRAM_TYPES = A.ProgramAction.__args__
DECISION_TYPES = frozenset(A.GAME_ACTION_TYPES.values())


class Ireland:
    meta: ClassVar[TitleMeta] = META
    title: ClassVar[str] = META.id
    # 18xx.games' decisions and its players' programs (`program_*`)
    action_type: ClassVar[Any] = A.GameAction | A.ProgramAction
    state_type: ClassVar[type] = State
    # how `roundhouse import-18xx` reads this title's 18xx.games exports
    from_18xx: ClassVar[Any] = from_18xx

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        if not META.min_players <= len(seats) <= META.max_players:
            raise RuleError("bad_seats", f"18Ireland takes {META.min_players} to {META.max_players} players")
        larger = options.get("larger_bank", False)
        if type(larger) is not bool:
            raise RuleError("bad_options", "larger_bank must be true or false")
        players = [str(i) for i in range(len(seats))]
        drawn = draw_setup(seed, list(F.COMPANY_VALUES), F.MINORS)
        start = M.initial(players, drawn, larger_bank=larger)
        auction = W.new_waterfall(players, {p: start.money.cash[p] for p in players},
                                  [(c, F.COMPANY_VALUES[c]) for c in drawn.companies],
                                  unbid_cheapest_leaves=True)
        state = State(seats=list(seats), players=players, setup=drawn, larger_bank=larger, money=start.money,
                      depot=start.depot, minor_order=start.minor_order, board=B.initial(BO.the_map()),
                      round="auction", auction=auction)
        return F.with_board(state)

    def active_seats(self, state: State) -> frozenset[int]:
        return L.active_seats(state)

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]:
        return L.for_seat(state, seat)

    # `apply` is a pure function of immutable states, so its results are memoized for the
    # states recently folded: undo and redo refold from the nearest checkpoint
    # (meta.checkpoint_every decisions back), and with this those refolds reuse the states
    # already computed instead of replaying every rule again. Keyed by the state's id; the
    # entry holds the state so the id cannot be reused while cached. Errors are not cached.
    _MEMO_SIZE: ClassVar[int] = 256
    _memo: ClassVar[dict[tuple, tuple[State, State]]] = {}

    def apply(self, state: State, seat: int, action: Any) -> State:
        try:
            key = (id(state), seat, type(action), msgspec.json.encode(action))
        except (TypeError, msgspec.EncodeError):
            return self._apply(state, seat, action)
        memo = Ireland._memo
        hit = memo.get(key)
        if hit is not None and hit[0] is state:
            memo.pop(key, None)  # most recently used last
            memo[key] = hit
            return hit[1]
        after = self._apply(state, seat, action)
        while len(memo) >= self._MEMO_SIZE:
            memo.pop(next(iter(memo)), None)
        memo[key] = (state, after)
        return after

    def _apply(self, state: State, seat: int, action: Any) -> State:
        if state.round == "over":
            raise RuleError("game_over", "the game has ended")
        program = isinstance(action, PROGRAM_TYPES)
        if not isinstance(action, A.Action) or not (program or type(action) in DECISION_TYPES):
            raise RuleError("bad_action", f"{type(action).__name__} is not an 18Ireland action")
        if has_bookkeeping(action):
            raise RuleError("bad_action", "id, user, created_at and auto_actions are an export's, not a decision's")
        if L.actor(state, action) != seat:
            raise RuleError("not_your_turn", f"seat {seat} does not decide for {action.entity}")
        if program and action.entity_type != "player":
            raise RuleError("bad_entity", "a program is a player's")
        if not program and seat not in L.active_seats(state):
            raise RuleError("not_your_turn", f"seat {seat} is not to act now")
        if state.auto_passed:
            state = replace(state, auto_passed=[])
        if state.programs.made:
            state = replace(state, programs=replace(state.programs, made=[]))
        player = state.players[seat]
        if program:
            # set at any time, whoever's turn it is (18xx.games' Program step blocks nothing)
            held = state.programs.held.get(player)
            PG.check(state, player, action, held)
            programs = PG.disable(state.programs, player, PG.USER) if isinstance(action, A.ProgramDisable) \
                else PG.enable(state.programs, player, action, PG.stamp(state.moves, state.programs))
            state = replace(state, programs=programs)
        else:
            state = PM.observe(state, self._decide(state, seat, action), player, action)
        state = PM.run(state, self._decide)
        if state.round != "over":
            # and again once the action is done: a broken bank stays broken in 18xx.games, so
            # a sale the pool pays for that took the bank below zero is not undone by the
            # purchase that puts money back (flow.check_end)
            state = F.check_end(state)
        return replace(state, moves=state.moves + 1)

    def _decide(self, state: State, seat: int, action: Any) -> State:
        """One decision of the round in play, and everything automatic after it."""
        return F.settle(F.decide(state, seat, action))

    # --- reading ------------------------------------------------------------------------------

    def round_label(self, state: State) -> str:
        return label_of(state)

    def preview(self, state: State, seat: int, action: Any) -> dict[str, Any]:
        return PR.preview(self.apply, state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def redact(self, state: State, seat: int, seed: int) -> State:
        # Every certificate, cash amount, train and tile is public, and the set-up's random draw
        # is shown to everyone (18xx.games draws nothing after it). Only the other players'
        # programs are hidden: the seat knows none of them (nothing to sample: it plays on as
        # if the others decide each move themselves).
        programs = PG.hidden_from(state.programs, state.players[seat] if 0 <= seat < len(state.players) else None)
        return state if programs is state.programs else replace(state, programs=programs)

    def result(self, state: State) -> Result | None:
        if state.round != "over":
            return None
        return self.standings(state)

    def standings(self, state: State) -> Result:
        """Ranked by player value (cash and shares at market), as the end of the game ranks."""
        scores = [O.player_value(state.money, p, F.COMPANY_VALUES) for p in state.players]
        ranks = [1 + sum(1 for other in scores if other > s) for s in scores]
        winners = [i for i, r in enumerate(ranks) if r == 1]
        return Result(scores=scores, ranks=ranks, winners=winners, reason=state.end[0] if state.end else "standings")

    def reveals(self, before: State, after: State) -> bool:
        return False


ENGINE = Ireland()
