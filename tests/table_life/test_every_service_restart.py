"""Clocks and turn notices across the death of every service at once: `roundhouse game`
(which also runs the clock watch that carries out timeouts, and the notifier),
`roundhouse projection` and `roundhouse bot`, as real processes on a real Redis, with time
moved by the test (ROUNDHOUSE_TEST_TIME_FILE) instead of waited for.

1. kill -9 of all three while a notice waits for its retry and seats watch: after the
   restart the notice is delivered once, the clock says exactly what the log says, and
   every socket resumes to the engine's view.
2. Every service stopped; the async deadline passes while none runs; all start again
   (the bot worker first, the game service last): the bot takes the seat once, plays its
   turn once, and the next seat's notice goes out once.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from shared.engine import served_view
from shared.store import RedisEventStore, keys
from shared.store.connect import connect

from services.bench.procs import ServiceProcess
from tests.bots.conftest import WorkerProcess
from tests.e2e.stack import SECRET, SERVICE_ENV, GameClient, LiveSocket, as_json, new_key, replay
from tests.redis_replies import stream_entries
from tests.table_life.clocks import TestTime
from tests.table_life.receivers import WebhookReceiver
from tests.waiting import until

HOUR_MS = 3600_000


class Services:
    """The three services on one Redis and one test clock; restarts keep ports and names."""

    def __init__(self, redis_url: str, tmp_path: Path, time: TestTime) -> None:
        self.tmp_path = tmp_path
        self.env = {**SERVICE_ENV, "REDIS_URL": redis_url, **time.env, "ROUNDHOUSE_CLOCK_POLL": "0.05",
                    "ROUNDHOUSE_NOTIFY_POLL": "0.05", "ROUNDHOUSE_NOTIFY_PRIVATE_HOSTS": "1",
                    "ROUNDHOUSE_NOTIFY_RETRY_BASE": "1", "ROUNDHOUSE_NOTIFY_LEASE": "5"}
        self.redis_url = redis_url
        self.game = ServiceProcess("game", self.env, tmp_path)
        self.projection = ServiceProcess("projection", self.env, tmp_path)
        self.group = f"bots-restart-{uuid.uuid4().hex[:8]}"
        self.bots: WorkerProcess | None = None
        self.starts = 0

    async def start_bots(self) -> None:
        self.starts += 1
        self.bots = WorkerProcess(self.redis_url, self.game.url, self.group, "w0",
                                  {**self.env, "ROUNDHOUSE_SECRET": SECRET},
                                  stderr_path=self.tmp_path / f"bot-{self.starts}.log")
        await self.bots.ready()

    def kill_all(self) -> None:
        """kill -9 of each, no shutdown hook anywhere."""
        assert self.bots is not None
        self.bots.kill9()
        self.projection.kill()
        self.game.kill()

    def stop_all(self) -> None:
        assert self.bots is not None
        self.bots.stop()
        self.projection.stop()
        self.game.stop()

    def close(self) -> None:
        if self.bots is not None:
            self.bots.close()
        self.projection.stop()
        self.game.stop()


@pytest.fixture
async def stack(redis_url: str, tmp_path: Path) -> AsyncIterator[tuple[Services, TestTime]]:
    time = TestTime(tmp_path / "now")
    services = Services(redis_url, tmp_path, time)
    try:
        yield services, time
    finally:
        services.close()


async def stored(redis_url: str, table: str) -> tuple[list[tuple[str, str, int]], list[tuple[int, int]]]:
    """The table's clock events (kind, outcome, seat) and its log entries (seq, seat)."""
    client = connect(redis_url)
    try:
        events = [(f[b"kind"].decode(), f[b"outcome"].decode(), int(f[b"seat"]))
                  for _i, f in await stream_entries(client, keys.clock_key(table))]
        return events, [(e.seq, e.seat) for e in await RedisEventStore(client).read(table, 0)]
    finally:
        await client.aclose()


