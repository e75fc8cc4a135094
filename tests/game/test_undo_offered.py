"""`GET /legal` says whether the seat's undo would be accepted now (`undo`), so a page offers
undo only when the server takes it: at every position of a game, for every seat, the flag
is true exactly when `{type: undo}` is accepted."""

from __future__ import annotations

from .conftest import key


async def legal_undo(client, table, seat: int) -> tuple[int, bool]:
    resp = await client.get(f"/api/tables/{table.id}/legal", headers=table.auth(seat))
    body = await resp.json()
    assert resp.status == 200, body
    return body["seq"], body["undo"]


async def check_every_seat(client, table, seats: int) -> None:
    """For each seat: the flag, then the undo itself (put back with redo when accepted)."""
    for seat in range(seats):
        seq, offered = await legal_undo(client, table, seat)
        status, body = await table.act(seat, {"type": "undo"}, seq)
        assert (status == 201) is offered, (seat, seq, offered, body)
        if offered:
            status, body = await table.act(seat, {"type": "redo"}, seq + 1)
            assert status == 201, body
        else:
            assert (await table.detail())["last_seq"] == seq, "a refused undo changes nothing"


async def test_the_undo_flag_matches_what_the_server_accepts(client, make_table):
    table = await make_table(client, 3, options={"pile": 30}, seed=0)
    await check_every_seat(client, table, 3)  # nothing to undo yet
    seq = (await table.detail())["last_seq"]
    for seat in (0, 1, 2, 0):
        status, body = await table.act(seat, {"type": "take", "count": 1}, seq)
        assert status == 201, body
        seq = body["seq"]
        await check_every_seat(client, table, 3)
        seq = (await table.detail())["last_seq"]
    # Only the seat that acted last may take it back, before anyone else acts.
    assert (await legal_undo(client, table, 0))[1] is True
    assert (await legal_undo(client, table, 1))[1] is False


async def test_no_undo_on_a_table_that_forbids_it(client, make_table):
    table = await make_table(client, 2, options={"undo": "none"}, seed=0)
    status, _ = await table.act(0, {"type": "take", "count": 1}, 0)
    assert status == 201
    assert await legal_undo(client, table, 0) == (1, False)
    resp = await client.post(f"/api/tables/{table.id}/undo", json={"expected_seq": 1, "idempotency_key": key()},
                             headers=table.auth(0))
    assert resp.status == 422
