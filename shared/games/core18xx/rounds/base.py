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
  offers(game, entity, kind) `kind in actions(game, entity)`, for a step whose full `actions`
                             is dear to build (routing asks it instead)

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
on the state they produced are no-ops), and answers again from that; the very state object last
answered for is known without building its version.

A title whose entity's turn runs through its steps in order may also give `progress(game)`: how
far the turn has come, compared with each step's `rank` (an int; steps without one are always
asked). A step whose rank is below the progress has been passed (18xx.games' `passed?`): it
does not block and its `skip` does nothing, so neither is asked. A `skip` may not move the
progress (only `reached` and decisions do).
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
    def __init__(self, kind: str, steps: Sequence[Step[G]], version: Callable[[G], tuple] | None = None,
                 progress: Callable[[G], int] | None = None) -> None:
        self.kind = kind
        self.steps = list(steps)
        self._version = version
        self._progress = progress
        # the optional hooks and declarations, looked up once (a round asks after every decision):
        # (index, step, blocks, skip, reached) of the steps still in play at each progress
        # (all of them without `progress`; past the highest rank, only the unranked ones), less
        # those that never block and do nothing by themselves: moving on never asks them
        hooks = [(i, s, getattr(s, "blocks", True), getattr(s, "skip", None), getattr(s, "reached", None))
                 for i, s in enumerate(self.steps)]
        ranks = [getattr(s, "rank", None) if progress is not None else None for s in self.steps]
        top = max((r for r in ranks if r is not None), default=-1) + 1
        self._visits = [[h for h, r in zip(hooks, ranks) if (r is None or r >= done) and (h[2] or h[3] is not None)]
                        for done in range(top + 1)]
        self._top = top
        # the steps that may take each action type (those declaring it in `kinds`, and those
        # declaring no kinds), in order
        kinds: list[frozenset[str] | None] = [getattr(s, "kinds", None) for s in self.steps]
        self._untyped = [(i, s) for i, (s, k) in enumerate(zip(self.steps, kinds)) if k is None]
        self._offers = [getattr(s, "offers", None) for s in self.steps]
        self._takers = {t: [(i, s) for i, (s, k) in enumerate(zip(self.steps, kinds)) if k is None or t in k]
                        for t in frozenset().union(*(k for k in kinds if k is not None))}
        # (index of the first blocking step, len(steps) if none; whether advance_to produced it;
        # the state last asked about) for the last version: that state itself is known by its
        # identity, without building its version
        self._waiting = Last()

    def _in_play(self, game: G) -> list[tuple[int, Step[G], bool, Any, Any]]:
        """The steps not passed in `game`, with their hooks."""
        progress = self._progress
        return self._visits[0] if progress is None else self._visits[min(progress(game), self._top)]

    def _scan(self, game: G) -> int:
        for i, step, blocks, _, _ in self._in_play(game):
            if blocks and step.blocking(game):
                return i
        return len(self.steps)

    def _first_blocking(self, game: G) -> int:
        version = self._version
        if version is None:
            return self._scan(game)
        known = self._waiting.value
        if known is not None and known[2] is game:
            return known[0]
        held = version(game)
        known = self._waiting.get(held)
        index = self._scan(game) if known is None else known[0]
        self._waiting.put(held, (index, known is not None and known[1], game))
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

    def _taker(self, game: G, entity: str, kind: str) -> Step[G] | None:
        """The first open step that takes `kind` from `entity` now."""
        last = self._first_blocking(game)
        for i, step in self._takers.get(kind, self._untyped):
            if i > last:
                break
            offers = self._offers[i]
            if offers(game, entity, kind) if offers is not None else kind in step.actions(game, entity):
                return step
        return None

    def offers(self, game: G, entity: str, kind: str) -> bool:
        """`kind in legal_types(game, entity)`, asking only the steps that may take it."""
        return self._taker(game, entity, kind) is not None

    def route_action(self, game: G, entity: str, kind: str) -> Step[G]:
        step = self._taker(game, entity, kind)
        if step is not None:
            return step
        active = self.active_step(game)
        if active is None:
            raise RuleError("no_step", f"no step takes {kind} now")
        refusal = getattr(active, "refusal", None)
        if refusal is not None:
            raise refusal(game, kind)
        raise RuleError("wrong_step", f"{active.name} is waiting; {kind} is not possible now")

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
            # only the very state last advanced is known: a state handed here is nearly always
            # new (a decision's result), so its version would be built and compared for nothing
            # (moving on is the same on a state differing in bookkeeping, only asked again)
            known = self._waiting.value
            if known is not None and known[2] is game and known[1]:
                return game, self.steps[known[0]] if known[0] < len(self.steps) else None
        waiting: Step[G] | None = None
        index = len(self.steps)
        for i, step, blocks, skip, reached in self._in_play(game):
            if blocks and step.blocking(game):
                game = game if reached is None else reached(game)
                index, waiting = i, step
                break
            if skip is not None:
                game = skip(game)
        if version is not None:
            self._waiting.put(version(game), (index, True, game))
        return game, waiting

    def active_entities(self, game: G) -> list[Any]:
        step = self.active_step(game)
        ask = None if step is None else getattr(step, "active_entities", None)
        return [] if ask is None else list(ask(game))

    def legal(self, game: G) -> list[Any]:
        """Every step's decisions open now (its `legal`), from the top to the first blocking one."""
        out: list[Any] = []
        for step in self.open_steps(game):
            ask = getattr(step, "legal", None)
            if ask is not None:
                out += ask(game)
        return out
