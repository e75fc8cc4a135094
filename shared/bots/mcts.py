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
    """A decision in the tree. With a shared tree (several determinizations, one tree) a node
    holds each determinization's state as it is first reached there (`None`: not yet, FAILED:
    the path's options are not all legal in it); its options are listed from the first."""

    __slots__ = ("states", "finals", "seat", "options", "children", "visits", "totals")

    def __init__(self, states: list[Any], seat: int | None) -> None:
        self.states = states
        self.finals: list[Any] | None = None  # rewards of a finished game (None: not over), per determinization
        self.seat = seat  # acting seat (in the first determinization that reached it)
        self.options: list[Option] | None = None
        self.children: list[Node | None] = []
        self.visits = 0
        self.totals: list[float] | None = None


FAILED = object()  # in that determinization the rules refused an option on the way here
UNKNOWN: Any = object()  # not yet asked whether the game is over there


def _acting(engine: Engine[Any], state: Any) -> int | None:
    active = engine.active_seats(state)
    return min(active) if active else None


class Search:
    """One tree over one or more determinized states. With one state it is plain UCT; with
    several (a kit's `shared_tree`), iteration k descends in determinization k (information-set
    style): the options at a node are the same decisions whichever state is behind it, so all
    of a move's playouts compare the same root options instead of a few per tree."""

    def __init__(self, engine: Engine[Any], kit: TitleKit, states: list[Any], rng: random.Random, rollout: int,
                 deadline: float | None = None) -> None:
        self.engine = engine
        self.kit = kit
        self.rng = rng
        self.rollout = rollout
        self.deadline = deadline
        self.seats = kit.seats(states[0])
        self.prior = getattr(kit, "prior", PRIOR)
        self.final = getattr(kit, "final_rewards", terminal_rewards)
        self.root = Node(list(states), _acting(engine, states[0]))

    def _finished(self, node: Node, d: int) -> list[float] | None:
        if node.finals is None:
            node.finals = [UNKNOWN] * len(node.states)
        found = node.finals[d]
        if found is UNKNOWN:
            result = self.engine.result(node.states[d])
            found = node.finals[d] = None if result is None else self.final(result)
        return found

    def _child_state(self, node: Node, index: int, d: int) -> Any:
        """The child's state in determinization d (FAILED if the rules refuse the option there)."""
        assert node.options is not None and node.seat is not None
        child = node.children[index]
        if child is not None and child.states[d] is not None:
            return child.states[d]
        state = node.states[d]
        try:
            for action in node.options[index]:
                state = self.engine.apply(state, node.seat, action)
        except RuleError:
            state = FAILED
        if child is None:
            if state is FAILED and len(node.states) == 1:
                return FAILED
            child = node.children[index] = Node([None] * len(node.states),
                                                None if state is FAILED else _acting(self.engine, state))
        elif child.seat is None and state is not FAILED:
            child.seat = _acting(self.engine, state)
        child.states[d] = state
        return state

    def _leaf_value(self, state: Any) -> list[float]:
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

    def iterate(self, d: int = 0) -> None:
        node = self.root
        path = [node]
        while True:
            state = node.states[d]
            final = self._finished(node, d)
            if final is not None:
                rewards = final
                break
            if node.options is None:
                assert node.seat is not None
                node.options = self.kit.options(self.engine, state, node.seat)
                node.children = [None] * len(node.options)
                if not node.options:
                    rewards = self.kit.evaluate(self.engine, state, self.rng)
                    break
            elif len(node.states) > 1 and node is not self.root and _acting(self.engine, state) != node.seat:
                # this determinization's turn order differs from the tree's here: judge it as a leaf
                rewards = self._leaf_value(state)
                break
            allowed = min(len(node.options), WIDEN_BASE + int(WIDEN_RATE * math.sqrt(node.visits)))
            fresh = self._fresh(node, allowed, d)
            if fresh == -1:
                continue  # an option the rules refused was dropped: look again
            if fresh is not None:
                child = node.children[fresh]
                assert child is not None
                path.append(child)
                final = self._finished(child, d)
                rewards = final if final is not None else self._leaf_value(child.states[d])
                break
            picked = self._select(node, allowed, d)
            if picked is None:  # nothing here is legal in this determinization
                rewards = self._leaf_value(state)
                break
            node = picked
            path.append(node)
        for visited in path:
            visited.visits += 1
            if visited.totals is None:
                visited.totals = list(rewards)
            else:
                totals = visited.totals
                for i, r in enumerate(rewards):
                    totals[i] += r

    def _fresh(self, node: Node, allowed: int, d: int) -> int | None:
        """The first allowed option not yet tried (its child state made for d); -1 when the only
        determinization refused one, which is then dropped."""
        assert node.options is not None
        for i in range(allowed):
            child = node.children[i]
            if child is not None and child.visits > 0:
                continue
            if child is not None and child.states[d] is FAILED:
                continue
            if self._child_state(node, i, d) is FAILED:
                if len(node.states) == 1:
                    del node.options[i]
                    del node.children[i]
                    return -1
                continue
            return i
        return None

    def _select(self, node: Node, allowed: int, d: int) -> Node | None:
        seat = node.seat
        assert seat is not None
        log_n = math.log(node.visits + 1)
        while True:
            best, best_score, index = None, -1.0, -1
            for rank, child in enumerate(node.children[:allowed]):
                if child is None or child.visits == 0 or child.states[d] is FAILED:
                    continue
                assert child.totals is not None
                score = (child.totals[seat] / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
                         + self.prior / ((1 + rank) * (child.visits + 1)))
                if score > best_score:
                    best, best_score, index = child, score, rank
            if best is None:
                return None
            if self._child_state(node, index, d) is not FAILED:
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

    def __init__(self, rollout: int | None = None, kit: TitleKit | None = None, shared_tree: bool | None = None) -> None:
        self.rollout = rollout  # None: the kit's `rollout`, else 0
        self.kit = kit  # None: the title's registered kit
        self.shared_tree = shared_tree  # None: the kit's `shared_tree`, else one tree per determinization

    def choose(self, engine: Engine[Any], observation: Any, seat: int, rng: random.Random, budget: Budget) -> Any:
        kit = self.kit or get_kit(engine)
        if budget.ms is None and budget.iterations is None:
            budget = getattr(kit, "budget", None) or DEFAULT_BUDGET
        started = time.perf_counter()
        deadline = budget.deadline(started)
        # A kit whose hidden parts barely change the search may ask for fewer trees (deeper ones).
        count = 1 if kit.exact else getattr(kit, "determinizations", DETERMINIZATIONS)
        states = []
        for _ in range(count):
            state = kit.determinize(engine, observation, seat, rng)
            if seat not in engine.active_seats(state):
                raise NoMove(f"seat {seat} is not to act")
            states.append(state)
        rollout = self.rollout if self.rollout is not None else getattr(kit, "rollout", 0)
        shared = self.shared_tree if self.shared_tree is not None else getattr(kit, "shared_tree", False)
        groups = [states] if shared else [[state] for state in states]
        searches = [Search(engine, kit, group, rng, rollout, deadline) for group in groups]
        for search in searches:
            search.root.seat = seat  # with simultaneous decisions, the tree starts with ours
        first = searches[0]
        first.root.options = kit.options(engine, states[0], seat)
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
            if shared:
                first.iterate(done % count)
            else:
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
