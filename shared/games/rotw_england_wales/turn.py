"""The flow of a turn: auction, three action rounds, income; the game's end after a round."""

from __future__ import annotations

from . import end, income, rules
from .state import ACTION, AUCTION, Auction, State


def start_turn(s: State) -> None:
    s.phase = AUCTION
    s.auction = Auction(to_act=s.first, bids=[0] * len(s.players))
    s.build = None


def start_actions(s: State, order: list[int] | None = None) -> None:
    n = len(s.players)
    s.auction = None
    s.order = order or [(s.first + i) % n for i in range(n)]
    s.round = 1
    s.pos = 0
    s.phase = ACTION


def current(s: State) -> int:
    return s.order[s.pos]


def action_done(s: State) -> None:
    """The player in turn finished this round's action: move on (round, income, end)."""
    s.build = None
    s.pending = None
    s.phase = ACTION
    s.pos += 1
    if s.pos < len(s.order):
        return
    s.pos = 0
    s.round += 1
    if s.round > rules.ROUNDS_PER_TURN:
        income.remove_open_track(s)
        income.income_phase(s)
        if s.ending and s.turn >= s.final_turn:
            # BGA help: once the limit is reached the turn is completed, then one more is played.
            end.finish(s)
            return
        s.turn += 1
        start_turn(s)
