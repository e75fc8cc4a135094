"""A seat handover made through one game service replica is seen by another replica that
holds the table in memory: it announces the bot's turn (and stops announcing once the seat
is a person's again) at its next append."""

from __future__ import annotations

from shared.store import keys

from .conftest import create

TAKE = {"type": "take", "count": 1}


async def notices(redis_client, table: str) -> list[tuple[int, list[int]]]:
    found = []
    for stream in keys.TURN_STREAMS:
        for _id, fields in await redis_client.xrange(stream):
            if fields[b"table"] == table.encode():
                found.append((int(fields[b"seq"]), [int(s) for s in fields[b"seats"].strip(b"[]").split(b",") if s]))
    return sorted(found)


async def test_a_handover_through_one_replica_is_seen_by_another(new_client, redis_client):
    a, b = await new_client(), await new_client()
    created = await create(a, [{"name": "p0"}, {"name": "p1"}, {"name": "p2"}])
    table, tokens = created["table"], [s["token"] for s in created["seats"]]

    async def act(client, seat: int, seq: int) -> dict:
        resp = await client.post(f"/api/tables/{table}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                                 json={"expected_seq": seq, "idempotency_key": f"k{seq}", "action": TAKE})
        body = await resp.json()
        assert resp.status == 201, body
        return body

    # Replica B loads the table (all people) and plays a move.
    assert (await act(b, 0, 0))["active_seats"] == [1]
    # Seat 2 is handed to a bot through replica A; B still holds its copy in memory.
    resp = await a.post(f"/api/tables/{table}/seats/2/controller", json={"kind": "bot", "level": "random"},
                        headers={"Authorization": f"Bearer {tokens[2]}"})
    assert resp.status == 200, await resp.json()
    assert await notices(redis_client, table) == []  # seat 2 is not to act yet
    # Seat 1 moves through B: now seat 2 must act, and B knows seat 2 is a bot.
    assert (await act(b, 1, 1))["active_seats"] == [2]
    assert await notices(redis_client, table) == [(2, [2])]
    assert await redis_client.zscore(keys.ANNOUNCE, table) is None  # announced: the note is cleared
    detail = await (await b.get(f"/api/tables/{table}")).json()
    assert detail["seats"][2]["kind"] == "bot"

    # Seat 2 is a person's again (through A) before the bot moved; the person moves through B...
    resp = await a.post(f"/api/tables/{table}/seats/2/controller", json={"kind": "human"},
                        headers={"Authorization": f"Bearer {tokens[2]}"})
    assert resp.status == 200
    assert (await act(b, 2, 2))["active_seats"] == [0]
    assert (await act(b, 0, 3))["active_seats"] == [1]
    assert (await act(b, 1, 4))["active_seats"] == [2]
    # ...and B announces no bot turn for seat 2 any more.
    assert await notices(redis_client, table) == [(2, [2])]
