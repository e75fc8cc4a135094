"""How the worker runs: inside `roundhouse dev`'s app (submitting in-process) and as
`roundhouse bot` (its command-line failures)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import msgspec
import pytest
from aiohttp import web

from shared.config import Config

from services.bot.app import install as install_bot
from services.game.app import install as install_game
from tests.service_config import NO_BUDGETS

from .conftest import REPO, SECRET, Stack, assert_each_turn_played_once, replay


async def test_the_dev_app_worker_plays_bot_seats_through_the_in_process_game_service(
    aiohttp_server, redis_url, group, monkeypatch
) -> None:
    for name, value in {"ROUNDHOUSE_BOT_GROUP": group, "ROUNDHOUSE_BOT_GROUP_START": "$",
                        "ROUNDHOUSE_BOT_PROCESSES": "1", "ROUNDHOUSE_BOT_ITERATIONS": "5",
                        "ROUNDHOUSE_BOT_PRELOAD": "tests.titles.sealed"}.items():
        monkeypatch.setenv(name, value)
    app = web.Application()
    cfg = Config(redis_url=redis_url, secret=SECRET, **NO_BUDGETS)
    install_game(app, cfg)
    install_bot(app, cfg)
    server = await aiohttp_server(app)
    stack = Stack(str(server.make_url("")).rstrip("/"), redis_url)
    try:
        # (A level no bot has is refused at creation: tests/hardening/test_input.py.)
        created = await stack.create([{"name": "E", "kind": "bot", "level": "random"},
                                      {"name": "M", "kind": "bot", "level": "mcts"}])
        detail = await stack.wait_finished(created["table"])
    finally:
        await stack.session.close()
    result, entries = await replay(redis_url, created["table"])
    assert msgspec.to_builtins(result) == detail["result"]
    assert_each_turn_played_once(entries)


def test_the_dev_worker_needs_the_game_service_in_its_app() -> None:
    with pytest.raises(ValueError, match="needs the game service"):
        install_bot(web.Application(), Config(secret=SECRET))


def _bot(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ROUNDHOUSE_")}
    return subprocess.run([sys.executable, "-m", "services.cli", "bot"], cwd=REPO, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "roundhouse bot: ROUNDHOUSE_SECRET must be set"),
        ({"ROUNDHOUSE_SECRET": "s", "ROUNDHOUSE_BOT_PROCESSES": "two"},
         "roundhouse bot: ROUNDHOUSE_BOT_PROCESSES must be a whole number, not 'two'"),
        ({"ROUNDHOUSE_SECRET": "s", "ROUNDHOUSE_BOT_CLAIM_IDLE_MS": "5"},
         "roundhouse bot: ROUNDHOUSE_BOT_CLAIM_IDLE_MS must be at least 100, not 5"),
        ({"ROUNDHOUSE_SECRET": "s", "ROUNDHOUSE_BOT_PRELOAD": "no.such.module"},
         "roundhouse bot: ROUNDHOUSE_BOT_PRELOAD: no module named 'no.such.module'"),
    ],
)
def test_roundhouse_bot_refuses_bad_settings_in_one_line(env: dict[str, str], message: str) -> None:
    proc = _bot(env)
    assert proc.returncode == 2
    assert proc.stdout == "" and proc.stderr.splitlines() == [proc.stderr.strip()]
    assert proc.stderr.startswith(message), proc.stderr


def test_roundhouse_bot_without_redis_fails_in_one_line() -> None:
    proc = _bot({"ROUNDHOUSE_SECRET": "s", "REDIS_URL": "redis://127.0.0.1:1/0"})
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("roundhouse bot: redis at redis://127.0.0.1:1/0:"), proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_the_response_time_benchmark_runs_its_own_stack_and_ends_with_json() -> None:
    proc = subprocess.run([sys.executable, "-m", "benchmarks.bot_response_bench", "--games", "1", "--bots", "random",
                           "--processes", "1"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout.splitlines()[-1])["bot_response"]["random"]
    assert figures["moves"] > 20 and 0 <= figures["ms_p50"] <= figures["ms_p95"] <= figures["ms_max"]


_POOL_OWNER = """
import asyncio, os, sys
from services.bot.settings import BotSettings
from services.bot.worker import new_pool
from services.bot import compute

async def main():
    pool = new_pool(BotSettings(processes=2))
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(pool, compute.ready) for _ in range(2)))
    print(" ".join(str(p) for p in pool._processes), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


async def test_compute_processes_leave_when_their_worker_is_killed_outright() -> None:
    """SIGKILL (or the OOM killer) gives the worker no chance to shut its pool down; the
    compute processes must notice and not live on as orphans."""
    import asyncio
    import signal

    from tests.dev.devproc import alive
    from tests.waiting import until

    owner = subprocess.Popen([sys.executable, "-c", _POOL_OWNER], cwd=REPO, stdout=subprocess.PIPE, text=True)
    try:
        line = await asyncio.wait_for(asyncio.to_thread(owner.stdout.readline), 60)  # type: ignore[union-attr]
        children = [int(p) for p in line.split()]
        assert len(children) == 2 and all(alive(p) for p in children)
    finally:
        owner.send_signal(signal.SIGKILL)
        owner.wait()
    await until(lambda: not any(alive(p) for p in children), "the orphaned compute processes to exit", timeout=10)
