"""`roundhouse export-18xx (TABLE | LOG.json) [-o FILE]`: a game of ours as an 18xx.games export.

The reverse of `roundhouse import-18xx`, for a title whose engine carries a `from_18xx` module
that also knows the way out (`settings`, `export_action`, `auto_actions`). The source is a table
log file (what `roundhouse replay` reads, `selfplay --save` writes) or, when no such file
exists, a table id read from Redis (`--redis-url`, else $REDIS_URL). The log is folded through
the title's engine on a `shared.timeline.Timeline`, so an entry the rules refuse stops the
export as it would stop a replay. Each log entry becomes one export action, numbered from 1 as
18xx.games numbers a game's actions: our `Undo(action_id=k)` rewinds to just after entry k, and
entry k is export action k, so it is 18xx.games' `undo` with `action_id` k; `Redo` is `redo`.
Moves the engine made by itself inside a decision (18xx.games' automatic passes, players'
programs) go in that action's `auto_actions`, which is how 18xx.games records and reloads them.
Players get ids 1..n in seat order, names from the seats.

The export is the game's whole record, as 18xx.games' own exports are: the seed and every
seat's decisions, players' programs (secret to the other seats at the table) included. It is an
operator's tool over the store or a log file, never a seat's view.

The export carries `status`, and for a finished game `result` (final values by player id, best
first) and `game_end_reason`, in 18xx.games' shape. Output: the export's JSON on stdout, or in
FILE with `-o`. Failures are one line on stderr (exit status 2 for bad input, 1 for an entry
the rules refuse).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

import msgspec

from shared.config import Config
from shared.engine import Engine, Redo, RuleError, Undo, decode_action, default_options
from shared.store import RedisEventStore
from shared.store.connect import STORE_ERRORS, connect
from shared.store.keys import TABLE_ID
from shared.timeline import Timeline

from services.offline.errors import OfflineError, engine_for, internal_error, run_reporting
from services.offline.table_log import decode_entry, load_log


class Source(msgspec.Struct):
    """A game to export: its table and its log as (seat, action, time in ms or None)."""

    title: str
    options: dict[str, Any]
    seats: list[str]
    seed: int
    entries: list[tuple[int, Any, int | None]]
    name: str                           # where it came from, for error lines


def read_log_file(path: str) -> Source:
    log = load_log(path)
    engine = engine_for(log.title, "title")
    entries: list[tuple[int, Any, int | None]] = []
    for index, raw in enumerate(log.actions):
        entry = decode_entry(index, raw)
        try:
            entries.append((entry.seat, decode_action(engine, entry.action), None))
        except RuleError as exc:
            raise OfflineError(f"action {index}: {exc.code}: {exc.message}", 1) from None
    return Source(log.title, dict(log.options), log.seat_names(), log.seed, entries, path)


async def read_table(table: str, redis_url: str) -> Source:
    client = connect(redis_url)
    try:
        store = RedisEventStore(client)
        meta = await store.get_meta(table)
        if meta is None:
            raise OfflineError(f"{table}: no_such_table: no table {table!r} at {redis_url} (and no such file)", 2)
        engine = engine_for(meta.title, "title")
        logged = await store.read(table, 0)
    except STORE_ERRORS as exc:
        raise OfflineError(f"store: cannot reach Redis at {redis_url}: {exc}", 2) from None
    finally:
        await client.aclose()
    entries: list[tuple[int, Any, int | None]] = []
    for item in logged:
        try:
            entries.append((item.seat, decode_action(engine, item.action), item.t_ms))
        except RuleError as exc:
            raise OfflineError(f"entry {item.seq}: {exc.code}: {exc.message}", 1) from None
    return Source(meta.title, dict(meta.options), [s.name for s in meta.seats], meta.seed, entries, table)


def export_hook(engine: Engine[Any]) -> Any:
    hook = getattr(engine, "from_18xx", None)
    if hook is None or not hasattr(hook, "export_action"):
        raise OfflineError(f"title: no_export: {engine.title} has no 18xx.games counterpart to export to", 2)
    return hook


def export_game(engine: Engine[Any], source: Source) -> dict[str, Any]:
    """The 18xx.games export of `source`, folded through `engine` entry by entry."""
    hook = export_hook(engine)
    ids = [str(i + 1) for i in range(len(source.seats))]
    try:
        # options the log leaves out take the title's defaults, as when the table was created
        timeline = Timeline(engine, source.seats, {**default_options(engine), **source.options}, source.seed)
    except RuleError as exc:
        raise OfflineError(f"setup: {exc.code}: {exc.message}", 2) from None
    actions: list[dict[str, Any]] = []
    # a title whose automatic moves depend on where play went from (1841) follows the game
    follow = hook.exporter() if hasattr(hook, "exporter") else None
    for index, (seat, action, t_ms) in enumerate(source.entries):
        before = timeline.state
        try:
            timeline.push(seat, action)
        except RuleError as exc:
            raise OfflineError(f"action {index}: {exc.code}: {exc.message}", 1) from None
        except Exception as exc:  # noqa: BLE001 - an engine bug, still one line
            raise internal_error(f"action {index}", exc) from None
        if isinstance(action, Undo):
            out: dict[str, Any] = {"type": "undo", **({} if action.action_id is None else {"action_id": action.action_id})}
        elif isinstance(action, Redo):
            out = {"type": "redo"}
        else:
            out = hook.export_action(action, ids)
            made = (follow.auto_actions(before, timeline.state, action) if follow is not None
                    else hook.auto_actions(timeline.state))
            auto = [hook.export_action(a, ids) for a in made]
            if auto:
                out["auto_actions"] = auto
        if "entity" not in out:
            out = {"entity": int(ids[seat]), "entity_type": "player", **out}
        out["id"] = index + 1
        if t_ms is not None:
            out["created_at"] = t_ms // 1000
        actions.append(out)
    export: dict[str, Any] = {
        "title": hook.TITLE,
        "players": [{"id": int(pid), "name": name} for pid, name in zip(ids, source.seats)],
        "settings": {"seed": source.seed, **hook.settings(source.options)},
        "status": "active",
        "actions": actions,
    }
    result = engine.result(timeline.state)
    if result is not None:
        best_first = sorted(range(len(ids)), key=lambda i: -result.scores[i])
        export.update(status="finished", result={ids[i]: result.scores[i] for i in best_first},
                      game_end_reason=result.reason)
    return export


def read_source(where: str, redis_url: str | None) -> Source:
    if Path(where).is_file() or where.endswith(".json") or not TABLE_ID.match(where):
        return read_log_file(where)
    return asyncio.run(read_table(where, redis_url or Config.from_env().redis_url))


def main(args: argparse.Namespace) -> int:
    def body() -> int:
        source = read_source(args.source, args.redis_url)
        data = msgspec.json.encode(export_game(engine_for(source.title, "title"), source)) + b"\n"
        if args.output:
            try:
                Path(args.output).write_bytes(data)
            except OSError as exc:
                raise OfflineError(f"{args.output}: cannot write: {exc.strerror or exc}", 2) from None
        else:
            sys.stdout.buffer.write(data)
        return 0

    return run_reporting(body)
