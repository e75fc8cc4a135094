"""A table abandoned on time ends in every live view: each seat's and each spectator's
socket gets an `ended` frame whose patch puts the standings in the view's `result` (nobody
left to act), a socket that resumes after the end gets it after its welcome, and a fresh
welcome's view holds it. Real `roundhouse game` and `roundhouse projection` processes
(both stream readers), a real Redis, time moved by the test; a title with hidden
information, so every seat's view is its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from shared.engine import Result, ended_view, served_view
from shared.games import get_engine

from services.bench.procs import ServiceProcess
from tests.e2e.stack import SERVICE_ENV, GameClient, LiveSocket, as_json, new_key, replay
from tests.table_life.clocks import TestTime
from tests.waiting import until

HOUR_MS = 3600_000


@pytest.fixture(params=["multi", "per_table"])
def services(request: pytest.FixtureRequest, redis_url: str, tmp_path: Path) -> Iterator[tuple[ServiceProcess, ...]]:
    time = TestTime(tmp_path / "now")
    env = {**SERVICE_ENV, "REDIS_URL": redis_url, "ROUNDHOUSE_CLOCK_POLL": "0.05", "ROUNDHOUSE_WS_READER": request.param,
           **time.env}
    procs = (ServiceProcess("game", env, tmp_path), ServiceProcess("projection", env, tmp_path))
    for proc in procs:
        proc.start()
    request.node.clock_time = time
    yield procs
    for proc in procs:
        proc.stop()


async def test_every_view_of_an_abandoned_table_holds_its_standings(services, redis_url: str, request) -> None:
    game_proc, projection = services
    time: TestTime = request.node.clock_time
    async with aiohttp.ClientSession() as http:
        game = GameClient(http, game_proc.url)
        created = await game.request("POST", "/api/tables", json={
            "title": "sealed", "seed": 3, "seats": [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}],
            "clock": {"kind": "async", "turn_hours": 1, "on_timeout": "abandon"}})
        assert created.status == 201, created
        table, tokens = created.body["table"], [s["token"] for s in created.body["seats"]]
        hand = (await game.legal(table, tokens[0]))["actions"][0]["action"]
        assert (await game.submit(table, tokens[0], 0, hand, new_key())).status == 201  # Ada plays; Bo and Cy owe
        live = [await LiveSocket(http, projection.ws_url, table, t).connect() for t in [*tokens, None]]
        away = await LiveSocket(http, projection.ws_url, table, tokens[1]).connect()  # Bo's phone, off before the end
        for sock in [*live, away]:
            await sock.wait_seq(1)
        await away.close()

        time.advance(HOUR_MS + 1)

        async def ended() -> dict[str, Any] | None:
            detail = (await game.request("GET", f"/api/tables/{table}")).body
            return detail if detail["status"] == "finished" else None

        detail = await until(ended, "the clock watch to abandon the table", timeout=20)
        standings = detail["result"]
        assert standings["reason"].startswith("abandoned: ") and standings["reason"].endswith(" ran out of time")
        ref = await replay(redis_url, table)
        engine = get_engine("sealed")

        def expected(seat: int | None) -> Any:
            return as_json(ended_view(served_view(engine, ref.timeline.state, seat), Result(**standings)))

        for sock, seat in zip(live, [0, 1, 2, None], strict=True):
            assert await sock.wait_result() == standings
            assert sock.view == expected(seat) and sock.view["active_seats"] == []
            assert len(sock.ends) == 1 and sock.ends[0]["seq"] == 1 and sock.errors == []
        assert live[0].view != live[1].view  # each seat's own hand: hidden information stays hidden

        await away.connect()  # resumes from seq 1: the end comes after its welcome
        assert away.welcomes[-1]["resumed"] is True
        assert await away.wait_result() == standings and away.view == expected(1) and len(away.ends) == 1
        fresh = await LiveSocket(http, projection.ws_url, table, tokens[2]).connect()
        assert fresh.welcomes[0]["resumed"] is False and fresh.view == expected(2) and fresh.ends == []
        for sock in [*live, away, fresh]:
            await sock.close()
