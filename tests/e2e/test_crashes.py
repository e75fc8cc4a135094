"""kill -9 of each part of the stack, then a restart: nothing acknowledged is lost, nothing is
applied twice, and clients carry on from where they were."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest

from shared.engine import served_view
from shared.failpoints import EXIT_CODE
from shared.games import get_engine
from shared.redis_server import RedisServer

from .stack import TITLE, GameClient, LiveSocket, Match, Reply, Stack, as_json, new_key, replay, stream_ids


@pytest.fixture
def make_stack(tmp_path: Path):
    started: list[Stack] = []

    def make(redis_url: str) -> Stack:
        stack = Stack(redis_url, tmp_path)
        started.append(stack)
        return stack

    yield make
    for stack in started:
        stack.stop()


async def check_final(redis_url: str, sockets: list[LiveSocket], seq: int) -> None:
    """Each socket saw 1..seq exactly once, in order, and holds the replay's view."""
    ref = await replay(redis_url, sockets[0].table)
    assert ref.seqs == list(range(1, seq + 1))
    engine = get_engine(TITLE)
    for sock in sockets:
        await sock.wait_seq(seq)
        assert sock.seqs == list(range(1, seq + 1)), sock.seqs
        seat = sock.welcomes[0]["seat"]
        assert sock.view == as_json(served_view(engine, ref.timeline.state, seat))


async def test_projection_killed_mid_game_clients_resume(redis_url, make_stack, http):
    stack = make_stack(redis_url).start()
    match = await Match.create(GameClient(http, stack.game.url), 2, seed=3)
    sockets = await match.open_sockets(http, stack.projection.ws_url)
    await match.play(turns=30)
    # One more action, and the projection dies while its update may still be on the way.
    await match.play(turns=1, watch=False)
    stack.projection.kill()
    for sock in sockets:
        await sock.wait_closed()
    held = [sock.seq for sock in sockets]
    # The game goes on while the projection is down.
    await match.play(turns=15, watch=False)

    stack.projection.start()
    for sock in sockets:
        await sock.reconnect()
    for sock, last in zip(sockets, held):
        assert sock.welcomes[-1]["resumed"] is True and sock.welcomes[-1]["seq"] == last
    seq = await match.play()
    assert match.status == "finished"
    await check_final(redis_url, sockets, seq)


async def test_game_killed_between_append_and_reply_retry_gets_original(redis_url, make_stack, http):
    stack = make_stack(redis_url)
    stack.game.start()
    game = GameClient(http, stack.game.url)
    match = await Match.create(game, 3, seed=21)
    seq = await match.play(turns=6)
    stack.game.stop()

    stack.game.start(ROUNDHOUSE_FAILPOINT="crash_after_append")
    seat, key = match.active[0], new_key("crash")
    action = await match.legal_action(seat)
    with pytest.raises(aiohttp.ClientError):
        await game.submit(match.table, match.tokens[seat], seq, action, key)
    assert stack.game.wait_exit() == EXIT_CODE
    # Appended (acknowledged by Redis) though the client never heard back.
    assert await stream_ids(redis_url, match.table) == list(range(1, seq + 2))

    stack.game.start(ROUNDHOUSE_FAILPOINT=None)
    retry = await game.submit(match.table, match.tokens[seat], seq, action, key)
    assert retry.status == 201, retry
    assert retry.headers["Idempotent-Replayed"] == "true"
    ref = await replay(redis_url, match.table)
    engine = get_engine(TITLE)
    assert retry.body == {
        "table": match.table, "seq": seq + 1, "seat": seat, "status": "running",
        "active_seats": sorted(engine.active_seats(ref.timeline.state)), "result": None,
    }
    assert ref.seqs == list(range(1, seq + 2)) and ref.keys.count(key) == 1
    # The table plays on from there.
    match.accepted(retry)
    seq = await match.play(turns=2)
    assert await stream_ids(redis_url, match.table) == list(range(1, seq + 1))


async def submit_until_up(match: Match, seat: int, action: dict, key: str) -> Reply:
    """Retry one submit with the same key while the store is unavailable (503), as a client should."""
    for _ in range(200):
        try:
            reply = await match.game.submit(match.table, match.tokens[seat], match.seq, action, key)
        except aiohttp.ClientError:
            reply = None
        if reply is not None and reply.status != 503:
            return reply
        await asyncio.sleep(0.05)
    raise AssertionError("the game service never recovered")


async def test_redis_killed_after_ack_restarts_from_aof(tmp_path, make_stack, http):
    redis = RedisServer(tmp_path / "redis").start()
    try:
        stack = make_stack(redis.url).start()
        match = await Match.create(GameClient(http, stack.game.url), 2, seed=8)
        sockets = await match.open_sockets(http, stack.projection.ws_url)
        seq = await match.play(turns=10)
        seat = match.active[0]
        action = await match.legal_action(seat)
        redis.kill()  # right after an acknowledged action

        # While Redis is down: a clear 503 for a submit (retry with the same key), not ready.
        down = await match.game.submit(match.table, match.tokens[seat], seq, action)
        assert down.status == 503 and down.body["error"]["code"] == "unavailable", down
        ready = await match.game.request("GET", "/api/ready")
        assert ready.status == 503 and ready.body["redis"] is False

        redis = RedisServer(tmp_path / "redis", port=redis.port).start()
        assert await stream_ids(redis.url, match.table) == list(range(1, seq + 1))

        match.accepted(await submit_until_up(match, seat, action, new_key("after-restart")))
        assert match.seq == seq + 1
        # The projection's reader reconnects by itself: the sockets stayed open and the
        # update arrives on them.
        for sock in sockets:
            await sock.wait_seq(seq + 1)
            assert not sock.closed.is_set() and len(sock.welcomes) == 1
        seq = await match.play(turns=20)
        await check_final(redis.url, sockets, seq)
    finally:
        redis.stop()
