"""The store's budgets count what a table is, not the route that made it so
(docs/running.md#the-stores-budget): unfinished tables per creating address even once a
move started them, and tables where only bots sit whether they were created so, had every
seat handed to a bot, or had a clock give the last person's seat to one. From 127.0.0.2
and 127.0.0.3 where the address matters."""

from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio as aioredis

from tests.table_life.clocks import use_test_time
from tests.waiting import until

from .conftest import assert_error
from .peers import peer

PILE2 = {"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "seed": 0, "options": {"pile": 2, "max_take": 1}}
HUMAN_AND_BOT = {"title": "nim", "seats": [{"name": "h"}, {"name": "r", "kind": "bot", "level": "random"}], "seed": 0}
BOTS = {"title": "nim", "seats": [{"name": "r1", "kind": "bot", "level": "random"},
                                  {"name": "r2", "kind": "bot", "level": "random"}], "seed": 0}


@pytest.fixture
async def fresh_budgets(redis_client: aioredis.Redis) -> None:
    """Other tests' places are not this test's (the suite shares one Redis)."""
    for name in ("pending", "held", "botonly"):
        found = [k async for k in redis_client.scan_iter(match=f"rh:{{{name}}}*")]
        if found:
            await redis_client.delete(*found)


async def _post(session, url: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with session.post(url, json=body, headers=headers) as resp:
        return resp.status, await resp.json()


async def _take(session, base: str, created: dict[str, Any], seq: int) -> int:
    status, _ = await _post(session, f"{base}/api/tables/{created['table']}/actions",
                            {"expected_seq": seq, "idempotency_key": f"k{seq}", "action": {"type": "take", "count": 1}},
                            created["seats"][seq % 2]["token"])
    return status


async def _hand(session, base: str, created: dict[str, Any], seat: int, kind: str = "bot") -> tuple[int, dict[str, Any]]:
    body = {"kind": kind, "level": "random"} if kind == "bot" else {"kind": kind}
    return await _post(session, f"{base}/api/tables/{created['table']}/seats/{seat}/controller", body,
                       created["seats"][seat]["token"])


async def test_a_started_table_still_counts_against_its_address_until_it_finishes(guarded, fresh_budgets):
    host, port = await guarded(max_tables_per_client=3)
    base = f"http://{host}:{port}"
    async with peer(2) as a, peer(3) as b:
        made = []
        for _ in range(3):
            status, created = await _post(a, f"{base}/api/tables", PILE2)
            assert status == 201, created
            assert await _take(a, base, created, 0) == 201  # started: no longer unstarted, still unfinished
            made.append(created)
        status, body = await _post(a, f"{base}/api/tables", PILE2)
        assert_error(status, body, 429, "too_many_tables")
        assert (await _post(b, f"{base}/api/tables", PILE2))[0] == 201  # another address, its own count
        assert await _take(a, base, made[0], 1) == 201  # the last stone: finished, its place is free
        assert (await _post(a, f"{base}/api/tables", PILE2))[0] == 201
        status, body = await _post(a, f"{base}/api/tables", PILE2)
        assert_error(status, body, 429, "too_many_tables")


async def test_tables_of_bots_count_however_they_came_to_be(guarded, fresh_budgets):
    host, port = await guarded(max_bot_tables_per_client=2)
    base = f"http://{host}:{port}"
    async with peer(2) as a, peer(3) as b:
        status, made_so = await _post(a, f"{base}/api/tables", BOTS)
        assert status == 201, made_so
        # Tables of people, every seat handed to a bot: the second one is the last place.
        people = [(await _post(a, f"{base}/api/tables", PILE2))[1] for _ in range(3)]
        for created in people[:2]:
            assert (await _hand(a, base, created, 0))[0] == 200
        assert (await _hand(a, base, people[0], 1))[0] == 200
        status, body = await _hand(a, base, people[1], 1)
        assert_error(status, body, 429, "too_many_bot_tables")
        status, body = await _post(a, f"{base}/api/tables", BOTS)
        assert_error(status, body, 429, "too_many_bot_tables")
        # The place is the creator's, whoever asks: a seat token passed to another address
        # does not get round it.
        status, body = await _hand(b, base, people[1], 1)
        assert_error(status, body, 429, "too_many_bot_tables")
        # Another address creates its own.
        assert (await _post(b, f"{base}/api/tables", BOTS))[0] == 201
        # A person taking a seat back frees the place.
        assert (await _hand(a, base, people[0], 0, "human"))[0] == 200
        assert (await _hand(a, base, people[1], 1))[0] == 200


async def test_a_clock_that_would_leave_only_bots_abandons_the_table_over_the_budget(new_client, fresh_budgets,
                                                                                     tmp_path, monkeypatch):
    time = use_test_time(tmp_path, monkeypatch)
    client = await new_client(clock_poll=0.02, max_bot_tables_per_client=1)
    clock = {"kind": "realtime", "bank_s": 60, "bot_level": "random"}
    tables = []
    for _ in range(3):  # nim, seed 0: the person (seat 0) is to move, and runs out
        resp = await client.post("/api/tables", json={**HUMAN_AND_BOT, "clock": clock})
        assert resp.status == 201, await resp.json()
        tables.append((await resp.json())["table"])
    time.advance(61_000)

    async def outcomes() -> list[dict[str, Any]] | None:
        found = [await (await client.get(f"/api/tables/{t}")).json() for t in tables]
        done = all(d["seats"][0]["kind"] == "bot" or d["status"] == "finished" for d in found)
        return found if done else None

    found = await until(outcomes, "the clock watch to deal with all three tables")
    bots = [d for d in found if d["seats"][0]["kind"] == "bot"]
    ended = [d for d in found if d["status"] == "finished"]
    assert len(bots) == 1 and len(ended) == 2, found
    assert all("no person left" in d["result"]["reason"] for d in ended), ended
