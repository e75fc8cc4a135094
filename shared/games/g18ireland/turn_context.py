"""What a company's turn reads off the board: the operating context (tokens used, a home lifted
by a lay and waiting to go back), 18xx.games' remembered token answers, and the board change
that makes it forget them."""

from __future__ import annotations

from functools import lru_cache

import msgspec

from shared.games.core18xx.board import state as B
from shared.games.core18xx.memo import Last
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import company_turn as OP
from shared.games.g18ireland.map import SPECIAL_LAY_COUNTS
from shared.games.g18ireland.state import State

replace = msgspec.structs.replace


@lru_cache(maxsize=1)
def _base_context() -> OP.OrContext:
    return OP.context({})


def context(state: State) -> OP.OrContext:
    """The operating context with tokens used read off the board, plus a home token lifted by
    a lay and waiting to go back."""
    # asked several times per decision, and the tokens change only when one is placed or moved:
    # the last context is kept, keyed by the tokens dict, the companies and the lifted homes
    # (read without a call: the answer holds its inputs)
    tokens, corps = state.board.tokens, tuple(state.money.corps)
    lifted = tuple(p.corp for p in state.pending if p.kind == "relocate") if state.pending else ()
    known = _CONTEXT.value
    if known is not None and known[0] is tokens and known[1] == corps and known[2] == lifted:
        return known[3]
    owners = B.token_owners(state.board)    # one index for all companies
    used = {sym: len(owners.get(sym, ())) for sym in corps}
    for corp in lifted:
        if corp in used:
            used[corp] += 1
    ctx = replace(_base_context(), tokens_used=used)
    _CONTEXT.value = (tokens, corps, lifted, ctx)
    return ctx


_CONTEXT = Last()


def can_token(state: State, corp: str, cost: int) -> bool:
    """A reachable city with a free slot for `corp`'s next token at `cost`. 18xx.games
    (Graph#can_token?) answers from its graph's memo, emptied only when a tile is laid or a
    token placed: an answer given before a company closed stands after it (`token_seen`)."""
    seen = state.token_seen.get(corp)
    if seen is not None:
        return seen
    key = (state.board, state.money)
    hit = _TOKEN.get(key, (corp, cost))
    if hit is None:
        hit = _TOKEN.put(key, bool(BO.token_spots(state, corp, cost)), (corp, cost))
    return hit


_TOKEN = Last()


def remember_token(state: State, corp: str, cost: int) -> State:
    """`state` with the token answer for `corp` kept, as 18xx.games' graph keeps it once asked."""
    if corp in state.token_seen:
        return state
    return replace(state, token_seen={**state.token_seen, corp: can_token(state, corp, cost)})


def board_changed(state: State, board: B.BoardState) -> State:
    """A tile laid or a token placed: the new board, and 18xx.games forgets its token answers."""
    return replace(state, board=board, token_seen={})


def used_up(state: State, company: str) -> bool:
    """`company`'s special lays are all used (an assignment closes its private: only lays count)."""
    return state.special_used.get(company, 0) >= SPECIAL_LAY_COUNTS.get(company, 1 << 30)
