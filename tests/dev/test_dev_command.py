"""`roundhouse dev` as a user runs it: a real subprocess, real redis-server, real HTTP and
WebSocket over loopback."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import redis

from shared import auth
from shared.games import get_engine
from shared.store import keys

from tests.dev.devproc import REPO, DevProcess, alive, dev_env, free_port, http, redis_pid

TITLE = "chicago-express"


def create_table(base: str) -> dict[str, Any]:
    players = get_engine(TITLE).meta.min_players
    status, body = http("POST", f"{base}api/tables", {"title": TITLE, "seats": [{"name": f"p{i}"} for i in range(players)]})
    assert status == 201, body
    return body


def token_of(created: dict[str, Any], seat: int) -> str:
    return next(s["token"] for s in created["seats"] if s["seat"] == seat)


def play_first_legal(base: str, table: str, token: str, seq: int, key: str) -> dict[str, Any]:
    status, legal = http("GET", f"{base}api/tables/{table}/legal", headers={"Authorization": f"Bearer {token}"})
    assert status == 200 and legal["active"], legal
    body = {"expected_seq": seq, "idempotency_key": key, "action": legal["actions"][0]["action"]}
    status, accepted = http("POST", f"{base}api/tables/{table}/actions", body, {"Authorization": f"Bearer {token}"})
    assert status == 201, accepted
    return accepted


async def welcome(base: str, table: str, token: str | None) -> dict[str, Any]:
    """The first frame of a socket saying hello with `token` (None: as a spectator)."""
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(base.replace("http://", "ws://") + "ws") as ws:
            await ws.send_json({"type": "hello", "v": 1, "table": table, "token": token, "last_seq": 0})
            return await ws.receive_json(timeout=10)


def test_dev_serves_every_service_stops_cleanly_and_keeps_tables(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    with DevProcess(data, port, dev_env()) as dev:
        base = dev.wait_ready()
        assert base == f"http://127.0.0.1:{port}/"
        assert str(data / "redis") in dev.stdout[1]
        for path in ("api/health", "api/ready", "live/health", "live/ready"):
            assert http("GET", base + path)[0] == 200, path
        status, page = http("GET", base)
        assert status == 200 and 'src="/app/main.js"' in page  # the web client (services/web)
        assert stat.S_IMODE((data / "secret").stat().st_mode) == 0o600

        created = create_table(base)
        table, first = created["table"], created["active_seats"][0]
        accepted = play_first_legal(base, table, token_of(created, first), 0, "first")
        assert accepted["seq"] == 1
        # The projection is mounted in the same app: a seat's socket sees the action.
        hello = asyncio.run(welcome(base, table, token_of(created, first)))
        assert (hello["type"], hello["seat"], hello["seq"]) == ("welcome", first, 1)

        embedded = redis_pid(data)
        assert embedded is not None and alive(embedded)
        assert dev.stop(signal.SIGTERM) == 0, dev.stderr()
        assert not alive(embedded)
        assert "Traceback" not in dev.stderr()

    # Same data dir: the AOF brings the table back, and the kept secret keeps old tokens valid.
    with DevProcess(data, port, dev_env()) as dev:
        base = dev.wait_ready()
        assert redis_pid(data) != embedded
        status, detail = http("GET", f"{base}api/tables/{table}")
        assert status == 200 and detail["last_seq"] == 1
        next_seat = accepted["active_seats"][0]
        assert play_first_legal(base, table, token_of(created, next_seat), 1, "second")["seq"] == 2
        assert dev.stop(signal.SIGINT) == 0, dev.stderr()


def test_taken_port_is_one_line_and_nonzero(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "services.cli", "dev", "--port", str(port), "--data-dir", str(tmp_path / "d")],
            cwd=REPO, env=dev_env(), capture_output=True, text=True, timeout=30,
        )
    assert done.returncode != 0
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [f"roundhouse dev: cannot listen on 127.0.0.1:{port}: address already in use"]
    # Nothing was started: the port is checked first.
    assert not (tmp_path / "d").exists()


def test_redis_url_mode_uses_that_redis_and_starts_none(tmp_path: Path, redis_url: str) -> None:
    data = tmp_path / "data"
    secret = "a-secret-from-the-environment"
    with DevProcess(data, free_port(), dev_env(redis_url, ROUNDHOUSE_SECRET=secret)) as dev:
        base = dev.wait_ready()
        assert "(REDIS_URL)" in dev.stdout[1] and "ROUNDHOUSE_SECRET" in dev.stdout[1]
        assert http("GET", base + "api/ready")[0] == 200
        created = create_table(base)
        # The tokens are signed with the environment's secret, not a generated one.
        assert auth.verify(secret.encode(), token_of(created, 0)).table == created["table"]
        assert dev.stop() == 0, dev.stderr()
    assert not (data / "redis").exists()
    assert not (data / "secret").exists()
    client = redis.Redis.from_url(redis_url)
    try:
        # The table went to the given Redis, which is still up after dev stopped.
        assert client.exists(keys.meta_key(created["table"])) == 1
    finally:
        client.close()


def test_one_data_dir_per_dev_and_dead_redis_stops_dev(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with DevProcess(data, free_port(), dev_env()) as dev:
        dev.wait_ready()
        second = subprocess.run(
            [sys.executable, "-m", "services.cli", "dev", "--port", "0", "--data-dir", str(data)],
            cwd=REPO, env=dev_env(), capture_output=True, text=True, timeout=30,
        )
        assert second.returncode != 0
        assert second.stderr.strip().splitlines() == [
            f"roundhouse dev: data dir {data} is in use by another `roundhouse dev`"
        ]

        embedded = redis_pid(data)
        assert embedded is not None
        os.kill(embedded, signal.SIGKILL)
        assert dev.proc.wait(timeout=15) != 0
        err = dev.stderr()
        assert "redis-server exited unexpectedly" in err and str(data / "redis" / "redis.log") in err


def test_sigterm_while_redis_starts_leaves_no_redis_behind(tmp_path: Path) -> None:
    data = tmp_path / "data"
    log = data / "redis" / "redis.log"
    with DevProcess(data, free_port(), dev_env()) as dev:
        deadline = time.monotonic() + 20
        while not log.exists() or redis_pid(data) is None:
            assert time.monotonic() < deadline and dev.proc.poll() is None, dev.stderr()
            time.sleep(0.001)
        embedded = redis_pid(data)
        code = dev.stop(signal.SIGTERM)
        # 130: stopped before ready; 0 if it had just become ready. Either way Redis is gone.
        assert code in (0, 130), dev.stderr()
        assert embedded is not None and not alive(embedded)
