"""The round router: actions go to the first step that takes them, never past a waiting step."""

from __future__ import annotations

import pytest

from shared.engine import RuleError
from shared.games.core18xx.rounds.base import Round


class Counter:
    """A toy game: dict of counters; each step owns one counter and one action kind."""

    def __init__(self, name: str, kind: str, needed: int, anytime: bool = False) -> None:
        self.name, self.kind, self.needed, self.anytime = name, kind, needed, anytime

    def actions(self, game: dict[str, int], entity: str) -> frozenset[str]:
        if self.anytime or game[self.name] < self.needed:
            return frozenset({self.kind})
        return frozenset()

    def blocking(self, game: dict[str, int]) -> bool:
        return not self.anytime and game[self.name] < self.needed

    def process(self, game: dict[str, int], action: str) -> dict[str, int]:
        return {**game, self.name: game[self.name] + 1}


def test_routing_and_blocking() -> None:
    r = Round("operating", [Counter("buy_company", "buy_company", 0, anytime=True),
                            Counter("track", "lay_tile", 2), Counter("train", "buy_train", 1)])
    g = {"buy_company": 0, "track": 0, "train": 0}
    assert r.active_step(g).name == "track"  # type: ignore[union-attr]
    assert r.legal_types(g, "X") == ["buy_company", "lay_tile"]
    g = r.process(g, "X", "buy_company", "buy")          # a non-blocking step before the waiting one
    with pytest.raises(RuleError) as err:
        r.process(g, "X", "buy_train", "2H")               # not past the waiting track step
    assert err.value.code == "wrong_step"
    g = r.process(r.process(g, "X", "lay_tile", "t1"), "X", "lay_tile", "t2")
    assert r.legal_types(g, "X") == ["buy_company", "buy_train"]
    g = r.process(g, "X", "buy_train", "2H")
    assert r.finished(g) and g == {"buy_company": 1, "track": 2, "train": 1}
    with pytest.raises(RuleError) as err:
        r.process(g, "X", "lay_tile", "t3")
    assert err.value.code == "no_step"


class Skipped(Counter):
    """A step with nothing to decide once `needed` is 0; its `skip` notes that it was passed."""

    def skip(self, game: dict[str, int]) -> dict[str, int]:
        return {**game, f"skipped_{self.name}": 1}

    def reached(self, game: dict[str, int]) -> dict[str, int]:
        return {**game, "waiting": self.needed}

    def active_entities(self, game: dict[str, int]) -> list[str]:
        return ["X"]

    def legal(self, game: dict[str, int]) -> list[str]:
        return [self.kind] if self.blocking(game) else []

    def refusal(self, game: dict[str, int], kind: str) -> RuleError:
        return RuleError("not_allowed", f"{self.name} first")


def test_advance_skips_to_the_waiting_step_and_it_answers_for_the_round() -> None:
    r = Round("operating", [Skipped("issue", "sell_shares", 0), Skipped("track", "lay_tile", 1),
                            Counter("train", "buy_train", 1)])
    g = r.advance({"issue": 0, "track": 0, "train": 0})
    assert g["skipped_issue"] == 1 and g["waiting"] == 1 and "skipped_track" not in g
    assert r.active_entities(g) == ["X"] and r.legal(g) == ["lay_tile"]
    with pytest.raises(RuleError) as err:
        r.process(g, "X", "buy_train", "2H")               # the waiting step's own refusal
    assert err.value.code == "not_allowed" and "track" in err.value.message
    g = r.advance(r.process(g, "X", "lay_tile", "t1"))
    assert g["skipped_track"] == 1 and r.active_step(g).name == "train"  # type: ignore[union-attr]
    assert r.active_entities(g) == [] and r.legal(g) == []  # a step without the hooks answers nothing


