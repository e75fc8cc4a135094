"""18xx.games import benchmark: folding the real 18Ireland exports through our engine.

    python3 -m benchmarks.import_bench [--at 900] [--repeat 3]

For each export in ../shared/fixtures/18xx.games/18Ireland/ (or $ROUNDHOUSE_SHARED):
- import_ms: the whole import (`services.offline.import_18xx.import_export`: set-up, every
  action folded through a Timeline with undo "any", undo/redo included), best of --repeat;
- accept_us_near_N: accepting one decision near log entry N (Timeline check + commit: the
  engine's apply with its legality checks and automatic steps), median and max over the 40
  decisions around N, split by kind (lay_tile, run_routes, the rest);
- accept_us_1_vs_N: the median accept over all kinds in the first 40 log entries (the opening
  auction and stock round) against the 40 around N: a game's length should not make accepting
  a move dearer;
- view_ms_near_N: one projection view (`ENGINE.view` + JSON encoding) of the state there;
- legal_ms_near_N: the active seat's legal actions there (what a page or bot asks for).
Prints one JSON line per export.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from services.offline.import_18xx import Import, engine_for_export, import_export  # noqa: E402
from shared.timeline import Timeline  # noqa: E402
from tests.g18ireland.exports import export_paths  # noqa: E402


def _timed_import(export: dict[str, Any], at: int) -> tuple[Import, dict[str, list[float]], Any]:
    """Import, timing each accepted decision whose log position falls within 20 of `at`
    (by kind) or among the first 40 (key "first")."""
    engine = engine_for_export(export["title"])
    hook = engine.from_18xx  # type: ignore[attr-defined]
    seats, options, seed = hook.table(export)
    run = Import(engine, Timeline(engine, seats, {**options, "undo": "any"}, seed), hook.player_ids(export))
    costs: dict[str, list[float]] = {}
    state_at = None
    push = run.timeline.push

    def timed_push(seat: int, action: Any) -> Any:
        nonlocal state_at
        near = abs(run.timeline.length - at) <= 20
        first = run.timeline.length < 40
        t0 = time.perf_counter()
        out = push(seat, action)
        if first:
            costs.setdefault("first", []).append((time.perf_counter() - t0) * 1e6)
        if near:
            costs.setdefault("all", []).append((time.perf_counter() - t0) * 1e6)
            kind = type(action).__struct_config__.tag if hasattr(type(action), "__struct_config__") else "meta"
            kind = kind if kind in ("lay_tile", "run_routes") else "other"
            costs.setdefault(kind, []).append((time.perf_counter() - t0) * 1e6)
            if state_at is None and run.timeline.length >= at:
                state_at = run.timeline.state
        return out

    run.timeline.push = timed_push  # type: ignore[method-assign]
    for index, raw in enumerate(export["actions"]):
        run.fold(index, raw)
    return run, costs, state_at


def bench(path: Path, at: int, repeat: int) -> dict[str, Any]:
    export = json.loads(path.read_text())
    best = min(_once(export) for _ in range(repeat))
    run, costs, state = _timed_import(export, at)
    engine = run.engine
    out: dict[str, Any] = {"export": path.name, "actions": len(export["actions"]),
                           "log_entries": run.timeline.length, "import_ms": round(best, 1)}
    first, near = costs.pop("first", []), costs.pop("all", [])
    if first and near:
        out[f"accept_us_1_vs_{at}"] = {"first_40_median": round(statistics.median(first)),
                                       f"near_{at}_median": round(statistics.median(near))}
    for kind, values in sorted(costs.items()):
        out[f"accept_us_near_{at}_{kind}"] = {"median": round(statistics.median(values)),
                                              "max": round(max(values)), "n": len(values)}
    if state is not None:
        t0 = time.perf_counter()
        for _ in range(repeat):
            blob = msgspec.json.encode(engine.view(state, None))
        out[f"view_ms_near_{at}"] = round((time.perf_counter() - t0) * 1000 / repeat, 2)
        out["view_bytes"] = len(blob)
        seats = sorted(engine.active_seats(state))
        if seats:
            t0 = time.perf_counter()
            for _ in range(repeat):
                engine.legal_actions(state, seats[0])
            out[f"legal_ms_near_{at}"] = round((time.perf_counter() - t0) * 1000 / repeat, 2)
            out["position"] = engine.view(state, None)["position"]
    return out


def _once(export: dict[str, Any]) -> float:
    t0 = time.perf_counter()
    import_export(export)
    return (time.perf_counter() - t0) * 1000


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--at", type=int, default=900, help="log position where costs are measured (default: 900)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each timing; the best is kept (default: 3)")
    args = p.parse_args()
    paths = export_paths("18Ireland")
    if not paths:
        print("no 18Ireland exports found (../shared/fixtures or $ROUNDHOUSE_SHARED)", file=sys.stderr)
        return 2
    for path in paths:
        print(json.dumps(bench(path, args.at, args.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
