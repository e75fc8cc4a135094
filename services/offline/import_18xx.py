"""`roundhouse import-18xx EXPORT.json`: fold an 18xx.games export through our engine.

The export's title is matched to a registered title whose engine carries a `from_18xx` module
(its 18xx.games `TITLE`, `table`, `player_ids`, `is_decision`, `action`, `actor`). Every live
or undone action is folded through `shared.timeline.Timeline` with undo policy "any", as the
table would be: each decision (and each of its `auto_actions`, the moves 18xx.games made for
a player's standing program) becomes one log entry, except the automatic moves our engine
makes itself (`from_18xx.automatic`), which must meet the export's one for one; 18xx.games' `undo` becomes our `Undo` to
the log position its `action_id` names (its ids are action ids, not positions: they are
mapped), `redo` our `Redo`; chat and program settings change nothing.

With `--to-table` the folded log is also stored as a new table (Redis at `--redis-url`, else
$REDIS_URL) that the services open like any other: the line gains `table`, `seq` and, when
$ROUNDHOUSE_SECRET is set (the services' seat-token key), each seat's `token`. The table has
the clock `--clock` gives (the JSON of `clock` in `POST /api/tables`, checked the same way),
else clock `none`, stated in its meta as for a table the API creates.

Prints one line, in the export's own shape: `{"result": {"<player id>": score, ...},
"game_end_reason": "..."}`. An action the rules refuse stops the import: one line on stderr
(`action <index> (id <id> <type> by <entity>): <code>: <message>`, index counting the export's
actions from 0), exit status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import sys
from dataclasses import dataclass, field
from typing import Any

import msgspec

from shared.config import Config
from shared.engine import Engine, Redo, RuleError, Undo
from shared.games import get_engine, metas
from shared.timeline import Timeline

from services.offline.errors import OfflineError, internal_error, run_reporting


def engine_for_export(title: str) -> Engine[Any]:
    for meta in metas():
        if meta.imports_18xx == title:
            return get_engine(meta.id)
    raise OfflineError(f"title: unknown_title: no title here imports 18xx.games' {title!r}", 2)


@dataclass
class _Live:
    index: int          # position in the export's action list
    before: int         # our log length before it
    after: int          # our log length after it (its auto actions included)


@dataclass
class Import:
    engine: Engine[Any]
    timeline: Timeline[Any]
    ids: list[str]
    initial_active: list[int] = field(default_factory=list)                 # active at set-up
    live: list[_Live] = field(default_factory=list)
    undone: list[tuple[list[_Live], bool]] = field(default_factory=list)   # (group, an Undo was logged)
    index_of_id: dict[int, int] = field(default_factory=dict)
    entries: list[tuple[int, Any]] = field(default_factory=list)            # the table's log: (seat, entry)
    # The seats the engine made active by each entry (a stored table's log carries them, as
    # the game service's appends do: the clock and the turn notices read who must act from them).
    active: list[list[int]] = field(default_factory=list)

    def push(self, seat: int, action: Any) -> None:
        self.timeline.push(seat, action)
        self.entries.append((seat, action))
        self.active.append(sorted(self.engine.active_seats(self.timeline.state)))

    def prefix(self, n: int) -> Import:
        """The first `n` log entries as an import of their own (the game stopped there)."""
        timeline = Timeline(self.engine, self.timeline.seats, self.timeline.options, self.timeline.seed)
        for seat, action in self.entries[:n]:
            timeline.push(seat, action)
        return Import(self.engine, timeline, self.ids, self.initial_active, entries=self.entries[:n],
                      active=self.active[:n])

    def fold(self, index: int, raw: dict[str, Any]) -> None:
        kind = raw.get("type")
        if "id" in raw:
            self.index_of_id[raw["id"]] = index
        if kind == "undo":
            self._undo(index, raw)
        elif kind == "redo":
            self._redo()
        elif kind == "message":
            return
        else:
            before = self.timeline.length
            hook = self.engine.from_18xx  # type: ignore[attr-defined]
            owed: list[Any] = []      # what the engine did by itself, still to meet in the export
            for item in [raw, *(raw.get("auto_actions") or [])]:
                if not hook.is_decision(item):
                    continue
                action = hook.action(item, self.ids)
                if item is not raw:
                    if action in owed:
                        owed.remove(action)       # 18xx.games' automatic move, made by our engine too
                        continue
                    implicit = getattr(hook, "implicit", None)
                    if implicit is not None and implicit(self.timeline.state, action):
                        continue                  # a step our engine moved past by itself
                self.push(hook.actor(self.timeline.state, action), action)
                owed += hook.automatic(self.timeline.state)
            if owed:
                raise RuleError("automatic_moves_differ", f"the engine made {len(owed)} automatic move(s) the export "
                                                          f"does not have: {[msgspec.to_builtins(a) for a in owed]}")
            self.undone.clear()
            self.live.append(_Live(index, before, self.timeline.length))

    def _undo(self, index: int, raw: dict[str, Any]) -> None:
        target = raw.get("action_id")
        if target is None:
            start = self.live[-1].index if self.live else index
        elif target == 0:
            start = 0
        elif target in self.index_of_id:
            start = self.index_of_id[target] + 1
        else:
            raise RuleError("bad_undo", f"undo names action {target}, which the export does not hold")
        # `live` is in export order: the undone ones are its tail (a slice, not a scan of the
        # whole game per undo)
        cut = bisect.bisect_left(self.live, start, key=lambda x: x.index)
        group = self.live[cut:]
        del self.live[cut:]
        position = self.live[-1].after if self.live else 0
        logged = position != self.timeline.length
        if logged:
            self.push(self._seat(raw), Undo(action_id=position))
        self.undone.append((group, logged))

    def _redo(self) -> None:
        if not self.undone:
            raise RuleError("nothing_to_redo", "redo with nothing undone")
        group, logged = self.undone.pop()
        if logged:
            self.push(0, Redo())
        if self.live and group and self.live[-1].index > group[0].index:
            self.live = sorted([*self.live, *group], key=lambda x: x.index)
        else:
            self.live.extend(group)

    def _seat(self, raw: dict[str, Any]) -> int:
        for key in ("user", "entity"):
            if str(raw.get(key)) in self.ids:
                return self.ids.index(str(raw.get(key)))
        return 0


def import_export(export: dict[str, Any]) -> Import:
    try:
        engine = engine_for_export(str(export["title"]))
        hook = engine.from_18xx  # type: ignore[attr-defined]
        seats, options, seed = hook.table(export)
        ids = hook.player_ids(export)
        actions = export["actions"]
    except (KeyError, TypeError, ValueError) as exc:
        raise OfflineError(f"export: bad_export: {type(exc).__name__}: {exc}", 2) from None
    except RuleError as exc:
        raise OfflineError(f"export: {exc.code}: {exc.message}", 2) from None
    try:
        timeline = Timeline(engine, seats, {**options, "undo": "any"}, seed)
    except RuleError as exc:
        raise OfflineError(f"setup: {exc.code}: {exc.message}", 2) from None
    run = Import(engine, timeline, ids, sorted(engine.active_seats(timeline.state)))
    for index, raw in enumerate(actions):
        where = f"action {index} (id {raw.get('id')} {raw.get('type')} by {raw.get('entity')})"
        try:
            run.fold(index, raw)
        except RuleError as exc:
            raise OfflineError(f"{where}: {exc.code}: {exc.message}", 1) from None
        except Exception as exc:  # noqa: BLE001 - an engine bug, still one line
            raise internal_error(where, exc) from None
    return run


def summary(run: Import) -> dict[str, Any]:
    """The export's own shape: final values by 18xx.games player id, best first, and the reason."""
    result = run.engine.result(run.timeline.state)
    if result is None:
        return {"result": {}, "game_end_reason": None}
    order = sorted(range(len(run.ids)), key=lambda i: -result.scores[i])
    return {"result": {run.ids[i]: result.scores[i] for i in order}, "game_end_reason": result.reason}


def main(args: argparse.Namespace) -> int:
    def body() -> int:
        try:
            with open(args.export, "rb") as fh:
                export = json.loads(fh.read())
        except (OSError, ValueError) as exc:
            raise OfflineError(f"export: cannot read {args.export}: {exc}", 2) from None
        if not isinstance(export, dict):
            raise OfflineError("export: bad_export: not a JSON object", 2)
        run = import_export(export)
        out = summary(run)
        if args.clock is not None and not args.to_table:
            raise OfflineError("clock: --clock needs --to-table", 2)
        if args.to_table:
            from services.offline.import_table import parse_clock, store_table

            clock = parse_clock(args.clock)
            out.update(asyncio.run(store_table(run, args.redis_url or Config.from_env().redis_url, clock)))
        sys.stdout.buffer.write(msgspec.json.encode(out) + b"\n")
        return 0

    return run_reporting(body)
