"""Operational endpoints: health, readiness, metrics, the OpenAPI document, and the
`roundhouse game` command run as a subprocess."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import msgspec
from aiohttp import web

from shared.redis_server import free_port

from services.game.app import install

ROOT = Path(__file__).resolve().parents[2]


async def test_health_and_ready(client, new_client):
    resp = await client.get("/api/health")
    assert (resp.status, await resp.json()) == (200, {"status": "ok"})
    resp = await client.get("/api/ready")
    assert (resp.status, await resp.json()) == (200, {"status": "ok", "redis": True})


async def test_ready_reports_unreachable_redis(aiohttp_client, make_cfg):
    from services.game.app import create_app

    cfg = msgspec.structs.replace(make_cfg(), redis_url=f"redis://127.0.0.1:{free_port()}/0")  # nobody listens
    client = await aiohttp_client(create_app(cfg))
    resp = await client.get("/api/ready")
    assert (resp.status, await resp.json()) == (503, {"status": "unavailable", "redis": False})
    resp = await client.post("/api/tables", json={"title": "nim", "seats": [{"name": "a"}, {"name": "b"}]})
    assert (resp.status, (await resp.json())["error"]["code"]) == (503, "unavailable")


async def test_metrics_count_what_happened(client, make_table):
    table = await make_table(client, 2, seed=0)
    assert (await table.act(0, {"type": "take", "count": 1}, 0))[0] == 201
    assert (await table.act(1, {"type": "take", "count": 1}, 0))[0] == 409
    assert (await table.act(1, {"type": "take", "count": 7}, 1))[0] == 422
    resp = await client.get("/api/metrics")
    assert resp.status == 200 and resp.content_type == "text/plain"
    text = await resp.text()
    samples = dict(line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))
    assert samples["roundhouse_game_actions_accepted_total"] == "1"
    assert samples["roundhouse_game_conflicts_total"] == "1"
    assert samples['roundhouse_game_rule_errors_total{code="bad_amount"}'] == "1"
    assert samples["roundhouse_game_append_seconds_count"] == "1"
    assert samples['roundhouse_game_append_seconds_bucket{le="+Inf"}'] == "1"
    assert samples['roundhouse_game_requests_total{route="/api/tables/{table}/actions",method="POST",status="409"}'] == "1"
    assert "# TYPE roundhouse_game_append_seconds histogram" in text


async def test_openapi_lists_every_route(client):
    resp = await client.get("/api/openapi.json")
    assert resp.status == 200
    doc = json.loads(await resp.read())
    assert doc["openapi"].startswith("3.1")
    routes = {
        (r.resource.canonical, r.method.lower())
        for r in client.app.router.routes()
        if r.resource is not None and r.resource.canonical.startswith("/api/")
    }
    documented = {(path, method) for path, ops in doc["paths"].items() for method in ops}
    assert routes == documented
    schemas = doc["components"]["schemas"]
    # Every $ref resolves inside the document.
    refs = set()

    def walk(node):
        if isinstance(node, dict):
            if "$ref" in node:
                refs.add(node["$ref"].rsplit("/", 1)[1])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(doc)
    assert refs and refs <= set(schemas)
    assert "chicago-express.Action" in schemas
    action_errors = doc["paths"]["/api/tables/{table}/actions"]["post"]["responses"]
    assert "stale_seq" in action_errors["409"]["description"] and "bad_token" in action_errors["401"]["description"]


async def test_installs_beside_other_services(aiohttp_client, make_cfg):
    """`roundhouse dev` mounts game and projection in one app: everything of ours is under /api/."""
    app = web.Application()
    async def other_service(_request: web.Request) -> web.Response:
        return web.Response(text="someone else")

    app.router.add_get("/ws", other_service)
    install(app, make_cfg())
    client = await aiohttp_client(app)
    assert all(res.canonical.startswith("/api/") for res in app.router.resources() if res.canonical != "/ws")
    assert (await client.get("/ws")).status == 200
    resp = await client.post("/api/tables", json={"title": "nim", "seats": [{"name": "a"}, {"name": "b"}]})
    assert resp.status == 201


def _get(url: str) -> tuple[int, dict]:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return resp.status, json.loads(resp.read())


async def test_roundhouse_game_command(redis_url):
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "ROUNDHOUSE_SECRET": "cli-secret-" + "0" * 32, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "services.cli", "game", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout is not None
    try:
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 20)
        assert f"listening on http://127.0.0.1:{port}/" in line
        base = f"http://127.0.0.1:{port}"
        assert await asyncio.to_thread(_get, f"{base}/api/health") == (200, {"status": "ok"})
        body = json.dumps({"title": "chicago-express", "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}).encode()
        req = urllib.request.Request(f"{base}/api/tables", data=body, headers={"Content-Type": "application/json"})
        created = await asyncio.to_thread(lambda: json.loads(urllib.request.urlopen(req, timeout=5).read()))
        status, detail = await asyncio.to_thread(_get, f"{base}/api/tables/{created['table']}")
        assert status == 200 and detail["title"] == "chicago-express"
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err


async def test_roundhouse_game_command_reports_a_taken_port():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "ROUNDHOUSE_SECRET": "s" * 32}
        proc = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "services.cli", "game", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=30,
        )
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [f"roundhouse game: cannot listen on 127.0.0.1:{port}: address already in use"]


async def test_titles_are_listed_from_their_meta_and_their_schemas_do_not_collide(client):
    """GET /api/titles is every registered title's META (plus the table-level undo option);
    OpenAPI names each title's structs `<title>.<Struct>`, so two titles' `Pass` never clash."""
    from shared.games import metas

    body = await (await client.get("/api/titles")).json()
    listed = {t["id"]: t for t in body["titles"]}
    assert set(listed) == {m.id for m in metas()} >= {"chicago-express", "nim", "sealed"}
    chicago = listed["chicago-express"]
    assert (chicago["min_players"], chicago["max_players"], chicago["web_module"]) == (2, 6, "chicago/page.js")
    dials = next(o for o in chicago["options"] if o["name"] == "dial_lengths")
    assert {f["name"]: f["default"] for f in dials["fields"]} == {"auction": 3, "build": 5, "develop": 4}
    undo = next(o for o in chicago["options"] if o["name"] == "undo")
    assert (undo["default"], undo["choices"]) == ("own", ["none", "own", "any"])
    assert chicago["bot_levels"] == ["random", "heuristic", "mcts"]

    schemas = json.loads(await (await client.get("/api/openapi.json")).read())["components"]["schemas"]
    assert {"chicago-express.Pass", "chicago-express.Action", "nim.Take", "nim.Action", "sealed.Play"} <= set(schemas)
    assert "Pass" not in schemas and "Take" not in schemas  # no bare, collidable title struct names
