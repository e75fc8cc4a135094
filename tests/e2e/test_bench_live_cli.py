"""`roundhouse bench live` as a user runs it: a subprocess that starts its own stack, plays,
stops by itself and ends with one JSON line. A smoke test of the tool, not a timed test."""

from __future__ import annotations

import json
import subprocess
import sys

from services.bench.procs import ROOT

KEYS = {"tables", "sockets", "actions_per_s", "p50_ms", "p95_ms", "p99_ms", "errors"}


def test_bench_live_runs_and_ends_with_one_json_line():
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "bench", "live", "--tables", "3", "--sockets", "12", "--seconds", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    summary = json.loads(lines[-1])
    assert set(summary) == {"bench"} and set(summary["bench"]) == KEYS
    bench = summary["bench"]
    assert bench["tables"] == 3 and bench["sockets"] == 12 and bench["errors"] == 0, done.stdout
    assert bench["actions_per_s"] > 0 and 0 < bench["p50_ms"] <= bench["p95_ms"] <= bench["p99_ms"]
    assert any(line.lstrip().startswith("cpu %") for line in lines[:-1])


def test_bench_live_refuses_bad_arguments_in_one_line():
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "bench", "live", "--tables", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "roundhouse bench live: --tables must be at least 1"
    assert done.stdout == ""


def test_bench_live_on_a_local_cluster():
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "bench", "live", "--redis-cluster", "3", "--tables", "3",
         "--sockets", "6", "--seconds", "3"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("stack: redis (always) at redis-cluster://"), lines[0]
    bench = json.loads(lines[-1])["bench"]
    assert bench["errors"] == 0 and bench["actions_per_s"] > 0, done.stdout
    cpu = next(line for line in lines if line.lstrip().startswith("cpu %"))
    assert all(f"redis{i}=" in cpu for i in range(6)), cpu  # 3 masters + 3 replicas measured
