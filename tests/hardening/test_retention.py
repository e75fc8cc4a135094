"""The retention policy (docs/running.md#retention), carried out by the game service's sweeper
on a real Redis, with time moved by the test: a finished table is compacted to its result
and final position, one nobody plays is ended as abandoned and compacted, and both are
still read (detail, listing, a spectator's welcome) from what is kept."""

from __future__ import annotations

from typing import Any

import pytest

from shared.store import keys

from services.game.app import GAME_KEY
from tests.table_life.clocks import TestTime, use_test_time
from tests.waiting import until

DAY = 24 * 3600.0
PILE3 = {"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "seed": 0, "options": {"pile": 3, "max_take": 1}}


@pytest.fixture
def clock_time(tmp_path, monkeypatch) -> TestTime:
    return use_test_time(tmp_path, monkeypatch)


async def _make(client, moves: int) -> dict[str, Any]:
    resp = await client.post("/api/tables", json=PILE3)
    created = await resp.json()
    assert resp.status == 201, created
    for seq in range(moves):
        resp = await client.post(f"/api/tables/{created['table']}/actions",
                                 headers={"Authorization": f"Bearer {created['seats'][seq % 2]['token']}"},
                                 json={"expected_seq": seq, "idempotency_key": f"m{seq}",
                                       "action": {"type": "take", "count": 1}})
        assert resp.status == 201, await resp.json()
    return created


async def _detail(client, table: str) -> dict[str, Any]:
    resp = await client.get(f"/api/tables/{table}")
    body = await resp.json()
    assert resp.status == 200, body
    return body


async def test_finished_tables_are_compacted_and_idle_ones_abandoned(new_client, redis_client, clock_time):
    cfg = {"retention_poll": 0.02, "table_compact_after": 7 * DAY, "table_abandon_after": 14 * DAY}
    client = await new_client(**cfg)
    finished = (await _make(client, 3))["table"]
    idle = await _make(client, 1)
    assert (await _detail(client, finished))["status"] == "finished"
    before = await _detail(client, finished)

    clock_time.advance(int(7 * DAY * 1000) + 1000)

    async def gone(table: str) -> bool:
        return await redis_client.exists(keys.log_key(table)) == 0

    await until(lambda: gone(finished), "the finished table's log to be compacted")
    assert await redis_client.exists(keys.log_key(idle["table"])) == 1  # a week idle is not abandoned
    meta_ttl = await redis_client.pttl(keys.meta_key(finished))
    assert 179 * DAY * 1000 < meta_ttl <= 180 * DAY * 1000  # kept table_finished_ttl from compaction
    assert 179 * DAY * 1000 < await redis_client.pttl(keys.snap_key(finished)) <= 180 * DAY * 1000

    # A process that never held it reads it from what is kept: the same result and seq.
    cold = await new_client(**cfg)
    after = await _detail(cold, finished)
    assert (after["status"], after["last_seq"], after["result"]) == ("finished", 3, before["result"])

    clock_time.advance(int(7 * DAY * 1000))
    await until(lambda: gone(idle["table"]), "the idle table to be abandoned and compacted")
    ended = await _detail(cold, idle["table"])
    assert ended["status"] == "finished" and ended["last_seq"] == 1
    assert ended["result"]["reason"] == "abandoned: no move for 14 days"
    resp = await cold.post(f"/api/tables/{idle['table']}/actions",
                           headers={"Authorization": f"Bearer {idle['seats'][1]['token']}"},
                           json={"expected_seq": 1, "idempotency_key": "late", "action": {"type": "take", "count": 1}})
    assert resp.status == 409 and (await resp.json())["error"]["code"] == "table_ended"
    listed = await (await cold.get("/api/tables?status=finished&limit=200")).json()
    assert {finished, idle["table"]} <= {t["table"] for t in listed["tables"]}

    # A spectator is welcomed with the final position; its history is gone, and says so.
    async with cold.ws_connect("/ws") as ws:
        await ws.send_json({"type": "hello", "v": 1, "table": idle["table"]})
        welcome = await ws.receive_json(timeout=5)
        assert welcome["type"] == "welcome" and welcome["seq"] == 1, welcome
        await ws.send_json({"type": "view_at", "id": 1, "seq": 0})
        frame = await ws.receive_json(timeout=5)
        assert frame["type"] == "error" and frame["code"] == "history_gone", frame
    # Clearing the snapshot cache keeps a compacted table's only copy of its position.
    await client.app[GAME_KEY].service.store.delete_snapshots()
    assert await redis_client.exists(keys.snap_key(finished)) == 1
