"""The HTTP side (/live/*), shutdown behaviour, and `roundhouse projection` as a process."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import msgspec
from aiohttp import WSMsgType

from shared.config import Config
from shared.redis_server import free_port

from services.projection.asyncapi import document, document_json

from .conftest import SECRET
from .test_feed import hello, recv

REPO = Path(__file__).resolve().parents[2]


async def test_health_and_ready(client):
    resp = await client.get("/live/health")
    assert resp.status == 200 and await resp.json() == {"status": "ok"}
    resp = await client.get("/live/ready")
    assert resp.status == 200 and await resp.json() == {"status": "ready"}


async def test_not_ready_without_redis(start_app, cfg):
    dead = msgspec.structs.replace(cfg, redis_url=f"redis://127.0.0.1:{free_port()}/0")
    client = await start_app(cfg=dead)
    resp = await client.get("/live/ready")
    assert resp.status == 503
    assert (await resp.json())["error"]["code"] == "unavailable"
    assert (await client.get("/live/health")).status == 200


async def test_metrics_count_sockets_feeds_and_frames(client, driver):
    ws = await hello(client, driver.table, seat=0)
    await recv(ws)
    await driver.play(2)
    await recv(ws)
    await recv(ws)
    bad = await client.ws_connect("/ws")
    await bad.send_str("nope")
    await recv(bad)
    text = await (await client.get("/live/metrics")).text()
    metrics = dict(
        line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#")
    )
    assert metrics["roundhouse_projection_sockets"] in ("1", "2")  # the bad one may still be closing
    assert metrics["roundhouse_projection_feeds"] == "1"
    assert metrics["roundhouse_projection_watchers"] == "1"
    assert metrics["roundhouse_projection_frames_sent_total"] == "4"  # welcome, 2 updates, 1 error
    assert metrics["roundhouse_projection_updates_folded_total"] == "2"
    assert metrics["roundhouse_projection_slow_clients_dropped_total"] == "0"
    assert metrics['roundhouse_projection_errors_total{code="bad_hello"}'] == "1"
    assert "# TYPE roundhouse_projection_frames_sent_total counter" in text


async def test_asyncapi_document_is_served_and_matches_docs(client):
    resp = await client.get("/live/asyncapi.json")
    assert resp.status == 200
    doc = await resp.json()
    assert doc == json.loads(document_json())
    assert doc["asyncapi"].startswith("3.")
    assert set(doc["components"]["messages"]) == {"hello", "ping", "welcome", "update", "ended", "error", "pong",
                                                 "chat", "mute", "view_at", "chat_line", "chat_log", "mutes", "past_view"}
    hello_schema = doc["components"]["schemas"]["Hello"]
    assert set(hello_schema["required"]) == {"type", "v", "table"}
    # docs/asyncapi.json is this generated document, kept in the repo for readers.
    assert json.loads((REPO / "docs" / "asyncapi.json").read_text()) == document()


async def test_shutdown_closes_sockets_with_going_away(start_app, driver):
    client = await start_app()
    ws = await hello(client, driver.table, seat=0)
    await recv(ws)
    await client.server.close()
    msg = await ws.receive(timeout=5)
    assert (msg.type, msg.data) == (WSMsgType.CLOSE, 1001)  # going away: reconnect and resume
    await client.close()


def _env(redis_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROUNDHOUSE_")}
    env.update(REDIS_URL=redis_url, PYTHONPATH=str(REPO), **extra)
    return env


async def test_cli_serves_the_protocol_and_stops_on_sigterm(redis_url, driver):
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "services.cli", "projection", "--host", "127.0.0.1", "--port", str(port),
        cwd=REPO, env=_env(redis_url, ROUNDHOUSE_SECRET=SECRET.decode()),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 20)
        assert b"roundhouse projection listening on http://127.0.0.1:" in line, line
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/live/ready") as resp:
                assert resp.status == 200
            async with http.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
                await ws.send_json({"type": "hello", "v": 1, "table": "missing-table"})
                assert (await recv(ws))["code"] == "unknown_table"
            await driver.play(2)
            async with http.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
                await ws.send_json({"type": "hello", "v": 1, "table": driver.table})
                welcome = await recv(ws)
                assert (welcome["type"], welcome["seq"], welcome["view"]) == ("welcome", 2, driver.view(2, None))
                await driver.play(1)
                assert (await recv(ws))["seq"] == 3
                proc.send_signal(signal.SIGTERM)
                msg = await ws.receive(timeout=10)
                assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def test_cli_without_secret_fails_with_one_line(redis_url):
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "projection", "--port", "0"],
        cwd=REPO, env=_env(redis_url), capture_output=True, text=True, timeout=30,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "roundhouse projection: set ROUNDHOUSE_SECRET (the game service's seat-token secret)"
    ]


def test_cli_rejects_a_bad_setting(redis_url):
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "projection", "--port", "0"],
        cwd=REPO, env=_env(redis_url, ROUNDHOUSE_SECRET="s" * 32, ROUNDHOUSE_WS_READER="fastest"),
        capture_output=True, text=True, timeout=30,
    )
    assert done.returncode == 1
    assert "ROUNDHOUSE_WS_READER must be multi or per_table" in done.stderr


async def test_unconfigured_secret_is_never_empty():
    # Config.from_env makes a random secret when none is set; tokens then cannot be forged.
    assert Config.from_env().secret != b""