async def test_every_service_dies_and_the_clock_and_notices_carry_on(stack, redis_url: str) -> None:
    services, time = stack
    hook = await WebhookReceiver(fail_first=1).start()
    services.game.start()
    services.projection.start()
    await services.start_bots()
    try:
        async with aiohttp.ClientSession() as http:
            game = GameClient(http, services.game.url)
            created = await game.request("POST", "/api/tables", json={
                "title": "nim", "seed": 0, "seats": [{"name": "Ada"}, {"name": "Bo"}],
                "clock": {"kind": "async", "turn_hours": 1, "on_timeout": "bot", "bot_level": "random"}})
            assert created.status == 201, created
            table, tokens = created.body["table"], [s["token"] for s in created.body["seats"]]
            for seat in (0, 1):
                put = await game.request("PUT", f"/api/tables/{table}/seats/{seat}/notify", token=tokens[seat],
                                         json={"delay_s": 0, "webhook": {"url": hook.url}})
                assert put.status == 200, put
            sockets = [await LiveSocket(http, services.projection.ws_url, table, t).connect() for t in [*tokens, None]]
            # Ada's notice: its first POST answered 500, the retry due a second later (test time).
            await until(lambda: hook.posts, "Ada's first delivery")

            # --- 1. kill -9 of every service mid-activity ---------------------------------------
            services.kill_all()
            time.advance(20 * 60_000)  # 20 minutes of Ada's hour pass while nothing runs
            services.game.start()
            services.projection.start()
            await services.start_bots()
            await until(lambda: hook.delivered(), "Ada's notice retried after the restart", timeout=20)
            assert [p.headers["X-Roundhouse-Delivery"] for p in hook.posts] == [f"{table}:0:0"] * 2
            clock = (await game.request("GET", f"/api/tables/{table}/clock")).body
            assert [(s["remaining_ms"], s["running"]) for s in clock["seats"]] == [(40 * 60_000, True), (None, False)]  # async: only a turn has time
            for sock in sockets:
                await sock.reconnect()  # at seq 0 still: a fresh welcome
            assert (await game.submit(table, tokens[0], 0, {"type": "take", "count": 1}, new_key())).status == 201
            await until(lambda: len(hook.delivered()) == 2, "Bo's notice")
            for sock in sockets:
                await sock.wait_seq(1)

            # --- 2. every service stopped; Bo's hour passes; all start again ----------------------
            services.stop_all()
            for sock in sockets:
                await sock.wait_closed()
            time.advance(HOUR_MS + 1)
            await services.start_bots()  # the bot worker first: it waits for the game service
            services.projection.start()
            services.game.start()
            for sock in sockets:
                await sock.reconnect()
                assert sock.welcomes[-1]["resumed"] is True  # from seq 1, on the restarted projection
            # The clock watch hands Bo's seat to a bot, which plays its turn (a random bot may
            # shout first: out of turn, that keeps Bo to act); then Ada's turn begins again.
            await until(lambda: len(hook.delivered()) == 3, "Ada's notice after the bot's turn", timeout=30)
            events, entries = await stored(redis_url, table)
            last = entries[-1][0]
            assert events == [("timeout", "bot", 1)]  # once
            assert entries[0] == (1, 0) and all(seat == 1 for _seq, seat in entries[1:])
            ref = await replay(redis_url, table)
            assert ref.keys[1:] == [f"bot-{seq - 1}-1" for seq in range(2, last + 1)]  # one move per seq
            assert sorted(ref.timeline.engine.active_seats(ref.timeline.state)) == [0]
            assert [p.headers["X-Roundhouse-Delivery"] for p in hook.delivered()] == [
                f"{table}:0:0", f"{table}:1:1", f"{table}:0:{last}"]
            clock = (await game.request("GET", f"/api/tables/{table}/clock")).body
            assert [(s["kind"], s["timed_out"]) for s in clock["seats"]] == [("human", False), ("bot", True)]
            assert clock["seats"][0]["running"] and clock["seats"][0]["remaining_ms"] == HOUR_MS
            for sock, viewer in zip(sockets, [0, 1, None], strict=True):
                await sock.wait_seq(last)
                assert sock.seqs == list(range(1, last + 1)) and sock.errors == []
                assert sock.view == as_json(served_view(ref.timeline.engine, ref.timeline.state, viewer))
            # Ada moves at the seq she saw: nothing was played behind her back.
            reply = await game.submit(table, tokens[0], last, {"type": "take", "count": 1}, new_key())
            assert reply.status == 201, reply
            for sock in sockets:
                await sock.close()
    finally:
        await hook.stop()
