"""Per-title knowledge the bots plug in: a `TitleKit` per title, a generic one for the rest.

A kit answers four questions for the search and the heuristic:
- `determinize`: a full State consistent with one seat's observation (hidden parts
  sampled with the RNG: `engine.redact` again); `exact` says nothing is hidden, so one
  sample is the truth;
- `options`: the moves worth considering for the seat to act, best first. An option is a
  tuple of actions the same seat plays in a row (a whole turn, say), so a search branches
  on decisions rather than on every click;
- `greedy`: the heuristic's move;
- `evaluate`: each seat's chance of winning from a position, estimated, summing to about 1.

The generic kit works for any title through the contract alone: it determinizes with the
engine's `redact`, its options are the legal actions (families sampled at a few members),
its evaluation is a random playout to the end; it counts seats from the state's `seats` or
`players` list. A title's own kit is the module its META names in `bot_kit` (`KIT`).
"""

from __future__ import annotations

import math
import random
from importlib import import_module
from typing import Any, Protocol

from shared.engine import Engine, Result, RuleError, is_program

from .base import spread

Option = tuple[Any, ...]

# How much of a terminal reward is the win itself; the rest rewards a better rank.
WIN_WEIGHT = 0.9
PLAYOUT_CAP = 2_000


class KitError(Exception):
    """The bots cannot play this title (for example: no way to rebuild a state from a view)."""


class TitleKit(Protocol):
    exact: bool

    def determinize(self, engine: Engine[Any], observation: Any, seat: int, rng: random.Random) -> Any: ...

    def options(self, engine: Engine[Any], state: Any, seat: int) -> list[Option]: ...

    def greedy(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Any: ...

    def evaluate(self, engine: Engine[Any], state: Any, rng: random.Random) -> list[float]: ...

    def seats(self, state: Any) -> int: ...


def terminal_rewards(result: Result) -> list[float]:
    """Rewards in [0, 1] from a final result: winners share the win, then rank counts a little."""
    n = len(result.ranks)
    winners = len(result.winners) or 1
    out = []
    for seat, rank in enumerate(result.ranks):
        win = 1.0 / winners if seat in result.winners else 0.0
        place = (n - rank) / (n - 1) if n > 1 else 1.0
        out.append(WIN_WEIGHT * win + (1 - WIN_WEIGHT) * place / (n / 2 if n > 1 else 1))
    return out


def chances_from_values(values: list[float], scale: float) -> list[float]:
    """Each seat's chance of winning, estimated from a running score: a softmax whose `scale`
    is the lead that makes a clear favourite (for kits that judge a position by its score
    instead of a long random playout)."""
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def acting_seat(engine: Engine[Any], state: Any, rng: random.Random) -> int | None:
    """The seat that moves next in a simulation; with simultaneous decisions, any of them."""
    active = engine.active_seats(state)
    if not active:
        return None
    if len(active) == 1:
        return next(iter(active))
    return rng.choice(sorted(active))


class GenericKit:
    """Contract-only knowledge: works for every title."""

    def __init__(self, exact: bool = False) -> None:
        self.exact = exact

    def determinize(self, engine: Engine[Any], observation: Any, seat: int, rng: random.Random) -> Any:
        if self.exact:
            return observation
        return engine.redact(observation, seat, rng.getrandbits(63))

    def options(self, engine: Engine[Any], state: Any, seat: int) -> list[Option]:
        # programs are a person's standing instructions: a bot decides each move itself
        return [(action,) for legal in engine.legal_actions(state, seat) if not is_program(legal.action)
                for action in spread(legal)]

    def greedy(self, engine: Engine[Any], state: Any, seat: int, rng: random.Random) -> Any:
        """Win now if possible, never hand the win to another seat if avoidable, else random."""
        safe: list[Any] = []
        for (action,) in self.options(engine, state, seat):
            try:
                after = engine.apply(state, seat, action)
            except RuleError:
                continue
            result = engine.result(after)
            if result is not None and seat in result.winners:
                return action
            if result is None or seat in result.winners:
                safe.append(action)
        if safe:
            return safe[rng.randrange(len(safe))]
        opts = self.options(engine, state, seat)
        return opts[rng.randrange(len(opts))][0]

    def evaluate(self, engine: Engine[Any], state: Any, rng: random.Random) -> list[float]:
        from .random_bot import random_action  # random_bot imports this module

        for _ in range(PLAYOUT_CAP):
            result = engine.result(state)
            if result is not None:
                return terminal_rewards(result)
            seat = acting_seat(engine, state, rng)
            if seat is None:
                break
            action = random_action(engine, state, seat, rng)
            if action is None:
                break
            state = engine.apply(state, seat, action)
        n = self.seats(state)
        return [1.0 / n] * n

    def seats(self, state: Any) -> int:
        for name in ("seats", "players"):
            value = getattr(state, name, None)
            if isinstance(value, (list, tuple)):
                return len(value)
        raise KitError(f"no bot kit for {type(state).__name__}, and it has no `seats` or `players` list")


_kits: dict[str, TitleKit] = {}


def register_kit(title: str, kit: TitleKit) -> None:
    """Plug a kit in for a title (tests do this for their own titles)."""
    _kits[title] = kit


def get_kit(engine: Engine[Any]) -> TitleKit:
    kit = _kits.get(engine.title)
    if kit is None:
        module = engine.meta.bot_kit
        # A title without hidden information shows every seat the whole state: one
        # determinization is the truth.
        kit = import_module(module).KIT if module else GenericKit(exact=engine.meta.public_view)
        _kits[engine.title] = kit
    return kit
