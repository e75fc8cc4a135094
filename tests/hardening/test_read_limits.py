"""Reads have a budget too: listings cost by their rows against a per-address read rate,
and spectator sockets (no seat token) are capped per address (from 127.0.0.2, 127.0.0.3)."""

from __future__ import annotations

import asyncio

from shared.config import RateLimit

from services.http.limits import TARPIT_S
from tests.waiting import until

from .conftest import assert_error
from .peers import peer


async def test_listings_cost_their_rows_against_a_per_address_read_budget(guarded):
    host, port = await guarded(limit_reads=RateLimit(0.5, 150))
    base = f"http://{host}:{port}"
    async with peer(2) as a, peer(3) as b:
        # limit=200 costs 101 of the 150: one goes through, the second is refused.
        async with a.get(f"{base}/api/tables?limit=200") as resp:
            assert resp.status == 200
        async with a.get(f"{base}/api/tables?limit=200") as resp:
            assert_error(resp.status, await resp.json(), 429, "rate_limited")
            assert int(resp.headers["Retry-After"]) >= 1
        # Small reads still fit what is left.
        for _ in range(8):  # 6 each
            async with a.get(f"{base}/api/tables?limit=10") as resp:
                assert resp.status == 200
        # Another address has its own budget.
        async with b.get(f"{base}/api/tables?limit=200") as resp:
            assert resp.status == 200


async def test_spectator_sockets_are_capped_per_address(guarded):
    host, port = await guarded(max_watchers_per_client=2)
    base = f"http://{host}:{port}"
    async with peer(2) as a, peer(3) as b:
        async with a.post(f"{base}/api/tables", json={"title": "nim", "seats": [{"name": "x"}, {"name": "y"}]}) as resp:
            created = await resp.json()
        table, token = created["table"], created["seats"][0]["token"]
        hello = {"type": "hello", "v": 1, "table": table}
        watching = []
        for _ in range(2):
            ws = await a.ws_connect(f"{base}/ws")
            await ws.send_json(hello)
            assert (await ws.receive_json(timeout=5))["type"] == "welcome"
            watching.append(ws)
        refused = await a.ws_connect(f"{base}/ws")
        await refused.send_json(hello)
        frame = await refused.receive_json(timeout=5)
        assert frame["type"] == "error" and frame["code"] == "too_many_watchers" and frame["fatal"], frame
        await refused.receive(timeout=5)
        assert refused.close_code == 1013
        # A seat's own socket is not a spectator; another address has its own count.
        for session, body in ((a, {**hello, "token": token}), (b, hello)):
            async with session.ws_connect(f"{base}/ws") as ws:
                await ws.send_json(body)
                assert (await ws.receive_json(timeout=5))["type"] == "welcome"
        # A closed spectator frees its place (once the server has seen it go).
        await watching.pop().close()

        async def welcomed() -> bool:
            async with a.ws_connect(f"{base}/ws") as ws:
                await ws.send_json(hello)
                return (await ws.receive_json(timeout=5))["type"] == "welcome"

        await until(welcomed, "a spectator's place to be free again", interval=0.05)
        for ws in watching:
            await ws.close()


async def test_opening_sockets_draws_on_the_same_read_budget_and_is_refused_with_a_429(guarded):
    # A socket costs 5 (SOCKET_COST): 4 fit a burst of 20, whatever else they are; a listing
    # from that address is refused too, while another address opens its own.
    host, port = await guarded(limit_reads=RateLimit(0.05, 20))
    base = f"http://{host}:{port}"
    async with peer(2) as a, peer(3) as b:
        opened = [await a.ws_connect(f"{base}/ws") for _ in range(4)]
        try:
            async with a.get(f"{base}/ws", headers={"Upgrade": "websocket", "Connection": "Upgrade",
                                                     "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                                                     "Sec-WebSocket-Version": "13"}) as resp:
                assert_error(resp.status, await resp.json(), 429, "rate_limited")
                assert int(resp.headers["Retry-After"]) >= 1
            async with a.get(f"{base}/api/tables?limit=1") as resp:
                assert_error(resp.status, await resp.json(), 429, "rate_limited")
            async with b.ws_connect(f"{base}/ws") as ws:
                assert not ws.closed
        finally:
            for ws in opened:
                await ws.close()


async def test_a_socket_refused_over_the_read_budget_is_held_a_whole_tarpit(guarded):
    # At 100/s a socket's 5 tokens are back in 50 ms; held only that long, one connection of
    # a flood that ignores Retry-After was refused 20 times a second, each a whole request.
    host, port = await guarded(limit_reads=RateLimit(100, 5))
    base = f"http://{host}:{port}"
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
               "Sec-WebSocket-Version": "13"}
    async with peer(2) as a:
        async with a.ws_connect(f"{base}/ws"):
            loop = asyncio.get_running_loop()
            began = loop.time()
            async with a.get(f"{base}/ws", headers=upgrade) as resp:
                assert_error(resp.status, await resp.json(), 429, "rate_limited")
            assert loop.time() - began >= 0.9 * TARPIT_S
