"""Submitting actions: acceptance, every refusal (which must leave the log untouched),
races, idempotent retries and undo."""

from __future__ import annotations

import asyncio

from shared import auth
from shared.store import keys

from services.game.app import GAME_KEY

from .conftest import SECRET, key

TAKE1 = {"type": "take", "count": 1}


async def test_accepted_action_reply_and_log_entry(client, make_table):
    table = await make_table(client, 3, seed=1)  # seed 1: seat 1 starts
    status, body = await table.act(1, {"type": "take", "count": 2}, 0)
    assert status == 201
    assert body == {"table": table.id, "seq": 1, "seat": 1, "status": "running", "active_seats": [2], "result": None}
    entries = await client.app[GAME_KEY].service.store.read(table.id, 0)
    assert [(e.seq, e.seat, e.action) for e in entries] == [(1, 1, b'{"type":"take","count":2}')]
    detail = await table.detail()
    assert (detail["last_seq"], detail["status"], detail["active_seats"]) == (1, "running", [2])


async def test_game_to_the_end_reports_a_result(client, make_table):
    table = await make_table(client, 2, options={"pile": 5, "max_take": 3}, seed=0)
    seq, seat = 0, 0
    for count in (3, 1, 1):
        status, body = await table.act(seat, {"type": "take", "count": count}, seq)
        assert status == 201, body
        seq, seat = body["seq"], 1 - seat
    assert body["status"] == "finished" and body["active_seats"] == []
    assert body["result"]["winners"] == [0]
    detail = await table.detail()
    assert detail["status"] == "finished" and detail["result"]["winners"] == [0]
    status, body = await table.act(1, TAKE1, seq)
    assert (status, body["error"]["code"]) == (422, "game_over")


async def test_every_bad_submit_is_refused_and_changes_nothing(new_client, make_table, redis_client):
    client = await new_client(max_body=300)
    table = await make_table(client, 2, seed=0)
    other = await make_table(client, 2, seed=0)
    assert (await table.act(0, TAKE1, 0))[0] == 201
    before = await table.log_state()
    url = f"/api/tables/{table.id}/actions"
    good: dict[str, object] = {"expected_seq": 1, "idempotency_key": "k1", "action": TAKE1}
    forged = f"{table.id}.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    ghost = auth.issue(SECRET, "nosuchtable", 0)
    cases: list[tuple[dict[str, str], dict[str, object] | bytes, str, int, str]] = [
        # (headers, body, path, status, code)
        ({}, good, url, 401, "missing_token"),
        ({"Authorization": "Basic abc"}, good, url, 401, "bad_token"),
        ({"Authorization": "Bearer not-a-token"}, good, url, 401, "bad_token"),
        ({"Authorization": f"Bearer {forged}"}, good, url, 401, "bad_token"),
        ({"Authorization": f"Bearer {other.tokens[1]}"}, good, url, 403, "wrong_table"),
        (table.auth(1), b'{"expected_seq": 1, "idempotency_key": "k",', url, 400, "bad_json"),
        (table.auth(1), b'{"expected_seq": 1, "idempotency_key": "k", "action": {"type": }}', url, 400, "bad_json"),
        (table.auth(1), {**good, "expected_seq": "one"}, url, 422, "bad_request"),
        (table.auth(1), {**good, "expected_seq": -1}, url, 422, "bad_request"),
        (table.auth(1), {"expected_seq": 1, "action": TAKE1}, url, 422, "bad_request"),
        (table.auth(1), {**good, "idempotency_key": ""}, url, 422, "bad_request"),
        (table.auth(1), {**good, "idempotency_key": "has space"}, url, 422, "bad_request"),
        (table.auth(1), {**good, "extra": 1}, url, 422, "bad_request"),
        (table.auth(1), {**good, "action": {"type": "fly"}}, url, 422, "bad_action"),
        (table.auth(1), {**good, "action": {"count": 1}}, url, 422, "bad_action"),
        (table.auth(1), {**good, "action": {"type": "take", "count": "one"}}, url, 422, "bad_action"),
        (table.auth(1), {**good, "action": {"type": "take", "count": 1, "colour": "red"}}, url, 422, "bad_action"),
        (table.auth(1), {**good, "action": [1, 2]}, url, 422, "bad_action"),
        (table.auth(1), {**good, "action": TAKE1, "pad": "x" * 400}, url, 413, "body_too_large"),
        (table.auth(1), {**good, "action": {"type": "take", "count": 9}}, url, 422, "bad_amount"),
        (table.auth(0), good, url, 422, "not_your_turn"),
        (table.auth(1), {**good, "expected_seq": 0}, url, 409, "stale_seq"),
        (table.auth(1), {**good, "expected_seq": 7}, url, 409, "stale_seq"),
        (table.auth(0), {**good, "action": {"type": "redo"}}, url, 422, "nothing_to_redo"),
        (table.auth(1), {**good, "action": {"type": "undo"}}, url, 422, "undo_not_allowed"),
        ({"Authorization": f"Bearer {ghost}"}, good, "/api/tables/nosuchtable/actions", 404, "unknown_table"),
    ]
    for headers, body, path, status, code in cases:
        if isinstance(body, bytes):
            resp = await client.post(path, data=body, headers={**headers, "Content-Type": "application/json"})
        else:
            resp = await client.post(path, json=body, headers=headers)
        got = await resp.json()
        assert (resp.status, got["error"]["code"]) == (status, code), (headers, body, got)
        assert isinstance(got["error"]["message"], str) and got["error"]["message"]
        if code == "stale_seq":
            assert got["error"]["current_seq"] == 1
        assert await table.log_state() == before
        assert await redis_client.exists(keys.idem_key(table.id, 1, "k1"), keys.idem_key(table.id, 0, "k1")) == 0
    # After all that, the right submit still goes through as seq 2.
    status, body = await table.act(1, TAKE1, 1, idem="k1")
    assert (status, body["seq"]) == (201, 2)


