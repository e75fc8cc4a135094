"""A turn the game service (or the store) is unavailable for is retried for as long as that
lasts, never dropped after `max_attempts` as a turn that fails by itself is: a Redis failover
or a service restart longer than a few claim rounds must not leave a table waiting on a bot."""

from __future__ import annotations

from typing import Any

import pytest
from redis.exceptions import SlotNotCoveredError

from shared.store.connect import connect

from services.bot.submit import HttpSubmitter, Outcome, Submitted
from services.bot.worker import BotWorker
from tests.waiting import until

from .conftest import SECRET, assert_each_turn_played_once, replay, settings_for

BOTS = [{"name": "r1", "kind": "bot", "level": "random"}, {"name": "r2", "kind": "bot", "level": "random"}]


class UnavailableAtFirst(HttpSubmitter):
    """Answers "unavailable" (a 503) to the first `refusals` submits, then submits for real."""

    def __init__(self, url: str, refusals: int) -> None:
        super().__init__(url, SECRET)
        self.refusals = refusals

    async def submit(self, table: str, seat: int, expected_seq: int, key: str, action: bytes) -> Submitted:
        if self.refusals > 0:
            self.refusals -= 1
            return Submitted(Outcome.RETRY, code="unavailable", message="the event store (Redis) cannot be reached")
        return await super().submit(table, seat, expected_seq, key, action)


async def test_a_turn_unavailable_for_longer_than_max_attempts_is_still_played(stack, group) -> None:
    settings = settings_for(group, "patient", claim_idle_ms=100, claim_every_ms=50, max_attempts=2)
    refusals = 3 * settings.max_attempts
    submitter = UnavailableAtFirst(stack.url, refusals)
    redis = connect(stack.redis_url, socket_timeout=30)
    worker = BotWorker(redis, submitter, settings)
    await worker.start()
    try:
        table = (await stack.create(BOTS, seed=4))["table"]
        await stack.wait_finished(table, timeout=60)
    finally:
        await worker.stop(grace_s=2.0)
        await redis.aclose()
    assert submitter.refusals == 0 and worker.stats.dropped == 0
    assert worker.stats.retries >= refusals
    _result, entries = await replay(stack.redis_url, table)
    assert_each_turn_played_once(entries)


@pytest.mark.parametrize("error", [SlotNotCoveredError('Slot "42" is not covered by the cluster.'),
                                   AttributeError("'NoneType' object has no attribute 'writelines'")],
                         ids=["slot-not-covered", "client-bug"])
async def test_the_worker_loops_survive_what_a_failover_raises(stack, group, error: Exception) -> None:
    """Mid-failover redis-py's cluster client raises SlotNotCoveredError (no RedisError), or
    worse: the claim loop must log it and go on, or no stale turn would be taken over again."""
    settings = settings_for(group, "survivor", claim_every_ms=50)
    redis = connect(stack.redis_url, socket_timeout=30)
    worker = BotWorker(redis, HttpSubmitter(stack.url, SECRET), settings)
    await worker.start()
    calls = 0
    real = worker.store.claim_stale_turns

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls <= 2:
            raise error
        return await real(*args, **kwargs)

    worker.store.claim_stale_turns = flaky  # type: ignore[method-assign]
    try:
        await until(lambda: calls >= 4, "the claim loop to go on after the errors", timeout=20)
        assert all(not task.done() for task in worker._loops)
    finally:
        await worker.stop(grace_s=2.0)
        await redis.aclose()
