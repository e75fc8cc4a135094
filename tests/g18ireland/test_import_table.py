"""`roundhouse import-18xx --to-table`: an imported game becomes a table in a real Redis that
the one loader opens and folds to the export's result."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from shared import auth
from shared.clock import ClockSpec
from shared.store import RedisEventStore
from shared.store.clock import READ_CHUNK, ClockStore
from shared.tables import open_table

from services.bench.procs import ServiceProcess
from tests.e2e.stack import SERVICE_ENV, GameClient
from tests.table_life.clocks import TestTime
from tests.waiting import until

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
    loaded = await open_table(RedisEventStore(redis_client), table)
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


def _import(export: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", "import-18xx", str(export), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=300, env={**os.environ, **env})


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
async def test_an_import_has_clock_none_and_every_entry_says_who_must_act(redis_url: str, redis_client) -> None:
    proc = _import(EXPORTS[-1], {"REDIS_URL": redis_url}, "--to-table")
    assert proc.returncode == 0, proc.stderr
    table = json.loads(proc.stdout)["table"]
    loaded = await open_table(RedisEventStore(redis_client), table)
    assert loaded.meta.clock is not None and loaded.meta.clock.spec == ClockSpec()  # stated, not missing
    marks, events = await ClockStore(RedisEventStore(redis_client)).read(table, 0, "0-0")
    assert events == [] and len(marks) == min(loaded.timeline.length, READ_CHUNK)
    assert all(m.active is not None for m in marks)  # the clock and the turn notices follow them


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
async def test_the_clock_chosen_at_import_runs_as_the_apis_does(redis_url: str, redis_client, tmp_path: Path) -> None:
    """An unfinished game (the export's first 150 actions) imported with an async clock:
    the clock API answers it, and its deadline ends the table once."""
    export = json.loads(EXPORTS[-1].read_text())
    export["actions"] = export["actions"][:150]
    cut = tmp_path / "unfinished.json"
    cut.write_text(json.dumps(export))
    time = TestTime(tmp_path / "now")
    env = {"REDIS_URL": redis_url, "ROUNDHOUSE_SECRET": SERVICE_ENV["ROUNDHOUSE_SECRET"], **time.env}
    clock = {"kind": "async", "turn_hours": 1, "on_timeout": "abandon"}
    proc = _import(cut, env, "--to-table", "--clock", json.dumps(clock))
    assert proc.returncode == 0, proc.stderr
    line = json.loads(proc.stdout)
    table = line["table"]
    loaded = await open_table(RedisEventStore(redis_client), table)
    assert loaded.engine.result(loaded.timeline.state) is None
    active = sorted(loaded.engine.active_seats(loaded.timeline.state))
    game = ServiceProcess("game", {**SERVICE_ENV, **env, "ROUNDHOUSE_CLOCK_POLL": "0.05"}, tmp_path)
    try:
        game.start()
        async with aiohttp.ClientSession() as http:
            api = GameClient(http, game.url)
            reply = (await api.request("GET", f"/api/tables/{table}/clock")).body
            assert reply["kind"] == "async" and reply["spec"] == clock
            assert [s["seat"] for s in reply["seats"] if s["running"]] == active
            assert all(s["remaining_ms"] == 3600_000 for s in reply["seats"] if s["running"])
            token = line["seats"][active[0]]["token"]
            move = (await api.legal(table, token))["actions"][0]["action"]  # in time now, too late below
            time.advance(3600_000 + 1)

            async def ended() -> dict[str, Any] | None:
                detail = (await api.request("GET", f"/api/tables/{table}")).body
                return detail if detail["status"] == "finished" else None

            detail = await until(ended, "the clock watch to end the imported table", timeout=20)
            name = loaded.meta.seats[active[0]].name
            assert detail["result"]["reason"] == f"abandoned: {name} ran out of time"
            refused = await api.submit(table, token, line["seq"], move)
            assert refused.status == 409 and refused.body["error"]["code"] == "table_ended"
        _marks, events = await ClockStore(RedisEventStore(redis_client)).read(table, line["seq"], "0-0")
        assert [(e.kind, e.outcome) for e in events] == [("timeout", "abandon")]
    finally:
        game.stop()


@pytest.mark.parametrize("args, line", [
    (["--to-table", "--clock", '{"kind": "async"}'], "clock: bad_clock: an async clock needs turn_hours > 0"),
    (["--to-table", "--clock", '{"kind": "realtime", "bank_s": 60, "bot_level": "genius"}'],
     "clock: unknown_bot: clock: unknown bot level 'genius'; levels are "),
    (["--to-table", "--clock", '{"kind": "sundial"}'], "clock: bad_clock: "),
    (["--clock", '{"kind": "none"}'], "clock: --clock needs --to-table"),
])
def test_a_bad_clock_is_one_line_and_stores_nothing(args: list[str], line: str, redis_url: str) -> None:
    if not EXPORTS:
        pytest.skip("18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
    proc = _import(EXPORTS[0], {"REDIS_URL": redis_url}, *args)
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(line), proc.stderr
