"""What every bot shares: the `Bot` protocol, the move budget, and turning a `LegalAction`
(which may stand for a whole range of amounts) into one concrete action.

A bot is pure: it gets the engine, the seat's observation (`engine.redact(state, seat,
seed)`: never the hidden state), the seat, an
RNG and a budget, and returns one action of the title's union. No I/O, no global state;
the same arguments and RNG state give the same move (a wall-clock budget aside).
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar, Protocol

import msgspec

from shared.engine import Engine, LegalAction
from shared.families import expand, family_size


class Budget(msgspec.Struct, frozen=True, kw_only=True):
    """How much thinking one move may take. Search bots stop at whichever limit comes first;
    `ms=None` means no clock (reproducible to the move), `iterations=None` no count."""

    ms: float | None = None
    iterations: int | None = None

    def deadline(self, started: float | None = None) -> float | None:
        if self.ms is None:
            return None
        return (time.perf_counter() if started is None else started) + self.ms / 1000.0


class Bot(Protocol):
    name: ClassVar[str]

    def choose(self, engine: Engine[Any], observation: Any, seat: int, rng: random.Random, budget: Budget) -> Any:
        """One legal action for `seat`, decided from `observation` (what that seat may know) only."""
        ...


class NoMove(Exception):
    """The seat has nothing legal to do in the position the bot was given."""


def concrete(legal: LegalAction, value: int | None = None) -> Any:
    """The action of `legal`, with its ranged field set to `value` (clamped into the range)."""
    rng = legal.range
    if rng is None or value is None:
        return legal.action
    value = max(rng.min, min(rng.max, value))
    value -= (value - rng.min) % rng.step
    return msgspec.structs.replace(legal.action, **{rng.field: value})


def spread(legal: LegalAction, points: int = 4) -> list[Any]:
    """A few representative concrete actions of a ranged legal action: min, max and evenly
    spaced values between (search bots cannot try every amount)."""
    if legal.choices is not None:
        return _spread_members(legal, points)
    rng = legal.range
    if rng is None:
        return [legal.action]
    count = len(rng.values())
    if count <= points:
        picks = list(rng.values())
    else:
        picks = sorted({rng.values()[round(i * (count - 1) / (points - 1))] for i in range(points)})
    return [concrete(legal, v) for v in picks]


SPREAD_CAP = 64  # members of a multi-field family a search considers at the most


def _spread_members(legal: LegalAction, points: int) -> list[Any]:
    """Members of a multi-field family: all of a small one, else an even sample (a title's kit
    knows better which tile lays or share buys are worth a look)."""
    size = family_size(legal)
    members = expand(legal)
    if size <= SPREAD_CAP:
        return list(members)
    step = size / SPREAD_CAP
    wanted = {int(i * step) for i in range(SPREAD_CAP)}
    return [m for i, m in enumerate(members) if i in wanted]