async def test_fifty_concurrent_submits_for_one_turn_across_two_replicas(new_client, make_table):
    first, second = await new_client(), await new_client()
    table = await make_table(first, 2, seed=0)
    twin = type(table)(second, table.created)  # the same table seen through the other replica
    assert (await table.act(0, TAKE1, 0))[0] == 201
    assert (await twin.detail())["last_seq"] == 1  # the second replica has it hot too

    results = await asyncio.gather(
        *((table if i % 2 else twin).act(1, {"type": "take", "count": 1 + i % 3}, 1) for i in range(50))
    )
    accepted = [body for status, body in results if status == 201]
    refused = [body for status, body in results if status != 201]
    assert len(accepted) == 1 and accepted[0]["seq"] == 2
    assert all(status in (201, 409) for status, _ in results)
    assert all(b["error"]["code"] == "stale_seq" and b["error"]["current_seq"] == 2 for b in refused)
    length, ids = await table.log_state()
    assert (length, ids) == (2, [b"1-0", b"2-0"])
    # Both replicas agree on what happened next.
    assert (await table.detail())["active_seats"] == (await twin.detail())["active_seats"] == [0]


async def test_retry_with_the_same_key_gets_the_first_answer(new_client, make_table):
    client, replica = await new_client(), await new_client()
    table = await make_table(client, 2, seed=0)
    twin = type(table)(replica, table.created)
    await twin.detail()  # the replica holds the table at seq 0 and will not hear of seq 1
    status, first = await table.act(0, TAKE1, 0, idem="retry-me")
    assert status == 201
    # The same request again, and the same key with another body, another seq: the first answer.
    for action, seq in ((TAKE1, 0), ({"type": "take", "count": 3}, 0), (TAKE1, 1), ({"type": "fly"}, 5)):
        resp = await client.post(
            f"/api/tables/{table.id}/actions",
            json={"expected_seq": seq, "idempotency_key": "retry-me", "action": action},
            headers=table.auth(0),
        )
        assert resp.status == 201 and await resp.json() == first
        assert resp.headers["Idempotent-Replayed"] == "true"
    assert (await table.log_state())[0] == 1
    # The lagging replica (the client failed over after a crash) finds the action valid at its
    # seq 0, and the append script answers with the stored reply.
    assert await twin.act(0, TAKE1, 0, idem="retry-me") == (201, first)
    assert (await replica.app[GAME_KEY].service.tables.get(table.id)).seq == 0
    # The table moves on; the old key still answers with the old reply.
    assert (await table.act(1, TAKE1, 1))[0] == 201
    assert await table.act(0, TAKE1, 0, idem="retry-me") == (201, first)
    assert (await table.log_state())[0] == 2


