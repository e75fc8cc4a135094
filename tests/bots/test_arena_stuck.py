"""The arena's fallback at a seat the engine calls active whose only legal actions are programs:
the game stops there as `stuck` (counted, one stderr line) instead of setting programs until the
action cap. The title is a test title whose second decision leaves seat 0 active with nothing but a
program to set: a rules bug of the kind the arena must report, not play around."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
import pytest

from shared.bots import Budget
from shared.engine import LegalAction, Result, RuleError, TitleMeta
from shared.games import register

from services.offline.arena import STUCK, Job, play_game, summarize

TITLE = "arena-stuck"


class Step(msgspec.Struct, tag="step", frozen=True):
    pass


class ProgramPass(msgspec.Struct, tag="program_pass", frozen=True):
    pass


class StuckState(msgspec.Struct, frozen=True):
    seats: list[str]
    steps: int = 0


class Stuck:
    meta: ClassVar[TitleMeta] = TitleMeta(id=TITLE, name="Stuck", min_players=2, max_players=2, rules_version="1")
    title: ClassVar[str] = TITLE
    action_type: ClassVar[Any] = Step | ProgramPass
    state_type: ClassVar[type] = StuckState

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> StuckState:
        return StuckState(list(seats))

    def active_seats(self, state: StuckState) -> frozenset[int]:
        return frozenset({0})

    def legal_actions(self, state: StuckState, seat: int) -> list[LegalAction]:
        # after two steps seat 0 is still to act, with only a program on offer
        moves = [LegalAction(Step())] if seat == 0 and state.steps < 2 else []
        return moves + [LegalAction(ProgramPass())]

    def apply(self, state: StuckState, seat: int, action: Any) -> StuckState:
        if isinstance(action, ProgramPass):
            return state
        if seat != 0 or state.steps >= 2:
            raise RuleError("not_your_turn", "no step now")
        return msgspec.structs.replace(state, steps=state.steps + 1)

    def view(self, state: StuckState, seat: int | None) -> dict[str, Any]:
        return {"steps": state.steps}

    def redact(self, state: StuckState, seat: int, seed: int) -> StuckState:
        return state

    def result(self, state: StuckState) -> Result | None:
        return None


@pytest.mark.parametrize(("bot", "illegal"), [("random", 0), ("mcts", 1)])
def test_a_seat_with_only_programs_stops_the_game_as_stuck(bot: str, illegal: int,
                                                           capfd: pytest.CaptureFixture[str]) -> None:
    register(Stuck())
    record = play_game(Job(title=TITLE, lineup=[bot, bot], game=0, seed=1, budget=Budget(iterations=5),
                           max_actions=1000))
    # the two steps were played; then the seat had nothing but the program (the random bot sets
    # it; the search finds no option, an illegal move whose fallback is the program): the game
    # stops at once, not at the cap
    assert record.actions == 2
    assert not record.finished and record.reason == STUCK
    assert record.illegal == [illegal, 0]
    assert f"arena: stuck: game 0 seat 0 ({bot}) at move 2" in capfd.readouterr().err
    line, _ = summarize([record], [bot])
    assert line.arena.stuck == 1 and line.arena.end_reasons == {STUCK: 1}
