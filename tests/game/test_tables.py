"""Creating, listing and reading tables over HTTP."""

from __future__ import annotations

import msgspec

from shared import auth
from shared.store import keys

from services.game.app import GAME_KEY

from .conftest import SECRET


async def test_create_table_grants_tokens_to_human_seats(client, make_table):
    seats = [{"name": "Ada"}, {"name": "Robo", "kind": "bot", "level": "easy"}, {"name": "Cy", "kind": "human"}]
    table = await make_table(client, seats, seed=5, options={"pile": 30})
    created = table.created
    assert created["status"] == "open" and created["seq"] == 0 and created["title"] == "nim"
    assert created["active_seats"] == [5 % 3]
    assert [(s["seat"], s["name"], s["kind"], s["level"]) for s in created["seats"]] == [
        (0, "Ada", "human", None), (1, "Robo", "bot", "easy"), (2, "Cy", "human", None),
    ]
    for seat in (0, 2):
        grant = created["seats"][seat]
        assert auth.verify(SECRET, grant["token"]) == auth.SeatClaim(table.id, seat)
        assert grant["invite_url"].startswith(str(client.make_url("/"))) and grant["token"] in grant["invite_url"]
    assert created["seats"][1]["token"] is None and created["seats"][1]["invite_url"] is None

    detail = await table.detail()
    assert detail["options"] == {"piles": 1, "pile": 30, "max_take": 3, "undo": "own"}  # defaults filled in
    assert detail["status"] == "open" and detail["last_seq"] == 0 and detail["result"] is None
    assert "seed" not in detail and all("token" not in s for s in detail["seats"])


async def test_seed_stays_server_side(client, make_table):
    table = await make_table(client, 2, seed=123456789)
    meta = await client.app[GAME_KEY].service.store.get_meta(table.id)
    assert meta.seed == 123456789
    for path in (f"/api/tables/{table.id}", "/api/tables?limit=200", f"/api/tables/{table.id}/legal"):
        resp = await client.get(path, headers=table.auth(0))
        assert resp.status == 200
        assert b"123456789" not in await resp.read()


async def test_random_seed_when_absent(client):
    resp = await client.post("/api/tables", json={"title": "nim", "seats": [{"name": "a"}, {"name": "b"}]})
    assert resp.status == 201


async def test_create_refusals_change_nothing(client, redis_client):
    before = await redis_client.zcard(keys.TABLES)
    cases = [
        ({"title": "chess", "seats": [{"name": "a"}, {"name": "b"}]}, 422, "unknown_title"),
        ({"title": "nim", "seats": [{"name": "a"}]}, 422, "bad_seats"),
        ({"title": "nim", "seats": [{"name": f"p{i}"} for i in range(5)]}, 422, "bad_seats"),
        ({"title": "nim", "seats": [{"name": "a", "level": "hard"}, {"name": "b"}]}, 422, "bad_seats"),
        ({"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "options": {"colour": 1}}, 422, "bad_options"),
        ({"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "options": {"pile": -4}}, 422, "bad_options"),
        ({"title": "nim", "seats": [{"name": "a", "kind": "alien"}, {"name": "b"}]}, 422, "bad_request"),
        ({"title": "nim", "seats": [{"name": ""}, {"name": "b"}]}, 422, "bad_request"),
        ({"seats": [{"name": "a"}, {"name": "b"}]}, 422, "bad_request"),
        ({"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "seed": -1}, 422, "bad_request"),
        ({"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "surprise": 1}, 422, "bad_request"),
    ]
    for body, status, code in cases:
        resp = await client.post("/api/tables", json=body)
        got = await resp.json()
        assert (resp.status, got["error"]["code"]) == (status, code), (body, got)
        assert got["error"]["message"]
    resp = await client.post("/api/tables", data=b'{"title": "nim", "seats": [', headers={"Content-Type": "application/json"})
    assert (resp.status, (await resp.json())["error"]["code"]) == (400, "bad_json")
    assert await redis_client.zcard(keys.TABLES) == before


async def test_body_over_the_limit_is_413(new_client, redis_client):
    client = await new_client(max_body=200)
    before = await redis_client.zcard(keys.TABLES)
    body = {"title": "nim", "seats": [{"name": "a" * 30} for _ in range(2)], "options": {"pile": 5}, "pad": "x" * 300}
    resp = await client.post("/api/tables", json=body)
    assert (resp.status, (await resp.json())["error"]["code"]) == (413, "body_too_large")

    async def chunks():
        yield b'{"title": "nim", "seats": ['
        yield b'{"name": "a"}, ' * 40
        yield b'{"name": "b"}]}'

    resp = await client.post("/api/tables", data=chunks())  # no Content-Length: chunked
    assert (resp.status, (await resp.json())["error"]["code"]) == (413, "body_too_large")
    assert await redis_client.zcard(keys.TABLES) == before


async def test_unknown_table_is_404(client):
    resp = await client.get("/api/tables/nosuchtable")
    assert (resp.status, (await resp.json())["error"]["code"]) == (404, "unknown_table")


async def test_list_tables_by_status(client, make_table):
    finished = await make_table(client, 2, options={"pile": 1}, seed=0)
    running = await make_table(client, 2, seed=0)
    fresh = await make_table(client, 2, seed=0)
    assert (await finished.act(0, {"type": "take", "count": 1}, 0))[0] == 201
    assert (await running.act(0, {"type": "take", "count": 2}, 0))[0] == 201

    async def ids(query: str) -> list[str]:
        resp = await client.get(f"/api/tables?limit=200&{query}")
        assert resp.status == 200
        return [t["table"] for t in (await resp.json())["tables"]]

    assert {finished.id, running.id, fresh.id} <= set(await ids(""))
    assert finished.id in await ids("status=finished") and running.id not in await ids("status=finished")
    assert running.id in await ids("status=running") and fresh.id not in await ids("status=running")
    assert fresh.id in await ids("status=open") and finished.id not in await ids("status=open")
    listed = {t["table"]: t for t in msgspec.json.decode(await (await client.get("/api/tables?limit=200")).read())["tables"]}
    assert listed[running.id]["last_seq"] == 1 and listed[running.id]["status"] == "running"
    for bad in ("status=paused", "limit=0", "limit=abc", "offset=-1"):
        resp = await client.get(f"/api/tables?{bad}")
        assert (resp.status, (await resp.json())["error"]["code"]) == (400, "bad_query")


async def test_paging_walks_every_table_once(client, make_table):
    made = {(await make_table(client, 2)).id for _ in range(5)}
    seen: list[str] = []
    offset = 0
    while offset is not None:
        body = await (await client.get(f"/api/tables?limit=2&offset={offset}")).json()
        seen += [t["table"] for t in body["tables"]]
        offset = body["next_offset"]
    assert made <= set(seen) and len(seen) == len(set(seen))
