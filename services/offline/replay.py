"""`roundhouse replay LOG`: fold a table log through its title's engine and print the final state.

Output (one JSON line on stdout): `{"title", "seq", "view", "active_seats", "result"}` where
`seq` counts every log entry (undo/redo included) and `view` is the spectator view. Action
indexes in error lines count from 0, in log order.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import msgspec

from shared.engine import Engine, RuleError, decode_action, default_options
from shared.timeline import Timeline

from services.offline.errors import OfflineError, engine_for, internal_error, run_reporting
from services.offline.table_log import TableLog, decode_entry, load_log


def open_timeline(engine: Engine[Any], log: TableLog) -> Timeline[Any]:
    names = log.seat_names()
    if not engine.meta.min_players <= len(names) <= engine.meta.max_players:
        raise OfflineError(
            f"seats: bad_seats: {engine.title} takes {engine.meta.min_players}..{engine.meta.max_players} seats, "
            f"the log has {len(names)}",
            2,
        )
    # Options the log leaves out take the title's defaults, as when the table was created.
    options = {**default_options(engine), **log.options}
    try:
        return Timeline(engine, names, options, log.seed)
    except RuleError as exc:
        raise OfflineError(f"setup: {exc.code}: {exc.message}", 2) from None
    except Exception as exc:  # noqa: BLE001 - engine bug, reported in one line
        raise internal_error("setup", exc) from None


def fold_log(log: TableLog, engine: Engine[Any] | None = None) -> Timeline[Any]:
    """The timeline after every entry of `log`; OfflineError names the first bad entry."""
    engine = engine or engine_for(log.title, "title")
    timeline = open_timeline(engine, log)
    for index, raw in enumerate(log.actions):
        entry = decode_entry(index, raw)
        try:
            timeline.push(entry.seat, decode_action(engine, entry.action))
        except RuleError as exc:
            raise OfflineError(f"action {index}: {exc.code}: {exc.message}", 1) from None
        except Exception as exc:  # noqa: BLE001 - engine bug, reported in one line
            raise internal_error(f"action {index}", exc) from None
    return timeline


def final_report(timeline: Timeline[Any]) -> dict[str, Any]:
    engine, state = timeline.engine, timeline.state
    result = engine.result(state)
    return {
        "title": engine.title,
        "seq": timeline.length,
        "view": engine.view(state, None),
        "active_seats": sorted(engine.active_seats(state)),
        "result": None if result is None else msgspec.to_builtins(result),
    }


def main(args: argparse.Namespace) -> int:
    def body() -> int:
        report = final_report(fold_log(load_log(args.log)))
        sys.stdout.buffer.write(msgspec.json.encode(report) + b"\n")
        return 0

    return run_reporting(body)
