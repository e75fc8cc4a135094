"""Whole games and concurrent submits through the real stack: `roundhouse game` and
`roundhouse projection` as processes, clients over HTTP and WebSocket on loopback."""

from __future__ import annotations

import asyncio
from typing import Any

from shared.engine import served_view
from shared.games import get_engine

from .stack import TITLE, Match, as_json, new_key, pick, projection_counter, replay, stream_ids

# Keys that would mean a view carries server-side secrets.
HIDDEN_KEYS = {"seed", "rng", "rng_state", "secret"}


def all_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(all_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(all_keys(v) for v in value))
    return set()


async def test_two_seats_and_a_spectator_play_a_whole_game(stack, game, http):
    seed = 7_312_845_120_031_977  # distinctive, so a leak into any frame would be found
    views_before = await projection_counter(http, stack, "views_computed_total")
    match = await Match.create(game, 2, seed)
    sockets = await match.open_sockets(http, stack.projection.ws_url)
    spectator = sockets[-1]
    assert [s.welcomes[0]["seat"] for s in sockets] == [0, 1, None]

    seq = await match.play()
    assert match.status == "finished"
    for sock in sockets:
        await sock.wait_seq(seq)

    ref = await replay(stack.redis_url, match.table)
    assert ref.seqs == list(range(1, seq + 1))
    engine = get_engine(TITLE)
    assert engine.result(ref.timeline.state) is not None
    for sock in sockets:
        # Every socket ends at the same final seq, having seen each entry exactly once.
        assert sock.seq == seq and sock.seqs == list(range(1, seq + 1))
        assert not sock.errors
    for seat, sock in enumerate(sockets[:2]):
        assert sock.view == as_json(served_view(engine, ref.timeline.state, seat))
    assert spectator.view == as_json(served_view(engine, ref.timeline.state, None))
    for frame in spectator.frames:
        assert not all_keys(frame) & HIDDEN_KEYS, frame["type"]
        assert str(seed) not in str(frame)
    # Chicago Express has no hidden information (`public_view`): the projection computes one
    # view per update for all three sockets, not one per seat.
    assert await projection_counter(http, stack, "views_computed_total") - views_before <= seq + 3
    detail = await game.request("GET", f"/api/tables/{match.table}")
    assert detail.status == 200 and detail.body["last_seq"] == seq and str(seed) not in str(detail.body)
    for sock in sockets:
        await sock.close()


async def test_fifty_concurrent_submits_for_one_turn(stack, game):
    match = await Match.create(game, 3, seed=11)
    seq = await match.play(turns=4)
    seat, token = match.active[0], match.tokens[match.active[0]]
    legal = (await game.legal(match.table, token))["actions"]
    actions = [pick(match.rng, legal) for _ in range(50)]
    keys = [new_key("race") for _ in actions]

    replies = await asyncio.gather(*(game.submit(match.table, token, seq, a, k) for a, k in zip(actions, keys)))

    won = [i for i, r in enumerate(replies) if r.status == 201]
    assert len(won) == 1, [r.status for r in replies]
    winner = won[0]
    assert replies[winner].body["seq"] == seq + 1 and replies[winner].body["seat"] == seat
    for i, r in enumerate(replies):
        if i != winner:
            assert r.status == 409, r
            assert r.body["error"]["code"] == "stale_seq" and r.body["error"]["current_seq"] == seq + 1
    assert await stream_ids(stack.redis_url, match.table) == list(range(1, seq + 2))

    # The winner retried with its key: the original answer, nothing appended.
    again = await game.submit(match.table, token, seq, actions[winner], keys[winner])
    assert again.status == 201 and again.body == replies[winner].body
    assert again.headers["Idempotent-Replayed"] == "true"
    # A loser's key was never accepted, so its retry is still a conflict.
    loser = (winner + 1) % len(replies)
    lost = await game.submit(match.table, token, seq, actions[loser], keys[loser])
    assert lost.status == 409 and lost.body["error"]["current_seq"] == seq + 1
    ref = await replay(stack.redis_url, match.table)
    assert ref.seqs == list(range(1, seq + 2)) and ref.keys.count(keys[winner]) == 1
    assert not set(ref.keys) & (set(keys) - {keys[winner]})
