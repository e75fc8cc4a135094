"""`mcts`: Monte-Carlo tree search over the title kit's options, from the seat's observation.

- Determinization: the kit samples full states from the observation (`engine.redact`). When
  nothing is hidden (`kit.exact`, Chicago Express) one state is the truth and one
  tree is searched; otherwise several determinizations each get a tree and the root
  visits are pooled by action (determinized UCT).
- Tree: max^n UCT for any number of seats. Every node keeps the summed reward of each
  seat; a node picks children by the reward of the seat acting there. Edges are the kit's
  options (a whole turn, a bid), tried in the kit's order (best first by its greedy
  score) with progressive widening, so the search spends its budget on moves the
  heuristic thinks plausible first and opens the others as visits grow; a kit may ask for
  a progressive bias (`prior`) toward the options it ranks first while they have few visits.
- A kit may set `determinizations` (fewer, deeper trees when little is hidden) and its own
  default `budget` (used when the caller gives none); a seat with a single option plays it
  without searching.
- Leaves: a short playout with the kit's greedy policy (`rollout` decisions: the bot's, else
  the kit's `rollout`, else 0) then the kit's evaluation (each seat's win chance from the
  heuristic's valuation); finished games score from their result. A playout stops early at
  the move's deadline (a loaded machine must not stretch one iteration past the budget).
- The move: the first action of the most visited root option.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, ClassVar

from shared.engine import Engine, RuleError, encode_action

from .base import Budget, NoMove
from .kits import Option, TitleKit, get_kit, terminal_rewards

# 400 iterations take about 0.25 s on a 2-core VM; the clock cap keeps a loaded machine under 1 s.
DEFAULT_BUDGET = Budget(ms=700.0, iterations=400)
EXPLORATION = 0.5
WIDEN_BASE = 2
WIDEN_RATE = 1.0
DETERMINIZATIONS = 8
# Progressive bias, for kits that set `prior` (0 by default: Chicago Express's figures were
# measured without it): the kit lists options best first by its heuristic; the option at
# rank r starts with a bonus of prior / (1 + r) that fades as 1 / (visits + 1). It is an
# opponent model too (rivals who play like the heuristic are searched as such) and keeps a
# short search from leaving the heuristic's line on a handful of noisy visits.
PRIOR = 0.0


class Node:
    __slots__ = ("state", "seat", "options", "children", "visits", "totals", "final")

    def __init__(self, state: Any, seat: int | None, final: list[float] | None) -> None:
        self.state = state
        self.seat = seat  # acting seat; None once the game is over
        self.options: list[Option] | None = None
        self.children: list[Node | None] = []
        self.visits = 0
        self.totals: list[float] | None = None
        self.final = final  # rewards of a finished game


def _acting(engine: Engine[Any], state: Any) -> int | None:
    active = engine.active_seats(state)
    return min(active) if active else None


class Search:
    """One tree over one determinized state."""

    def __init__(self, engine: Engine[Any], kit: TitleKit, state: Any, rng: random.Random, rollout: int,
                 deadline: float | None = None) -> None:
        self.engine = engine
        self.kit = kit
        self.rng = rng
        self.rollout = rollout
        self.deadline = deadline
        self.seats = kit.seats(state)
        self.prior = getattr(kit, "prior", PRIOR)
        self.root = self._node(state)

    def _node(self, state: Any) -> Node:
        result = self.engine.result(state)
        if result is not None:
            return Node(state, None, terminal_rewards(result))
        return Node(state, _acting(self.engine, state), None)

    def _expand(self, node: Node, index: int) -> Node | None:
        assert node.options is not None and node.seat is not None
        state = node.state
        try:
            for action in node.options[index]:
                state = self.engine.apply(state, node.seat, action)
        except RuleError:
            return None
        child = self._node(state)
        node.children[index] = child
        return child

    def _leaf_value(self, node: Node) -> list[float]:
        if node.final is not None:
            return node.final
        state = node.state
        engine, kit = self.engine, self.kit
        for _ in range(self.rollout):
            if engine.result(state) is not None:
                break
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                break
            seat = _acting(engine, state)
            if seat is None:
                break
            state = engine.apply(state, seat, kit.greedy(engine, state, seat, self.rng))
        return kit.evaluate(engine, state, self.rng)

    def iterate(self) -> None:
        node = self.root
        path = [node]
        while True:
            if node.final is not None:
                rewards = node.final
                break
            if node.options is None:
                assert node.seat is not None
                node.options = self.kit.options(self.engine, node.state, node.seat)
                node.children = [None] * len(node.options)
                if not node.options:
                    rewards = self.kit.evaluate(self.engine, node.state, self.rng)
                    break
            allowed = min(len(node.options), WIDEN_BASE + int(WIDEN_RATE * math.sqrt(node.visits)))
            fresh = next((i for i in range(allowed) if node.children[i] is None), None)
            if fresh is not None:
                child = self._expand(node, fresh)
                if child is None:  # an option the rules refused: drop it
                    del node.options[fresh]
                    del node.children[fresh]
                    continue
                path.append(child)
                rewards = self._leaf_value(child)
                break
            node = self._select(node, allowed)
            path.append(node)
        for visited in path:
            visited.visits += 1
            if visited.totals is None:
                visited.totals = list(rewards)
            else:
                totals = visited.totals
                for i, r in enumerate(rewards):
                    totals[i] += r

    def _select(self, node: Node, allowed: int) -> Node:
        seat = node.seat
        assert seat is not None
        log_n = math.log(node.visits + 1)
        best, best_score = None, -1.0
        for rank, child in enumerate(node.children[:allowed]):
            assert child is not None and child.totals is not None
            score = (child.totals[seat] / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
                     + self.prior / ((1 + rank) * (child.visits + 1)))
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def root_visits(self) -> list[tuple[Option, int, float]]:
        root = self.root
        out = []
        seat = root.seat
        for option, child in zip(root.options or [], root.children):
            if child is not None and child.totals is not None and seat is not None:
                out.append((option, child.visits, child.totals[seat] / child.visits))
        return out


class MctsBot:
    name: ClassVar[str] = "mcts"

    def __init__(self, rollout: int | None = None, kit: TitleKit | None = None) -> None:
        self.rollout = rollout  # None: the kit's `rollout`, else 0
        self.kit = kit  # None: the title's registered kit

    def choose(self, engine: Engine[Any], observation: Any, seat: int, rng: random.Random, budget: Budget) -> Any:
        kit = self.kit or get_kit(engine)
        if budget.ms is None and budget.iterations is None:
            budget = getattr(kit, "budget", None) or DEFAULT_BUDGET
        started = time.perf_counter()
        deadline = budget.deadline(started)
        # A kit whose hidden parts barely change the search may ask for fewer trees (deeper ones).
        count = 1 if kit.exact else getattr(kit, "determinizations", DETERMINIZATIONS)
        searches = []
        for _ in range(count):
            state = kit.determinize(engine, observation, seat, rng)
            if seat not in engine.active_seats(state):
                raise NoMove(f"seat {seat} is not to act")
            rollout = self.rollout if self.rollout is not None else getattr(kit, "rollout", 0)
            search = Search(engine, kit, state, rng, rollout, deadline)
            search.root.seat = seat  # with simultaneous decisions, the tree starts with ours
            searches.append(search)
        first = searches[0]
        first.root.options = kit.options(engine, first.root.state, seat)
        first.root.children = [None] * len(first.root.options)
        if not first.root.options:
            raise NoMove(f"seat {seat} has no option")
        if len(first.root.options) == 1:
            # Nothing to choose: a seat's options come from what it may know, the same in every
            # determinization.
            return first.root.options[0][0]
        now = time.perf_counter()
        if deadline is not None and now + (now - started) >= deadline:
            # listing the options took half the budget or more (a loaded machine, a costly
            # position): an iteration, which lists options again below, would overrun it; the
            # kit's first option
            return first.root.options[0][0]
        limit = budget.iterations
        done = 0
        while limit is None or done < limit:
            searches[done % count].iterate()
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return _most_visited(searches)


def _most_visited(searches: list[Search]) -> Any:
    pooled: dict[bytes, list[Any]] = {}
    for search in searches:
        for option, visits, mean in search.root_visits():
            key = encode_action(option[0])
            entry = pooled.setdefault(key, [option[0], 0, 0.0])
            entry[1] += visits
            entry[2] += mean * visits
    if not pooled:
        options = searches[0].root.options or []
        return options[0][0]
    action, _, _ = max(pooled.values(), key=lambda e: (e[1], e[2] / max(e[1], 1)))
    return action
