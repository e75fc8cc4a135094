"""Uniformly random legal play, for any title, through the engine contract only.

Used by `roundhouse selfplay` and the engine benchmark; the policy itself, `random_action`,
is the `random` bot's and lives in `shared/bots/random_bot.py`. A random
playout is also a rules check: an action the engine offered and then refused, an active seat
with nothing legal, or a game nobody can move in is an engine bug, reported as `PlayoutError`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from shared.bots.random_bot import random_action
from shared.engine import Engine, Result, RuleError, default_options, encode_action

Policy = Callable[[Engine[Any], Any, int, random.Random], Any]

# Far above any real game of the current titles; it only stops a game that cannot end.
DEFAULT_MAX_ACTIONS = 10_000


class PlayoutError(Exception):
    """The engine broke its contract during a random game (`index` = actions applied so far)."""

    def __init__(self, index: int, code: str, message: str) -> None:
        super().__init__(f"action {index}: {code}: {message}")
        self.index = index
        self.code = code
        self.message = message


class Playout(msgspec.Struct):
    """One random game: enough to write its log and to check a replay of it."""

    seats: list[str]
    options: dict[str, Any]
    seed: int
    actions: list[tuple[int, Any]]
    state: Any
    result: Result | None

    @property
    def finished(self) -> bool:
        return self.result is not None


def seat_names(players: int) -> list[str]:
    return [f"P{i + 1}" for i in range(players)]


def game_seeds(base_seed: int, index: int) -> tuple[int, random.Random]:
    """Setup seed and move-picking RNG of game `index` of a run seeded `base_seed`.

    The setup seed is drawn from the game's RNG rather than reused, so that an engine which
    also seeds a `random.Random` with it does not deal its cards from the same stream the
    policy picks moves from.
    """
    rng = random.Random(base_seed + index)
    return rng.randrange(2**31), rng


def play_random_game(
    engine: Engine[Any],
    players: int,
    seed: int,
    rng: random.Random,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    options: dict[str, Any] | None = None,
    policy: Policy = random_action,
) -> Playout:
    """Set a table up with `seed` and play random legal actions (or `policy`'s: a bot level
    playing every seat) until it ends or `max_actions`."""
    seats = seat_names(players)
    opts = default_options(engine) if options is None else dict(options)
    try:
        state = engine.setup(seats, opts, seed)
    except RuleError as exc:
        raise PlayoutError(0, exc.code, exc.message) from None
    actions: list[tuple[int, Any]] = []
    result = engine.result(state)
    while result is None and len(actions) < max_actions:
        active = engine.active_seats(state)
        if not active:
            raise PlayoutError(len(actions), "stuck", "no seat is active and the game has not ended")
        # With simultaneous decisions any active seat may go next; pick one at random.
        seat = next(iter(active)) if len(active) == 1 else rng.choice(sorted(active))
        action = policy(engine, state, seat, rng)
        if action is None:
            raise PlayoutError(len(actions), "no_legal_action", f"seat {seat} is active but has no legal action")
        try:
            state = engine.apply(state, seat, action)
        except RuleError as exc:
            offered = encode_action(action).decode()
            raise PlayoutError(len(actions), exc.code, f"{exc.message} (legal_actions offered {offered})") from None
        actions.append((seat, action))
        result = engine.result(state)
    return Playout(seats=seats, options=opts, seed=seed, actions=actions, state=state, result=result)