async def test_reply_stored_with_the_append_survives_a_lost_response(client, make_table):
    """The service may die after the append and before answering: the reply was stored
    atomically with the entry, so the retry finds it (here the append is made directly)."""
    table = await make_table(client, 2, seed=0)
    service = client.app[GAME_KEY].service
    reply = b'{"table":"%s","seq":1,"seat":0,"status":"running","active_seats":[1],"result":null}' % table.id.encode()
    out = await service.store.append(table.id, 0, 0, b'{"type":"take","count":1}', "lost", reply, 1)
    assert out.status == "ok"
    resp = await client.post(
        f"/api/tables/{table.id}/actions",
        json={"expected_seq": 0, "idempotency_key": "lost", "action": TAKE1},
        headers=table.auth(0),
    )
    assert resp.status == 201 and await resp.read() == reply
    assert (await table.log_state())[0] == 1
    # The hot table of this replica (made at create) catches up on the next submit.
    status, body = await table.act(1, TAKE1, 1)
    assert (status, body["seq"]) == (201, 2)


async def test_out_of_turn_actions_are_the_engines_call(client, make_table):
    table = await make_table(client, 3, seed=0)
    status, body = await table.act(2, {"type": "shout", "word": "hey"}, 0)
    assert (status, body["active_seats"]) == (201, [0])


async def test_undo_and_redo(client, make_table):
    table = await make_table(client, 3, options={"pile": 20}, seed=0)
    assert (await table.act(0, {"type": "take", "count": 3}, 0))[0] == 201
    # Seat 0 undoes its own last action before anyone else acted.
    status, body = await table.act(1, {"type": "undo"}, 1)
    assert (status, body["error"]["code"]) == (422, "undo_not_allowed")
    status, body = await table.act(0, {"type": "undo"}, 1)
    assert (status, body["seq"], body["active_seats"]) == (201, 2, [0])
    status, body = await table.act(0, {"type": "undo"}, 2)
    assert (status, body["error"]["code"]) == (422, "nothing_to_undo")
    status, body = await table.act(1, {"type": "redo"}, 2)
    assert (status, body["error"]["code"]) == (422, "redo_not_allowed")
    status, body = await table.act(0, {"type": "redo"}, 2)
    assert (status, body["seq"], body["active_seats"]) == (201, 3, [1])
    # Once seat 1 acted, seat 0 may not undo any more; the convenience endpoint says the same.
    assert (await table.act(1, {"type": "take", "count": 2}, 3))[0] == 201
    resp = await client.post(f"/api/tables/{table.id}/undo", json={"expected_seq": 4, "idempotency_key": key()},
                             headers=table.auth(0))
    assert (resp.status, (await resp.json())["error"]["code"]) == (422, "undo_not_allowed")
    resp = await client.post(f"/api/tables/{table.id}/undo", json={"expected_seq": 4, "idempotency_key": "u1"},
                             headers=table.auth(1))
    body = await resp.json()
    assert (resp.status, body["seq"], body["active_seats"]) == (201, 5, [1])
    legal = await (await client.get(f"/api/tables/{table.id}/legal", headers=table.auth(1))).json()
    assert legal["seq"] == 5 and legal["active"] is True
    take = legal["actions"][0]
    assert take["action"] == {"type": "take", "count": 1} and take["range"]["max"] == 3
    # Pile back to 17 after 3 taken and seat 1's 2 undone.
    assert (await table.detail())["last_seq"] == 5
    assert (await table.log_state())[0] == 5


