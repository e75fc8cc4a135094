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
