"""`roundhouse selfplay`: play K games in-process and print them as JSON lines: uniformly random
legal moves, or every seat played by one bot level (`--bot heuristic`, `--bot mcts`).

Game i uses `game_seeds(seed, i)`: the same flags always play the same games, and one game
can be played again alone (tests write its log and replay it). `--option NAME=VALUE` sets a
title option (VALUE read as JSON, else as a string), checked as a table's would be; `--save
DIR` also writes each game's table log to `DIR/game-<index>.json`, the format `roundhouse
replay` and `roundhouse export-18xx` read.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import msgspec

from shared.bots import BOT_NAMES, Budget, decide
from shared.bots.random_bot import random_action
from shared.engine import Engine, RuleError, default_options
from shared.options import UNDO_OPTION, resolve_options

from services.offline.errors import OfflineError, engine_for, run_reporting
from services.offline.random_play import Playout, PlayoutError, Policy, game_seeds, play_random_game
from services.offline.table_log import encode_log


class GameLine(msgspec.Struct):
    game: int
    seed: int
    actions: int
    finished: bool
    result: dict[str, Any] | None
    winners: list[str]  # seat names; `result.winners` has the seat numbers


class Summary(msgspec.Struct):
    games: int
    finished: int
    actions: int
    actions_per_s: float
    playouts_per_s: float


class SummaryLine(msgspec.Struct):
    summary: Summary


def check_players(engine: Engine[Any], players: int) -> None:
    if not engine.meta.min_players <= players <= engine.meta.max_players:
        raise OfflineError(
            f"players: bad_players: {engine.title} takes {engine.meta.min_players}..{engine.meta.max_players} players, "
            f"not {players}",
            2,
        )


def game_line(index: int, playout: Playout) -> GameLine:
    result = playout.result
    return GameLine(
        game=index,
        seed=playout.seed,
        actions=len(playout.actions),
        finished=playout.finished,
        result=None if result is None else msgspec.to_builtins(result),
        winners=[] if result is None else [playout.seats[w] for w in result.winners],
    )


def bot_policy(level: str) -> Policy:
    """Every seat played by the bot `level`, each from its own seat's observation."""
    if level == "random":
        return random_action

    def play(engine: Engine[Any], state: Any, seat: int, rng: Any) -> Any:
        return decide(engine, engine.redact(state, seat, rng.getrandbits(63)), seat, level, rng, Budget())

    return play


def parse_options(engine: Engine[Any], pairs: list[str]) -> dict[str, Any]:
    """The title's options with `NAME=VALUE` pairs over its defaults, checked as a table's are."""
    given: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise OfflineError(f"option: bad_option: {pair!r} is not NAME=VALUE", 2)
        if name == UNDO_OPTION:
            raise OfflineError(f"option: bad_option: {UNDO_OPTION} is a table's setting, not a rule of the game", 2)
        try:
            given[name] = json.loads(text)
        except ValueError:
            given[name] = text
    try:
        resolved = resolve_options(engine.meta, {**default_options(engine), **given})
    except RuleError as exc:
        raise OfflineError(f"option: {exc.code}: {exc.message}", 2) from None
    return {k: v for k, v in resolved.items() if k != UNDO_OPTION}


def save_dir(path: str | None) -> Path | None:
    if path is None:
        return None
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OfflineError(f"save: cannot make {path}: {exc.strerror or exc}", 2) from None
    return folder


def run(engine: Engine[Any], players: int, games: int, base_seed: int, max_actions: int,
        options: dict[str, Any] | None = None, save: Path | None = None, level: str = "random") -> int:
    out = sys.stdout
    finished = actions = 0
    started = time.perf_counter()
    for index in range(games):
        setup_seed, rng = game_seeds(base_seed, index)
        try:
            playout = play_random_game(engine, players, setup_seed, rng, max_actions, options,
                                       policy=bot_policy(level))
        except PlayoutError as exc:
            raise OfflineError(f"game {index}: {exc}", 1) from None
        if save is not None:
            target = save / f"game-{index}.json"
            try:
                target.write_bytes(encode_log(engine.title, playout.options, playout.seats, playout.seed,
                                              playout.actions))
            except OSError as exc:
                raise OfflineError(f"save: cannot write {target}: {exc.strerror or exc}", 2) from None
        finished += playout.finished
        actions += len(playout.actions)
        out.write(msgspec.json.encode(game_line(index, playout)).decode() + "\n")
    elapsed = max(time.perf_counter() - started, 1e-9)
    summary = Summary(
        games=games,
        finished=finished,
        actions=actions,
        actions_per_s=round(actions / elapsed, 1),
        playouts_per_s=round(games / elapsed, 2),
    )
    out.write(msgspec.json.encode(SummaryLine(summary)).decode() + "\n")
    return 0


def main(args: argparse.Namespace) -> int:
    def body() -> int:
        engine = engine_for(args.title, "title")
        check_players(engine, args.players)
        if args.games < 0:
            raise OfflineError(f"games: bad_games: must be 0 or more, not {args.games}", 2)
        max_actions = args.max_actions
        if max_actions < 1:
            raise OfflineError(f"max-actions: bad_max_actions: must be 1 or more, not {max_actions}", 2)
        options = parse_options(engine, args.option)
        level = getattr(args, "bot", "random")
        if level not in BOT_NAMES:
            raise OfflineError(f"bot: unknown_bot: {level!r}; bots are {', '.join(BOT_NAMES)}", 2)
        return run(engine, args.players, args.games, args.seed, max_actions, options, save_dir(args.save),
                   level)

    return run_reporting(body)
