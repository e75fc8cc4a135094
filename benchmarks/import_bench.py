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
- check_us_same_decision_near_N: like for like. An accept is a check (the engine's apply with
  its legality checks) and then a commit of a few fields, whatever the log's length. Each
  decision around N is checked on the import's Timeline, N entries long, and again in its own
  position on a Timeline with no log at all (the position made its set-up): the same work
  with and without the history behind it (median over the decisions of the best of --repeat;
  each check on a fresh copy of the position, so no memo of an earlier check answers it);
- accept_us_by_kind: the median accept (as timed during the import) of each kind of decision
  (bid, pass, lay_tile, ...) among the first 40 entries and around N, for kinds found in both:
  like decisions early and late, in their own positions (an opening bid weighs two companies,
  a late one a full market);
- view_ms_near_N: one spectator view (`ENGINE.view` + JSON encoding) of the state there;
  projection_ms_near_N: one projection update there, the spectator's view and the active
  seat's, each built and encoded;
- legal_ms_near_N: the active seat's legal actions there (what a page or bot asks for).
Each line also carries the load average when it was measured (the machine is shared).
Prints one JSON line per export.
"""

from __future__ import annotations

import argparse
import gc
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

from shared.engine import Redo, Undo  # noqa: E402
from shared.timeline import Timeline  # noqa: E402

from services.collector import tune_gc  # noqa: E402
from services.offline.errors import OfflineError  # noqa: E402
from services.offline.import_18xx import Import, engine_for_export, import_export  # noqa: E402
from tests.g18ireland.exports import export_paths  # noqa: E402


class Sample(msgspec.Struct):
    """One decision accepted in a measured window, and what is needed to accept it again."""

    window: str          # "first" (the first 40 log entries) or "near" (the 40 around --at)
    kind: str            # the action's tag
    before: Any          # the state it was decided in
    seat: int
    action: Any
    accept_us: float     # accepting it during the import
    node: Any            # its decision node in the import's Timeline


def _tag(action: Any) -> str:
    config = getattr(type(action), "__struct_config__", None)
    return str(config.tag) if config is not None and config.tag else type(action).__name__


def _timed_import(export: dict[str, Any], at: int, repeat: int = 1) -> tuple[Import, dict[str, list[float]], Any,
                                                                         list[Sample]]:
    """Import, timing each accepted decision whose log position falls within 20 of `at`
    (by kind) or among the first 40 (key "first"); the decisions of both windows are kept as
    samples, to be checked again after the import (checking them in between would empty the
    engine's last-answer caches the next accept uses)."""
    engine = engine_for_export(export["title"])
    hook = engine.from_18xx  # type: ignore[attr-defined]
    seats, options, seed = hook.table(export)
    run = Import(engine, Timeline(engine, seats, {**options, "undo": "any"}, seed), hook.player_ids(export))
    costs: dict[str, list[float]] = {}
    samples: list[Sample] = []
    state_at = None
    timeline = run.timeline
    push = timeline.push

    def timed_push(seat: int, action: Any) -> Any:
        nonlocal state_at
        near = abs(timeline.length - at) <= 20
        first = timeline.length < 40
        before = timeline.state
        t0 = time.perf_counter()
        out = push(seat, action)
        spent = (time.perf_counter() - t0) * 1e6
        if first:
            costs.setdefault("first", []).append(spent)
        if near:
            costs.setdefault("all", []).append(spent)
            kind = _tag(action)
            kind = kind if kind in ("lay_tile", "run_routes") else "other"
            costs.setdefault(kind, []).append(spent)
            if state_at is None and timeline.length >= at:
                state_at = timeline.state
        if (first or near) and not isinstance(action, (Undo, Redo)):
            samples.append(Sample("first" if first else "near", _tag(action), before, seat, action, spent,
                                  timeline.head))
        return out

    timeline.push = timed_push  # type: ignore[method-assign]
    for index, raw in enumerate(export["actions"]):
        run.fold(index, raw)
    return run, costs, state_at, samples


def _check_both_us(long: Timeline[Any], empty: Timeline[Any], sample: Sample, repeat: int) -> tuple[float, float]:
    """Checking the sample's decision in the position it was made in, on the import's Timeline
    (all its entries behind it: the head moved to the node before the decision and back, which
    folds nothing) and on `empty`, a Timeline with no log whose set-up is made that position.
    Alternately, `repeat` times each, each check on a fresh copy of the position (`_cold`), so
    that drift on a shared machine falls on both alike; the best of each."""
    head, parent = long.head, sample.node.parent
    assert parent is not None
    kept = parent.state
    long.head = parent
    in_log, no_log = float("inf"), float("inf")
    try:
        for _ in range(repeat):
            parent.state = _cold(sample.before)
            in_log = min(in_log, _check_us(long, sample.seat, sample.action))
            empty.root.state = _cold(sample.before)
            no_log = min(no_log, _check_us(empty, sample.seat, sample.action))
    finally:
        parent.state = kept
        long.head = head
    return in_log, no_log


def _cold(state: Any) -> Any:
    """An equal copy of `state` (JSON round trip) with none of the engine's memos: a check of
    it does the whole work, as the first check of a position does."""
    return msgspec.json.decode(msgspec.json.encode(state), type=type(state))


def _check_us(timeline: Timeline[Any], seat: int, action: Any) -> float:
    t0 = time.perf_counter()
    timeline.check(seat, action)
    return (time.perf_counter() - t0) * 1e6


def _like_for_like(run: Import, export: dict[str, Any], samples: list[Sample], at: int,
                   repeat: int) -> dict[str, Any]:
    near = [s for s in samples if s.window == "near"]
    out: dict[str, Any] = {}
    if near:
        engine = run.engine
        seats, options, seed = engine.from_18xx.table(export)  # type: ignore[attr-defined]
        empty = Timeline(engine, seats, {**options, "undo": "any"}, seed)
        pairs = [_check_both_us(run.timeline, empty, s, repeat) for s in near]
        out[f"check_us_same_decision_near_{at}"] = {
            f"with_{at}_entries_median": round(statistics.median(p[0] for p in pairs), 1),
            "with_no_log_median": round(statistics.median(p[1] for p in pairs), 1),
            "decisions": len(near)}
    by_kind: dict[str, dict[str, Any]] = {}
    for kind in sorted({s.kind for s in samples}):
        early = [s.accept_us for s in samples if s.kind == kind and s.window == "first"]
        late = [s.accept_us for s in samples if s.kind == kind and s.window == "near"]
        if early and late:
            by_kind[kind] = {"first_40": round(statistics.median(early)), f"near_{at}": round(statistics.median(late)),
                             "n": [len(early), len(late)]}
    out["accept_us_by_kind"] = by_kind
    return out


def _times(fn: Any, repeat: int) -> dict[str, float]:
    """Median and best, wall and CPU, in ms, of `repeat` calls of `fn`, each from a collected
    heap (as a fresh process's first import is): the garbage of the call before is not
    charged to the next one's collections."""
    wall, cpu = [], []
    for _ in range(repeat):
        gc.collect()
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
    run, costs, state, samples = _timed_import(export, at, repeat)
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
    out.update(_like_for_like(run, export, samples, at, repeat))
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
    tune_gc()       # as every roundhouse process runs (services/collector.py)
    paths = args.exports or export_paths("18Ireland")
    if not paths:
        print("no 18Ireland exports found (../shared/fixtures or $ROUNDHOUSE_SHARED)", file=sys.stderr)
        return 2
    for path in paths:
        print(json.dumps(bench(path, args.at, args.repeat)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
