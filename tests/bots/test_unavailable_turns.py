"""A turn the game service (or the store) is unavailable for is retried for as long as that
lasts, never dropped after `max_attempts` as a turn that fails by itself is: a Redis failover
or a service restart longer than a few claim rounds must not leave a table waiting on a bot."""

from __future__ import annotations

from services.bot.submit import HttpSubmitter, Outcome, Submitted
from services.bot.worker import BotWorker
from shared.store.connect import connect

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
