"""Rounds made of steps, 18xx.games style: each step owns one kind of decision.

A round is an ordered list of steps. A step is *blocking* while it still needs a decision from
someone (the track step until the company has laid or passed, a forced train purchase until a
train is bought); non-blocking steps before it may take actions too (e.g. a private's special
ability any time in the turn). An action goes to the first step, from the top, that accepts its
type for that entity, never past the first blocking step. The round is finished when no step
blocks. Steps are stateless objects working on the title's game state `G` (all step-local data
lives in that state), so a round is just data plus these helpers.

The title's engine builds its rounds from its own steps (e.g. an operating round:
bankrupt, assign, exchange, home token, special track, buy company, issue shares, track, token,
route, dividend, discard train, buy train, buy company (blocking)) and asks `route_action` where
each decision goes, and `legal_types` which decision types an entity has now.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from shared.engine import RuleError

G = TypeVar("G")


class Step(Protocol[G]):
    name: str

    def actions(self, game: G, entity: str) -> frozenset[str]:
        """Action types `entity` may take at this step now (empty when none)."""
        ...

    def blocking(self, game: G) -> bool:
        """True while the step still waits for a decision."""
        ...

    def process(self, game: G, action: Any) -> G:
        """Apply one action of a type from `actions`; raise RuleError if illegal."""
        ...


class Round(Generic[G]):
    def __init__(self, kind: str, steps: Sequence[Step[G]]) -> None:
        self.kind = kind
        self.steps = list(steps)

    def active_step(self, game: G) -> Step[G] | None:
        return next((s for s in self.steps if s.blocking(game)), None)

    def finished(self, game: G) -> bool:
        return self.active_step(game) is None

    def legal_types(self, game: G, entity: str) -> list[str]:
        types: list[str] = []
        for step in self.steps:
            for kind in sorted(step.actions(game, entity)):
                if kind not in types:
                    types.append(kind)
            if step.blocking(game):
                break
        return types

    def route_action(self, game: G, entity: str, kind: str) -> Step[G]:
        for step in self.steps:
            if kind in step.actions(game, entity):
                return step
            if step.blocking(game):
                raise RuleError("wrong_step", f"{step.name} is waiting; {kind} is not possible now")
        raise RuleError("no_step", f"no step takes {kind} now")

    def process(self, game: G, entity: str, kind: str, action: Any) -> G:
        return self.route_action(game, entity, kind).process(game, action)
