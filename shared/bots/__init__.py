"""Bots for every title: `random`, `heuristic` and `mcts`, pure and usable in-process.

`decide(engine, observation, seat, bot, rng, budget)` is the one entry point the arena and
the bot worker use: the bot sees only `engine.redact(state, seat, seed)`, the state as that
seat may know it. Per-title knowledge lives in kits
(`kits.py`; Chicago Express in `chicago_express/`).
"""

from __future__ import annotations

import random
from typing import Any

from shared.engine import Engine

from .base import Bot, Budget, NoMove
from .heuristic import HeuristicBot
from .mcts import DEFAULT_BUDGET, MctsBot
from .random_bot import RandomBot

BOTS: dict[str, Bot] = {bot.name: bot for bot in (RandomBot(), HeuristicBot(), MctsBot())}
BOT_NAMES = tuple(BOTS)
# A bot seat created without a level plays this one.
DEFAULT_LEVEL = "heuristic"


class UnknownBot(ValueError):
    pass


def get_bot(name: str) -> Bot:
    bot = BOTS.get(name)
    if bot is None:
        raise UnknownBot(f"unknown bot {name!r}; bots are {', '.join(BOT_NAMES)}")
    return bot


def decide(engine: Engine[Any], observation: Any, seat: int, bot: str, rng: random.Random, budget: Budget) -> Any:
    return get_bot(bot).choose(engine, observation, seat, rng, budget)


__all__ = ["BOTS", "BOT_NAMES", "DEFAULT_BUDGET", "DEFAULT_LEVEL", "Bot", "Budget", "NoMove", "UnknownBot", "decide", "get_bot"]
