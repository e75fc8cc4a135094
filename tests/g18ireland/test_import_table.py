"""`roundhouse import-18xx --to-table`: an imported game becomes a table in a real Redis that
the one loader opens and folds to the export's result."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared import auth
from shared.store import EventStore
from shared.store.loader import open_table

from .exports import export_paths

REPO = Path(__file__).resolve().parents[2]
EXPORTS = export_paths("18Ireland")


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
async def test_an_imported_game_is_a_table_the_loader_folds_to_its_result(redis_url: str, redis_client) -> None:
    path = EXPORTS[-1]
    env = {**os.environ, "REDIS_URL": redis_url, "ROUNDHOUSE_SECRET": "import-test-secret"}
    proc = subprocess.run([sys.executable, "-m", "services.cli", "import-18xx", str(path), "--to-table"],
                          cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    line = json.loads(proc.stdout)
    export = json.loads(path.read_text())
    assert line["result"] == {str(k): v for k, v in export["result"].items()}
    assert line["game_end_reason"] == export["game_end_reason"]
    table = line["table"]
    loaded = await open_table(EventStore(redis_client), table)
    assert loaded.timeline.length == line["seq"]
    assert loaded.meta.status == "finished" and loaded.meta.options["undo"] == "any"
    result = loaded.engine.result(loaded.timeline.state)
    assert result is not None and result.reason == export["game_end_reason"]
    by_seat = {str(p["id"]): i for i, p in enumerate(export["players"])}
    assert {pid: result.scores[i] for pid, i in by_seat.items()} == line["result"]
    claims = [auth.verify(b"import-test-secret", s["token"]) for s in line["seats"]]
    assert [(c.table, c.seat) for c in claims] == [(table, i) for i in range(len(export["players"]))]


def test_no_redis_is_one_line(tmp_path: Path) -> None:
    if not EXPORTS:
        pytest.skip("18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
    proc = subprocess.run([sys.executable, "-m", "services.cli", "import-18xx", str(EXPORTS[0]), "--to-table",
                           "--redis-url", "redis://127.0.0.1:1/0"], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith("store: cannot reach Redis")
