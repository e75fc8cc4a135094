"""The moves 18xx.games makes by itself in 1841's operating turns, for `export-18xx`.

Three of G1841's steps stop and answer themselves (their `auto_actions`), where our steps simply
close: `Destinate` after a turn's track step that laid a tile (a `destination_connection` naming
the end-trigger off-boards newly reached), `BuyToken` when a corporation with a token to place
and some cash reaches no token it could buy (a pass), and `Merge` when a corporation that may
merge has no partner (a pass). 18xx.games records those moves in the `auto_actions` of the
decision after which they happened and replays them from there, so an export must carry them.

`Exporter.auto_actions(before, after)` walks the operating turns between two positions (the
rest of the turn the decision was made in, any turns skipped whole, the start of the turn now
waiting) and lists, in 18xx.games' order, those moves at each of the three steps play went past.
The walk assumes both engines wait at the same other steps, which is what the differential
replay checks.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.core18xx import actions as A
from shared.games.core18xx.money import control as C
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import operating as OP
from shared.games.g1841.state import State

# where 18xx.games' three self-answering steps stand among ours (operating.ORDER)
DESTINATE = OP.ORDER["track"] + 0.5
BUY_TOKEN = OP.ORDER["buy_token"]
MERGE = OP.ORDER["merge"]
END = len(OP.STEPS)
replace = msgspec.structs.replace

TurnKey = tuple[int, int, int, str]     # (ORs in the set, OR number, index in the order, corporation)


def _key(state: State) -> TurnKey | None:
    op = state.operating
    if state.round != "operating" or op is None or op.turn is None:
        return None
    return (op.rounds, op.number, op.index, op.turn.corp)


def _position(state: State) -> float:
    """Where the waiting turn stands: its waiting step (the step an event began in while the
    event asks)."""
    t = OP.turn(state)
    if state.event is not None:
        return t.past
    if state.founding:
        return OP.ORDER["shares"]      # a corporation founded in the share step places its tokens
    step = OP.ROUND.active_step(state)
    # a discard another corporation owes mid-turn (a train bought crowded it) stands first among
    # the steps but does not take the turn back: the turn is where it has got to
    return END if step is None or OP.finished(state) else max(OP.ORDER[step.name], t.past)


class Exporter:
    """Follows one game's decisions (it remembers which off-boards each turn began with)."""

    def __init__(self) -> None:
        self.turn: TurnKey | None = None            # the turn last seen waiting
        self.turn_offboards: frozenset[str] = frozenset()   # ... and the off-boards it began with

    def _note(self, state: State) -> None:
        key = _key(state)
        if key is not None and key != self.turn:
            self.turn, self.turn_offboards = key, frozenset(state.offboards)

    def auto_actions(self, before: State, after: State, decision: Any) -> list[Any]:
        self._note(before)
        out: list[Any] = []
        # a corporation "has operated" (may merge) once a turn of its own has ended before
        # this decision (18xx.games' `done_operating!` marks it as its turn ends)
        after = replace(after, operated=before.operated)
        key0, key1 = _key(before), _key(after)
        # a bankrupt corporation is done for the round (`done_this_round`): its merge step
        # offers nothing, not even the pass it makes by itself
        merges = not isinstance(decision, A.Bankrupt)
        if key0 is not None and key0 == key1:
            out += self._crossed(after, key0, _position(before), _position(after), OP.turn(after).lays,
                                 merges=merges)
        else:
            if key0 is not None:
                lays = OP.turn(before).lays + isinstance(decision, A.LayTile)
                out += self._crossed(after, key0, _position(before), END, lays, merges=merges)
            if after.round == "over":
                return out
            for corp in self._skipped(before, after):
                out += self._crossed(after, None, 0, END, 0, corp)
            if key1 is not None:
                self._note(after)
                out += self._crossed(after, key1, 0, _position(after), OP.turn(after).lays)
        self._note(after)
        return out

    def _skipped(self, before: State, after: State) -> list[str]:
        """Corporations whose whole turn fell between the two positions (ours skips a turn with
        nothing to decide; 18xx.games still passes through its steps)."""
        b = before.operating if before.round == "operating" else None
        a = after.operating if after.round == "operating" else None
        upto = (a.index if a.turn is not None else len(a.order)) if a is not None else 0
        # one merged or transformed in its round is passed over there (`done_this_round`)
        if b is not None and a is not None and (b.number, b.rounds) == (a.number, a.rounds):
            corp = b.turn.corp if b.turn is not None else None
            first = a.order.index(corp) + 1 if corp in a.order else b.index + 1
            between = [c for c in a.order[first:upto] if c not in a.done]
        else:
            between = [*(c for c in (b.order[b.index + 1:] if b is not None else []) if b is None or c not in b.done),
                       *(c for c in (a.order[:upto] if a is not None else []) if a is None or c not in a.done)]
        return [c for c in between if self._plays(after, c)]

    @staticmethod
    def _plays(state: State, corp: str) -> bool:
        c = state.money.corps.get(corp)
        return c is not None and c.ipoed and not c.closed and not C.frozen(state.money, corp)

    def _crossed(self, state: State, key: TurnKey | None, start: float, end: float, lays: int,
                 corp: str | None = None, merges: bool = True) -> list[Any]:
        corp = corp if corp is not None else key[3] if key is not None else None
        if corp is None:
            return []
        out: list[Any] = []
        if start < DESTINATE < end and lays > 0:
            known = self.turn_offboards if key is not None and key == self.turn else frozenset(state.offboards)
            new = [h for h in state.offboards if h not in known]
            out.append(A.DestinationConnection(entity=corp, entity_type="corporation", hexes=new))
        if start < BUY_TOKEN < end and self._stops_to_buy_token(state, corp):
            out.append(A.Pass(entity=corp, entity_type="corporation"))
        if merges and start < MERGE < end and OP.mergeable(state, corp) and OP.merge_targets(state):
            out.append(A.Pass(entity=corp, entity_type="corporation"))
        return out

    @staticmethod
    def _stops_to_buy_token(state: State, corp: str) -> bool:
        """G1841 `BuyToken#can_buy_token?`: a token left to place and at least L.1."""
        return state.money.cash.get(corp, 0) >= 1 and state.tokens.get(corp, 0) > BS.placed_tokens(state, corp)
