"""What runs in the worker's compute processes: one bot decision from one seat's observation.

The function gets the title, the seat's observation (`engine.redact(state, seat, seed)`,
msgpack: the state as that seat may know it, hidden parts re-sampled), the bot level and a
seed; it never gets the true state or the table's secret seed, so a bot cannot look at
hidden information even by mistake. The answer is the action's JSON.
"""

from __future__ import annotations

import os
import random
import threading
import time
from importlib import import_module
from typing import Any

import msgspec

from shared.bots import Budget, decide
from shared.bots.random_bot import RandomBot
from shared.engine import encode_action
from shared.games import get_engine

_encoder = msgspec.msgpack.Encoder()


def encode_observation(state: Any) -> bytes:
    return _encoder.encode(state)


def _observation(engine: Any, blob: bytes) -> Any:
    return msgspec.msgpack.decode(blob, type=engine.state_type)


def init_process(preload: tuple[str, ...], parent: int | None = None) -> None:
    """Pool initializer: import extra modules (titles, kits), then load the shipped kits so
    the first real move does not pay for the imports."""
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="exit-with-parent", daemon=True).start()
    for module in preload:
        import_module(module)
    from shared.bots.kits import get_kit
    from shared.games import titles

    for title in titles():
        get_kit(get_engine(title))


def _exit_with(parent: int) -> None:
    """A pool process waits on a queue its parent also holds open, so a parent killed outright
    (SIGKILL, OOM) never wakes it: notice the re-parenting and leave."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def ready() -> bool:
    return True


def compute_move(title: str, observation: bytes, seat: int, level: str, seed: int,
                 budget_ms: float | None, iterations: int | None) -> bytes:
    engine = get_engine(title)
    action = decide(engine, _observation(engine, observation), seat, level, random.Random(seed),
                    Budget(ms=budget_ms, iterations=iterations))
    return encode_action(action)


def random_move(title: str, observation: bytes, seat: int, seed: int) -> bytes:
    """The fallback when a bot's move was refused: a uniformly random legal move."""
    engine = get_engine(title)
    return encode_action(RandomBot().choose(engine, _observation(engine, observation), seat, random.Random(seed), Budget()))