async def test_legal_actions_need_the_seats_token(client, make_table):
    table = await make_table(client, 2, seed=0)
    resp = await client.get(f"/api/tables/{table.id}/legal?seat=1", headers=table.auth(1))
    body = await resp.json()
    assert resp.status == 200
    assert body["active"] is False and [a["action"]["type"] for a in body["actions"]] == ["shout"]
    for headers, query, status, code in (
        (table.auth(0), "?seat=1", 403, "wrong_seat"),
        (table.auth(0), "?seat=x", 400, "bad_query"),
        ({}, "", 401, "missing_token"),
    ):
        resp = await client.get(f"/api/tables/{table.id}/legal{query}", headers=headers)
        assert (resp.status, (await resp.json())["error"]["code"]) == (status, code)


async def test_bot_turns_are_published(client, make_table, redis_client):
    seats = [{"name": "human"}, {"name": "bot", "kind": "bot", "level": "random"}]
    table = await make_table(client, seats, seed=1)  # seed 1: the bot starts
    status, _ = await table.act(0, {"type": "shout", "word": "go"}, 0)  # bot still to act
    assert status == 201
    layout = client.app[GAME_KEY].service.store.layout  # the table's shard of the turn streams
    stream = layout.turns(layout.shard_of(table.id), keys.TURNS)
    notices = [f for _, f in await redis_client.xrange(stream) if f[b"table"] == table.id.encode()]
    assert [(n[b"seq"], n[b"seats"]) for n in notices] == [(b"0", b"[1]"), (b"1", b"[1]")]


async def test_undo_to_an_entry_under_each_table_policy(client, make_table):
    """`action_id` goes back to just after that log entry; the table option `undo` says who may."""
    table = await make_table(client, 3, options={"pile": 20, "undo": "any"}, seed=0)
    for seq, (seat, count) in enumerate([(0, 3), (1, 2), (2, 1)]):
        assert (await table.act(seat, {"type": "take", "count": count}, seq))[0] == 201
    # Under "any", seat 2 takes the table back to just after entry 1 (seat 0's take).
    resp = await client.post(f"/api/tables/{table.id}/undo", headers=table.auth(2),
                             json={"expected_seq": 3, "idempotency_key": key(), "action_id": 1})
    body = await resp.json()
    assert (resp.status, body["seq"], body["active_seats"]) == (201, 4, [1])
    legal = await (await client.get(f"/api/tables/{table.id}/legal", headers=table.auth(1))).json()
    assert legal["actions"][0]["range"]["max"] == 3 and legal["active"]
    status, body = await table.act(1, {"type": "undo", "action_id": 9}, 4)
    assert (status, body["error"]["code"]) == (422, "bad_undo")
    status, body = await table.act(0, {"type": "redo"}, 4)  # anyone may redo under "any"
    assert (status, body["active_seats"]) == (201, [0])

    strict = await make_table(client, 2, options={"undo": "none"}, seed=0)
    assert (await strict.act(0, {"type": "take", "count": 1}, 0))[0] == 201
    status, body = await strict.act(0, {"type": "undo"}, 1)
    assert (status, body["error"]["code"]) == (422, "undo_not_allowed")

    own = await make_table(client, 2, seed=0)  # Nim's default: "own"
    assert (await own.act(0, {"type": "take", "count": 1}, 0))[0] == 201
    assert (await own.act(1, {"type": "take", "count": 1}, 1))[0] == 201
    status, body = await own.act(1, {"type": "undo", "action_id": 0}, 2)  # would undo seat 0's too
    assert (status, body["error"]["code"]) == (422, "undo_not_allowed")
    resp = await client.post("/api/tables", json={"title": "nim", "seats": [{"name": "a"}, {"name": "b"}],
                                                  "options": {"undo": "sometimes"}})
    assert (resp.status, (await resp.json())["error"]["code"]) == (422, "bad_options")