class Asked(Counter):
    """A Counter that counts how often it is asked whether it blocks (in a list outside the game)."""

    def __init__(self, *args: object, log: list[str], **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.log = log

    def blocking(self, game: dict[str, int]) -> bool:
        self.log.append(self.name)
        return super().blocking(game.get("counters", game))  # type: ignore[arg-type]


def test_version_keeps_the_waiting_step_across_bookkeeping_copies() -> None:
    # the version is the counters' dict alone: a game that differs only in its "moves" note
    # (bookkeeping no step reads) has the same waiting step, and nobody is asked again
    log: list[str] = []
    r: Round[dict] = Round("operating", [Asked("track", "lay_tile", 1, log=log), Asked("train", "buy_train", 1, log=log)],
                           version=lambda g: (g["counters"],))
    counters = {"track": 0, "train": 0}
    g = {"counters": counters, "moves": 0}

    assert r.active_step({"counters": counters, "moves": 0}).name == "track"  # type: ignore[union-attr]
    asked = len(log)
    assert r.active_step({**g, "moves": 1}).name == "track"  # type: ignore[union-attr]
    assert r.finished({**g, "moves": 2}) is False and len(log) == asked
    done = {"counters": {"track": 1, "train": 0}, "moves": 3}      # a new counters dict: asked again
    assert r.active_step(done).name == "train" and len(log) > asked  # type: ignore[union-attr]


def test_kinds_and_never_blocking_steps_are_not_asked() -> None:
    log: list[str] = []
    anytime = Asked("buy_company", "buy_company", 0, anytime=True, log=log)
    anytime.blocks = False      # type: ignore[attr-defined]
    track = Asked("track", "lay_tile", 2, log=log)
    track.kinds = frozenset({"lay_tile"})   # type: ignore[attr-defined]
    asked: list[str] = []
    real = track.actions

    def actions(game: dict[str, int], entity: str) -> frozenset[str]:
        asked.append("track")
        return real(game, entity)

    track.actions = actions  # type: ignore[method-assign]
    r = Round("operating", [anytime, track, Counter("train", "buy_train", 1)])
    g = {"buy_company": 0, "track": 0, "train": 0}
    assert r.route_action(g, "X", "buy_company") is anytime
    assert "buy_company" not in log                 # never asked whether it blocks
    with pytest.raises(RuleError):
        r.route_action(g, "X", "buy_train")         # still refused in front of the waiting track
    assert asked == []                              # track cannot take buy_train: not asked
    assert r.route_action(g, "X", "lay_tile") is track and asked == ["track"]


class Staged(Skipped):
    """A step of an entity's turn with a rank: passed once the game's "stage" is beyond it."""

    def __init__(self, *args: object, rank: int, log: list[str], **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.rank, self.log = rank, log

    def blocking(self, game: dict[str, int]) -> bool:
        self.log.append(self.name)
        return game["stage"] <= self.rank and super().blocking(game)

    def skip(self, game: dict[str, int]) -> dict[str, int]:
        self.log.append(f"skip {self.name}")
        return game if game["stage"] > self.rank else super().skip(game)


def test_progress_leaves_passed_steps_unasked_and_changes_no_answer() -> None:
    # the same turn with and without `progress`: the same states, steps and answers; with it,
    # a step ranked below the turn's stage is neither asked whether it blocks nor skipped
    def turn(log: list[str], progress: bool) -> Round[dict]:
        steps = [Counter("anytime", "buy_company", 0, anytime=True),
                 Staged("issue", "sell_shares", 0, rank=0, log=log), Staged("track", "lay_tile", 1, rank=1, log=log),
                 Staged("train", "buy_train", 1, rank=2, log=log)]
        return Round("operating", steps, progress=(lambda g: g["stage"]) if progress else None)

    plain_log: list[str] = []
    staged_log: list[str] = []
    plain, staged = turn(plain_log, False), turn(staged_log, True)
    for stage in range(4):
        g = {"anytime": 0, "issue": 0, "track": 0, "train": 0, "stage": stage}
        (after, waiting), (staged_after, staged_waiting) = plain.advance_to(g), staged.advance_to(g)
        assert after == staged_after and _name(waiting) == _name(staged_waiting)
        assert _name(plain.active_step(g)) == _name(staged.active_step(g))
        assert [s.name for s in plain.open_steps(g)] == [s.name for s in staged.open_steps(g)]
        assert plain.legal(g) == staged.legal(g) and plain.finished(g) == staged.finished(g)
    assert "issue" in plain_log and "skip issue" in plain_log
    # stage 3 is past every ranked step: with progress none of them was asked at that stage
    staged_log.clear()
    staged.advance_to({"anytime": 0, "issue": 0, "track": 0, "train": 0, "stage": 3})
    assert staged_log == []


def _name(step: object) -> str | None:
    return None if step is None else step.name  # type: ignore[attr-defined]
