"""1841: replaying the real 18xx.games exports, against 18xx.games' own load of them.

    python3 -m benchmarks.g1841_replay_bench [--repeat 3] [--tail 100] [--theirs LOAD.rb] [EXPORT.json ...]

Per export (default: the shared 1841 fixtures), CPU seconds, median of `--repeat`, each from a
collected heap:
- `import_s`: the whole import (`import_export`: every action, undo and redo, as
  `roundhouse import-18xx` folds it);
- `replay_s`: the decisions in force (`Timeline.effective`) folded from set-up with `apply`
  alone: what 18xx.games' load does (it replays the actions left after undos);
- `theirs_s` (with `--theirs`): 18xx.games' own load of the same export, timed by a Ruby
  script outside this repository (run as `ruby LOAD.rb EXPORT REPEAT`; its last line is JSON
  with `cpu_s`, one figure per load), and `import_vs_theirs` / `replay_vs_theirs`: our time
  over theirs (the issue asks for at most 0.25);
- `accept_us_last_<tail>`: the engine's `apply` of each of the last `--tail` decisions in
  force, in order from the position before them (the caches of derived data emptied first, as
  a server that just loaded the game has them), the least of `--repeat` passes per decision:
  median, p99 and max in microseconds.
The last line of stdout is JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.games.core18xx import memo  # noqa: E402
from shared.timeline import Timeline  # noqa: E402

from services.collector import tune_gc  # noqa: E402
from services.offline.import_18xx import import_export  # noqa: E402
from tests.exports import export_paths  # noqa: E402


def _cpu_s(fn: Any, repeat: int) -> float:
    out = []
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        fn()
        out.append(time.process_time() - t)
    return round(statistics.median(out), 3)


def _setup(engine: Any, export: dict[str, Any]) -> Any:
    seats, options, seed = engine.from_18xx.table(export)
    return Timeline(engine, seats, {**options, "undo": "any"}, seed).state


def _fold(engine: Any, state: Any, decisions: list[tuple[int, Any]]) -> Any:
    for seat, action in decisions:
        state = engine.apply(state, seat, action)
    return state


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _accepts(engine: Any, before: Any, tail: list[tuple[int, Any]], repeat: int) -> list[float]:
    """Microseconds of each `apply` of `tail` from `before`, least of `repeat` passes."""
    clock = time.perf_counter_ns
    best = [float("inf")] * len(tail)
    for _ in range(repeat):
        memo.clear_all()
        gc.collect()
        state = before
        for i, (seat, action) in enumerate(tail):
            t0 = clock()
            state = engine.apply(state, seat, action)
            best[i] = min(best[i], (clock() - t0) / 1000)
    return best


def _theirs(script: Path, path: Path, repeat: int) -> float:
    done = subprocess.run(["ruby", str(script), str(path), str(repeat)], capture_output=True, text=True, check=True)
    return round(statistics.median(json.loads(done.stdout.strip().splitlines()[-1])["cpu_s"]), 3)


def bench(path: Path, repeat: int, tail_n: int, theirs: Path | None) -> dict[str, Any]:
    export = json.loads(path.read_bytes())
    run = import_export(export)
    engine = run.engine
    decisions = run.timeline.effective
    start = _setup(engine, export)
    cut = max(0, len(decisions) - tail_n)
    before = _fold(engine, start, decisions[:cut])
    out: dict[str, Any] = {"export": path.name, "actions": len(export["actions"]), "in_force": len(decisions),
                           "import_s": _cpu_s(lambda: import_export(export), repeat),
                           "replay_s": _cpu_s(lambda: _fold(engine, start, decisions), repeat)}
    accepts = _accepts(engine, before, decisions[cut:], repeat)
    out[f"accept_us_last_{len(accepts)}"] = {"median": round(statistics.median(accepts)),
                                             "p99": round(_percentile(accepts, 0.99)), "max": round(max(accepts))}
    if theirs is not None:
        out["theirs_s"] = _theirs(theirs, path, repeat)
        out["import_vs_theirs"] = round(out["import_s"] / out["theirs_s"], 2)
        out["replay_vs_theirs"] = round(out["replay_s"] / out["theirs_s"], 2)
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("exports", nargs="*", type=Path, help="1841 export files (default: the shared fixtures)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--tail", type=int, default=100, help="decisions at the end whose apply is timed (default 100)")
    p.add_argument("--theirs", type=Path, help="a Ruby script timing 18xx.games' load (see the docstring)")
    args = p.parse_args()
    tune_gc()
    paths = args.exports or export_paths("1841")
    rows = [bench(path, args.repeat, args.tail, args.theirs) for path in paths]
    for row in rows:
        print(json.dumps(row), file=sys.stderr)
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
