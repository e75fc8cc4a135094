"""A flood of creations against a small Redis (its own redis-server, a few MB of maxmemory),
from several loopback addresses, each table started with one move so the unstarted budget
does not stop it: the store refuses the flood (`store_full`, never a 503 that invites a
retry) before it is full, a player at an existing table keeps moving throughout, and every
table is either listed and whole or not there at all - whether the reserve refused the
flood or Redis itself did."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis
from aiohttp import web

from shared.config import Config, RateLimit
from shared.redis_server import RedisServer
from shared.store import keys

from services.http.guard import make_runner
from tests.redis_replies import raw

from .conftest import SECRET, build
from .peers import peer

BIG_PILE = {"title": "nim", "seats": [{"name": "a"}, {"name": "b"}], "seed": 0,
            "options": {"pile": 100_000, "max_take": 1}}
ATTACKERS = (2, 3, 4, 5)
PACE = 4  # flood answers per move of the player
# Answers a refused creation may get: none of them says "retry at once".
REFUSALS = {(429, "too_many_tables"), (429, "too_many_open_tables"), (507, "store_full")}
META_FIELDS = (b"table", b"title", b"options", b"seats", b"seed", b"status", b"created_ms", b"last_seq", b"clock")


@pytest.fixture
async def small_store(tmp_path) -> AsyncIterator[tuple[RedisServer, aioredis.Redis]]:
    own = RedisServer(tmp_path / "redis", fsync="no").start()
    admin = aioredis.from_url(own.url)
    yield own, admin
    await admin.aclose()
    own.stop()


async def _serve(cfg: Config) -> tuple[web.AppRunner, str]:
    runner = make_runner(build(cfg))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


async def _post(session, url: str, body: dict[str, Any], token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with session.post(url, json=body, headers=headers) as resp:
        return resp.status, await resp.json()


async def _move(session, base: str, created: dict[str, Any], seq: int) -> tuple[int, dict[str, Any]]:
    return await _post(session, f"{base}/api/tables/{created['table']}/actions",
                       {"expected_seq": seq, "idempotency_key": f"k{seq}", "action": {"type": "take", "count": 1}},
                       created["seats"][seq % 2]["token"])


async def _flood(base: str, n: int, answers: Counter[tuple[int, str]], stop: asyncio.Event,
                 tick: asyncio.Event) -> None:
    """Create and start tables from 127.0.0.<n> until the store refuses everything for a while."""
    refused_in_a_row = 0
    async with peer(n) as session:
        while refused_in_a_row < 5 and not stop.is_set():  # refusals are held back 1 s each
            status, body = await _post(session, f"{base}/api/tables", BIG_PILE)
            if status == 201:
                refused_in_a_row = 0
                moved, reply = await _move(session, base, body, 0)
                answers[(moved, "move" if moved == 201 else reply["error"]["code"])] += 1
            else:
                refused_in_a_row += 1
            answers[(status, body["error"]["code"] if status != 201 else "created")] += 1
            tick.set()


async def _whole(admin: aioredis.Redis) -> None:
    """Every meta is listed and has every field; every listed table has a meta."""
    metas = {raw(k).decode().split("{", 1)[1].split("}", 1)[0] async for k in admin.scan_iter(match="rh:{*}:meta")}
    listed = {raw(t).decode() for t in await admin.zrange(keys.TABLES, 0, -1)}
    assert metas == listed, (len(metas - listed), len(listed - metas))
    for table in metas:
        values = await admin.hmget(keys.meta_key(table), META_FIELDS)
        assert all(v is not None for v in values), (table, values)


async def _run(admin: aioredis.Redis, url: str, reserve: float,
               headroom: int) -> tuple[Counter[tuple[int, str]], list[tuple[int, bool]]]:
    cfg = Config(redis_url=url, secret=SECRET, store_reserve=reserve, limit_create=RateLimit(0, 0),
                 limit_create_all=RateLimit(0, 0), limit_actions=RateLimit(0, 0), limit_reads=RateLimit(0, 0),
                 max_open_tables_per_client=5, max_tables_per_client=0, max_tables=0)
    runner, base = await _serve(cfg)
    try:
        async with peer(9) as player:
            status, table = await _post(player, f"{base}/api/tables", BIG_PILE)
            assert status == 201, table
            used = int((await admin.info("memory"))["used_memory"])
            await admin.config_set("maxmemory", str(used + headroom))
            answers: Counter[tuple[int, str]] = Counter()
            stop, tick = asyncio.Event(), asyncio.Event()
            floods = [asyncio.ensure_future(_flood(base, n, answers, stop, tick)) for n in ATTACKERS for _ in range(3)]
            for flood in floods:
                flood.add_done_callback(lambda _f: tick.set())  # the last one ending wakes the player
            moves: list[tuple[int, bool]] = []  # (status, whether the store had refused a table by then)
            seq = 0
            # The player moves for as long as the flood lasts, once per PACE of its answers: its
            # own moves use the reserve too, and a faster machine must not make it use more.
            while not all(f.done() for f in floods):
                await tick.wait()
                tick.clear()
                if sum(answers.values()) < PACE * len(moves):
                    continue
                status, body = await _move(player, base, table, seq)
                moves.append((status, answers[(507, "store_full")] > 0))
                if status == 201:
                    seq += 1
            stop.set()
            await asyncio.gather(*floods)
            return answers, moves
    finally:
        await runner.cleanup()


async def test_the_reserve_refuses_a_flood_before_the_store_fills_and_moves_go_on(small_store):
    own, admin = small_store
    # A quarter of 2 MB: a tenth (200 KB) is less than Redis's own client buffers swing by
    # when a loaded machine opens more pool connections mid-flood.
    answers, moves = await _run(admin, own.url, 0.25, 2 * 1024 * 1024)
    created = answers[(201, "created")]
    refused = {k: v for k, v in answers.items() if k[0] != 201}
    assert created > 100 and refused, answers
    assert set(refused) <= REFUSALS, answers  # never `unavailable`
    assert answers.get((507, "store_full"), 0) > 0, answers
    assert {status for status, _ in moves} == {201}, Counter(moves)  # every one of the player's moves went through
    assert sum(1 for _, refused in moves if refused) >= 5, Counter(moves)  # ... after the store was full too
    await _whole(admin)


async def test_when_redis_itself_is_full_a_creation_is_whole_or_not_there(small_store):
    own, admin = small_store
    answers, _moves = await _run(admin, own.url, 0.0, 1024 * 1024)  # no reserve: Redis refuses the writes
    refused = {k for k in answers if k[0] != 201 and k[1] != "move"}
    assert (507, "store_full") in refused, answers
    assert refused <= REFUSALS, answers
    await _whole(admin)
