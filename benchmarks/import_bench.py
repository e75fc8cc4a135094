"""18xx.games import benchmark: folding the real 18Ireland exports through our engine.

    python3 -m benchmarks.import_bench [--at 900] [--repeat 5] [EXPORT.json ...]

For each export in ../shared/fixtures/18xx.games/18Ireland/ (or $ROUNDHOUSE_SHARED), or each
file named:
- read_ms: reading the file and decoding its JSON (`json.loads`, as `roundhouse import-18xx`
  does), apart from everything else;
- import_ms: the whole import (`services.offline.import_18xx.import_export`: set-up, every
  action folded through a Timeline with undo "any", undo/redo included), median and best of
  --repeat, wall and CPU (process) time;
- replay_ms: what 18xx.games' own figure counts, a full replay of the game as it stands: the
  set-up and the export's live decisions (undone ones and undo/redo left out, as 18xx.games'
  `filtered_actions` does), each folded once through a Timeline;
- accept_us_near_N: accepting one decision near log entry N (Timeline check + commit: the
  engine's apply with its legality checks and automatic steps), median and max over the 40
  decisions around N, split by kind (lay_tile, run_routes, the rest);
- accept_us_1_vs_N: the median accept over all kinds in the first 40 log entries (the opening
  auction and stock round) against the 40 around N: a game's length should not make accepting
  a move dearer;
- view_ms_near_N: one spectator view (`ENGINE.view` + JSON encoding) of the state there;
  projection_ms_near_N: one projection update there, the spectator's view and the active
  seat's, each built and encoded;
- legal_ms_near_N: the active seat's legal actions there (what a page or bot asks for).
Each line also carries the load average when it was measured (the machine is shared).
Prints one JSON line per export.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec  # noqa: E402

from services.offline.errors import OfflineError  # noqa: E402
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


def _times(fn: Any, repeat: int) -> dict[str, float]:
    """Median and best, wall and CPU, in ms, of `repeat` calls of `fn`."""
    wall, cpu = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c) * 1000)
        wall.append((time.perf_counter() - w) * 1000)
    return {"median": round(statistics.median(wall), 1), "best": round(min(wall), 1),
            "cpu_median": round(statistics.median(cpu), 1), "cpu_best": round(min(cpu), 1)}


def _replay(engine: Any, export: dict[str, Any], decisions: list[tuple[int, Any]]) -> Any:
    hook = engine.from_18xx
    seats, options, seed = hook.table(export)
    timeline = Timeline(engine, seats, {**options, "undo": "any"}, seed)
    for seat, action in decisions:
        timeline.push(seat, action)
    return timeline.state


def bench(path: Path, at: int, repeat: int) -> dict[str, Any]:
    read = _times(lambda: json.loads(path.read_bytes()), repeat)
    export = json.loads(path.read_bytes())
    try:
        imported = _times(lambda: import_export(export), repeat)
    except OfflineError as exc:
        return {"export": path.name, "error": str(exc), "load_average": _load()}
    run, costs, state = _timed_import(export, at)
    engine = run.engine
    decisions = run.timeline.effective
    final = msgspec.json.encode(run.timeline.state)
    if msgspec.json.encode(_replay(engine, export, decisions)) != final:
        raise SystemExit(f"{path.name}: the replay of the live decisions does not end where the import does")
    replayed = _times(lambda: _replay(engine, export, decisions), repeat)
    out: dict[str, Any] = {"export": path.name, "actions": len(export["actions"]),
                           "log_entries": run.timeline.length, "live_decisions": len(decisions),
                           "read_ms": read, "import_ms": imported, "replay_ms": replayed}
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
                msgspec.json.encode(engine.view(state, None))
                msgspec.json.encode(engine.view(state, seats[0]))
            out[f"projection_ms_near_{at}"] = round((time.perf_counter() - t0) * 1000 / repeat, 2)
            t0 = time.perf_counter()
            for _ in range(repeat):
                engine.legal_actions(state, seats[0])
            out[f"legal_ms_near_{at}"] = round((time.perf_counter() - t0) * 1000 / repeat, 2)
            out["position"] = engine.view(state, None)["position"]
    out["load_average"] = _load()
    return out


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("exports", nargs="*", type=Path, help="export files (default: the shared 18Ireland fixtures)")
    p.add_argument("--at", type=int, default=900, help="log position where costs are measured (default: 900)")
    p.add_argument("--repeat", type=int, default=5, help="runs of each timing, median and best kept (default: 5)")
    args = p.parse_args()
    paths = args.exports or export_paths("18Ireland")
    if not paths:
        print("no 18Ireland exports found (../shared/fixtures or $ROUNDHOUSE_SHARED)", file=sys.stderr)
        return 2
    for path in paths:
        print(json.dumps(bench(path, args.at, args.repeat)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
