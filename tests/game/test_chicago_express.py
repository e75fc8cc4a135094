"""A whole Chicago Express game played through HTTP, every move picked from the legal actions
the service offers, then checked against a fold of the log."""

from __future__ import annotations

import random

from shared.engine import decode_action
from shared.games import get_engine
from shared.timeline import Timeline

from services.game.app import GAME_KEY


def pick(rng: random.Random, legal: list[dict]) -> dict:
    choice = rng.choice(legal)
    action = dict(choice["action"])
    if choice.get("range"):
        r = choice["range"]
        action[r["field"]] = rng.randrange(r["min"], r["max"] + 1, r["step"])
    return action


async def test_whole_game_over_http(client, make_table):
    engine = get_engine("chicago-express")
    seats = [{"name": n} for n in ("Ada", "Bo", "Cy", "Di")]
    table = await make_table(client, seats, title="chicago-express", seed=2024)
    rng = random.Random(7)
    seq, moves = 0, 0
    detail = await table.detail()
    while detail["status"] != "finished":
        seat = detail["active_seats"][0]
        resp = await client.get(f"/api/tables/{table.id}/legal?seat={seat}", headers=table.auth(seat))
        legal = await resp.json()
        assert resp.status == 200 and legal["seq"] == seq and legal["active"] and legal["actions"]
        status, body = await table.act(seat, pick(rng, legal["actions"]), seq)
        assert status == 201, body
        assert body["seq"] == seq + 1
        seq = body["seq"]
        moves += 1
        assert moves < 3000, "the game did not end"
        detail = {"status": body["status"], "active_seats": body["active_seats"], "result": body["result"]}
    final = await table.detail()
    assert final["status"] == "finished" and final["last_seq"] == seq
    assert final["result"]["winners"] and len(final["result"]["ranks"]) == 4
    # The log alone folds to the same result: the service added nothing the log lacks.
    store = client.app[GAME_KEY].service.store
    meta = await store.get_meta(table.id)
    timeline = Timeline(engine, [s.name for s in meta.seats], meta.options, meta.seed)
    entries = await store.read(table.id, 0)
    assert [e.seq for e in entries] == list(range(1, seq + 1))
    for entry in entries:
        timeline.push(entry.seat, decode_action(engine, entry.action))
    result = engine.result(timeline.state)
    assert result is not None and result.winners == final["result"]["winners"]
    assert meta.status == "finished" and meta.last_seq == seq


async def test_rule_errors_from_the_engine(client, make_table):
    table = await make_table(client, [{"name": n} for n in "abc"], title="chicago-express", seed=9)
    detail = await table.detail()
    active = detail["active_seats"][0]
    idle = (active + 1) % 3
    legal = await (await client.get(f"/api/tables/{table.id}/legal", headers=table.auth(active))).json()
    move = legal["actions"][0]["action"]
    status, body = await table.act(idle, move, 0)
    assert (status, body["error"]["code"]) == (422, "not_your_turn")
    status, body = await table.act(active, {"type": "no_such_move"}, 0)
    assert (status, body["error"]["code"]) == (422, "bad_action")
    assert await table.log_state() == (0, [])
    resp = await client.post("/api/tables", json={"title": "chicago-express", "seats": [{"name": "a"}] * 3,
                                                  "options": {"dial_lengths": {"auction": -1}}})
    assert (resp.status, (await resp.json())["error"]["code"]) == (422, "bad_options")
