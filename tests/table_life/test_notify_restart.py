"""The turn-notice outbox across kill -9 of the game service (real `roundhouse game`
processes): a notice whose first delivery failed is retried by the restarted service from
its record, and a move whose service died right after appending it still gets the next
seat's notice; each delivered exactly once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from shared.failpoints import EXIT_CODE

from services.bench.procs import ServiceProcess
from tests.e2e.stack import SERVICE_ENV, GameClient, new_key
from tests.table_life.receivers import WebhookReceiver
from tests.waiting import until


@pytest.fixture
def game_proc(redis_url: str, tmp_path: Path) -> Iterator[ServiceProcess]:
    env = {**SERVICE_ENV, "REDIS_URL": redis_url, "ROUNDHOUSE_NOTIFY_PRIVATE_HOSTS": "1", "ROUNDHOUSE_NOTIFY_POLL": "0.05",
           "ROUNDHOUSE_NOTIFY_RETRY_BASE": "1", "ROUNDHOUSE_NOTIFY_LEASE": "1"}
    proc = ServiceProcess("game", env, tmp_path)
    yield proc
    proc.stop()


@pytest.fixture
async def http() -> Any:
    async with aiohttp.ClientSession() as session:
        yield session


def ids(hook: WebhookReceiver) -> list[str]:
    return [p.headers["X-Roundhouse-Delivery"] for p in hook.delivered()]


async def test_outbox_survives_kill_9(game_proc: ServiceProcess, http: aiohttp.ClientSession) -> None:
    hook = await WebhookReceiver(fail_first=1).start()
    try:
        game_proc.start()
        game = GameClient(http, game_proc.url)
        reply = await game.request("POST", "/api/tables", json={"title": "nim", "seed": 0,
                                                                 "seats": [{"name": "Ada"}, {"name": "Bo"}]})
        table, tokens = reply.body["table"], [s["token"] for s in reply.body["seats"]]
        for seat in (0, 1):
            put = await game.request("PUT", f"/api/tables/{table}/seats/{seat}/notify", token=tokens[seat],
                                     json={"delay_s": 0, "webhook": {"url": hook.url}})
            assert put.status == 200, put
        await until(lambda: hook.posts, "Ada's first delivery (answered 500)")
        game_proc.kill()  # its retry is due in a second: only the outbox record knows of it
        game_proc.start()
        await until(lambda: hook.delivered(), "Ada's notice retried by the restarted service", timeout=20)
        assert ids(hook) == [f"{table}:0:0"] and [p.answered for p in hook.posts] == [500, 200]

        # The service dies right after appending Ada's move, before it tells the notifier.
        game_proc.stop()
        game_proc.start(ROUNDHOUSE_FAILPOINT="crash_after_append")
        try:
            await game.submit(table, tokens[0], 0, {"type": "take", "count": 1}, new_key())
        except aiohttp.ClientError:
            pass  # the connection died with the service
        assert game_proc.wait_exit() == EXIT_CODE
        game_proc.start(ROUNDHOUSE_FAILPOINT=None)
        await until(lambda: len(hook.delivered()) == 2, "Bo's notice after the crash", timeout=20)
        assert ids(hook) == [f"{table}:0:0", f"{table}:1:1"]
        outbox = (await game.request("GET", f"/api/tables/{table}/seats/1/notify", token=tokens[1])).body
        assert outbox["settings"]["webhook"]["url"] == hook.url
    finally:
        await hook.stop()
