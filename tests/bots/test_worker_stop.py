"""A worker that stops while Redis is delivering it a turn still handles that turn.

The flaky `test_a_worker_killed_holding_a_turn_is_replaced_and_no_seat_moves_twice` found
the replacement worker holding an unacknowledged turn after it stopped. The race: stop()
cancelled the read loop while its XREADGROUP was answering, so a turn Redis had already
delivered (pending under the worker's name) was dropped on the client side, and nobody
handled it until another worker claimed it."""

from __future__ import annotations

import asyncio

from shared.store import RedisEventStore

from tests.waiting import until

from .conftest import pending


async def test_a_turn_delivered_as_the_worker_stops_is_handled_and_acknowledged(stack, start_worker, group,
                                                                               redis_client) -> None:
    # A long block: the read loop is inside one XREADGROUP when the turn arrives.
    worker = await start_worker(block_ms=2000, claim_every_ms=60_000, sweep_every_ms=60_000)
    store = RedisEventStore(redis_client)

    async def reading() -> bool:
        return any(c.get("cmd") == "xreadgroup" and "b" in c.get("flags", "") for c in await redis_client.client_list())

    await until(reading, "the worker's read to block")
    # The turn is published while stop() runs: Redis delivers it to the read that is blocked
    # at that moment (a table that is gone: the turn is handled at once).
    publishing = asyncio.ensure_future(store.publish_turn("no-such-table", 1, [0]))
    await worker.stop(grace_s=2.0)
    await publishing
    assert await pending(stack.redis_url, group) in ({}, {"w0": 0})
    assert worker.stats.notices == 1
