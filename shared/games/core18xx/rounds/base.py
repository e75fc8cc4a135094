"""Rounds made of steps, 18xx.games style: each step owns one kind of decision.

A round is an ordered list of steps. A step is *blocking* while it still needs a decision from
someone (the track step until the company has laid or passed, a forced train purchase until a
train is bought); non-blocking steps before it may take actions too (e.g. a private's special
ability any time in the turn). An action goes to the first step, from the top, that accepts its
type for that entity, never past the first blocking step. The round is finished when no step
blocks. Steps are stateless objects working on the title's game state `G` (all step-local data
lives in that state), so a round is just data plus these helpers.

Besides the three methods of `Step`, a step may have these (looked up, so a step without them
still fits; 18xx.games' `Step::Base` has the same):
  skip(game) -> game         what the step does on its own when play moves past it with nothing
                             to decide (a dividend of nothing withheld; the step marks itself
                             passed in the state). `Round.advance` calls it.
  reached(game) -> game      the step has become the one waiting (to note it in the state)
  active_entities(game)      who decides at this step now (`Round.active_entities`)
  legal(game) -> list        the step's decisions now, in the title's form (`Round.legal`)
  refusal(game, kind)        the RuleError for an action this waiting step stands in front of
  kinds: frozenset[str]      every action type `actions` may ever give (routing asks `actions`
                             only of the steps whose kinds hold the action's type)
  blocks = False             the step never blocks (18xx.games' `blocks?`): it is not asked

The title's engine builds its rounds from its own steps (e.g. an operating round:
home token, discard train, special track, buy company, issue shares, track, token, route,
dividend, buy train, buy company (blocking)), asks `route_action` where each decision goes,
`legal_types` which decision types an entity has now, and `advance` after each decision; when
`finished`, the title's own sequence says which round comes next.

Which step waits is asked several times a decision (who acts, routing, moving on in the round,
moving on in the flow), of states that differ only in bookkeeping the steps never read (a move
counter, a log of automatic passes). A title may give the round its `version(game)`: the parts
of the state its steps read, as a tuple compared by identity (frozen states copy what they
change). The round then keeps, for the last version, the first waiting step and whether it came
out of `advance_to` (advancing an advanced state changes nothing: a step's `skip` and `reached`
on the state they produced are no-ops), and answers again from that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from shared.engine import RuleError
from shared.games.core18xx.memo import Last

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
    def __init__(self, kind: str, steps: Sequence[Step[G]], version: Callable[[G], tuple] | None = None) -> None:
        self.kind = kind
        self.steps = list(steps)
        # the optional hooks and declarations, looked up once (a round asks after every decision)
        self._hooks = [(s, getattr(s, "blocks", True), getattr(s, "skip", None), getattr(s, "reached", None))
                       for s in self.steps]
        self._blockers = [(i, s) for i, (s, blocks, _, _) in enumerate(self._hooks) if blocks]
        self._kinds: list[frozenset[str] | None] = [getattr(s, "kinds", None) for s in self.steps]
        self._version = version
        # (index of the first blocking step, len(steps) if none; whether advance_to produced it)
        self._waiting = Last()

    def _first_blocking(self, game: G) -> int:
        version = self._version
        if version is not None:
            held = version(game)
            known = self._waiting.get(held)
            if known is not None:
                return known[0]
        index = next((i for i, s in self._blockers if s.blocking(game)), len(self.steps))
        if version is not None:
            self._waiting.put(held, (index, False))
        return index

    def active_step(self, game: G) -> Step[G] | None:
        index = self._first_blocking(game)
        return self.steps[index] if index < len(self.steps) else None

    def finished(self, game: G) -> bool:
        return self._first_blocking(game) == len(self.steps)

    def open_steps(self, game: G) -> list[Step[G]]:
        """The steps that may take an action now: each from the top, to the first blocking one."""
        return self.steps[:self._first_blocking(game) + 1]

    def legal_types(self, game: G, entity: str) -> list[str]:
        types: list[str] = []
        for step in self.open_steps(game):
            for kind in sorted(step.actions(game, entity)):
                if kind not in types:
                    types.append(kind)
        return types

    def route_action(self, game: G, entity: str, kind: str) -> Step[G]:
        for step, kinds in zip(self.open_steps(game), self._kinds):
            if (kinds is None or kind in kinds) and kind in step.actions(game, entity):
                return step
        step = self.active_step(game)
        if step is None:
            raise RuleError("no_step", f"no step takes {kind} now")
        refusal = getattr(step, "refusal", None)
        if refusal is not None:
            raise refusal(game, kind)
        raise RuleError("wrong_step", f"{step.name} is waiting; {kind} is not possible now")

    def process(self, game: G, entity: str, kind: str, action: Any) -> G:
        return self.route_action(game, entity, kind).process(game, action)

    # --- additive (session 6): moving on, who acts, what is listed -------------------------

    def advance(self, game: G) -> G:
        """Past the steps with nothing to decide (each one's `skip`), to the first blocking one
        (its `reached`); when none blocks, the round (or the entity's turn) is finished."""
        return self.advance_to(game)[0]

    def advance_to(self, game: G) -> tuple[G, Step[G] | None]:
        """`advance`, and the step that waits then (None: finished), so nobody asks again."""
        version = self._version
        if version is not None:
            known = self._waiting.get(version(game))
            if known is not None and known[1]:
                return game, self.steps[known[0]] if known[0] < len(self.steps) else None
        waiting: Step[G] | None = None
        index = len(self.steps)
        for i, (step, blocks, skip, reached) in enumerate(self._hooks):
            if blocks and step.blocking(game):
                game = game if reached is None else reached(game)
                index, waiting = i, step
                break
            if skip is not None:
                game = skip(game)
        if version is not None:
            self._waiting.put(version(game), (index, True))
        return game, waiting

    def active_entities(self, game: G) -> list[Any]:
        step = self.active_step(game)
        ask = getattr(step, "active_entities", None)
        return [] if ask is None else list(ask(game))

    def legal(self, game: G) -> list[Any]:
        """Every step's decisions open now (its `legal`), from the top to the first blocking one."""
        out: list[Any] = []
        for step in self.open_steps(game):
            ask = getattr(step, "legal", None)
            if ask is not None:
                out += ask(game)
        return out
