"""`POST /api/tables/{table}/preview` (services/game/preview.py): what an action would do now.

An 18Ireland table at a real game's run of trains (a prefix of a real export, stored as the
import stores it): the engine's best run previews as legal with the engine's own revenue; a
run edited by hand gets its revenue; a run the rules refuse is answered (200) with the
engine's code and the route at fault; nothing is written. Bad input is a clear 4xx; a title
without a preview says so.
"""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import msgspec
import pytest

from shared import auth
from shared.timeline import Timeline

from services.offline.import_18xx import import_export
from services.offline.import_table import store_table
from tests.exports import export_paths
from tests.game.conftest import SECRET

EXPORTS = export_paths("18Ireland")
pytestmark = pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures")


@pytest.fixture(scope="module")
def at_run() -> Any:
    """A real game's prefix ending where a company with two trains runs them."""
    run = import_export(json.loads(min(EXPORTS, key=lambda p: p.stat().st_size).read_text()))
    engine = run.engine
    timeline = Timeline(engine, run.timeline.seats, run.timeline.options, run.timeline.seed)
    for i, (seat, action) in enumerate(run.entries):
        for s in engine.active_seats(timeline.state):
            for la in engine.legal_actions(timeline.state, s):
                if type(la.action).__name__ == "RunRoutes" and len(la.action.routes) >= 2:
                    return SimpleNamespace(part=run.prefix(i), seat=s, best=msgspec.to_builtins(la.action), state=timeline.state)
        timeline.push(seat, action)
    raise AssertionError("no run of two trains in the export")


async def stored(at_run: Any, redis_url: str) -> tuple[str, list[str]]:
    table = (await store_table(at_run.part, redis_url))["table"]
    seats = len(at_run.part.timeline.seats)
    return table, [auth.issue(SECRET, table, s) for s in range(seats)]


async def ask(client: Any, table: str, token: str | None, body: Any) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    data = body if isinstance(body, str) else json.dumps(body)
    resp = await client.post(f"/api/tables/{table}/preview", data=data, headers={**headers, "Content-Type": "application/json"})
    return resp.status, await resp.json()


async def test_a_run_is_previewed_with_the_engines_revenue_and_nothing_is_written(client, redis_url, at_run) -> None:
    table, tokens = await stored(at_run, redis_url)
    before = (await (await client.get(f"/api/tables/{table}")).json())["last_seq"]
    best = at_run.best
    status, body = await ask(client, table, tokens[at_run.seat], {"action": best})
    assert status == 200, body
    p = body["preview"]
    assert body["seq"] == before and body["seat"] == at_run.seat
    assert p["legal"] and p["error"] is None and p["part"] is None
    assert [r["revenue"] for r in p["routes"]] == [r["revenue"] for r in best["routes"]]
    assert p["total"] == sum(r["revenue"] for r in best["routes"])
    # Edited: the second train left out, and the revenue left for the engine to count.
    one = {**best, "routes": [{k: v for k, v in best["routes"][0].items() if k != "revenue"}]}
    status, body = await ask(client, table, tokens[at_run.seat], {"action": one})
    assert status == 200 and body["preview"]["legal"] and body["preview"]["total"] == best["routes"][0]["revenue"]
    # Refused by the rules: one train twice; the answer names the route at fault and why.
    twice = {**best, "routes": [best["routes"][0], best["routes"][0]]}
    status, body = await ask(client, table, tokens[at_run.seat], {"action": twice})
    assert status == 200
    p = body["preview"]
    assert not p["legal"] and p["part"] == 1 and p["error"]["code"] == "train_reused", p
    assert p["routes"] == [{**p["routes"][0], "revenue": best["routes"][0]["revenue"]}]
    # Another seat may ask (a run's facts are public) but is told the rules would not take it from them.
    other = (at_run.seat + 1) % len(tokens)
    status, body = await ask(client, table, tokens[other], {"action": best})
    assert status == 200 and not body["preview"]["legal"] and body["preview"]["error"]["code"] == "not_your_turn"
    assert (await (await client.get(f"/api/tables/{table}")).json())["last_seq"] == before


async def test_bad_requests_are_refused_with_a_clear_code(client, redis_url, at_run, make_table) -> None:
    table, tokens = await stored(at_run, redis_url)
    token = tokens[at_run.seat]
    best = at_run.best
    cases = [
        (None, {"action": best}, 401, "missing_token"),
        ("not-a-token", {"action": best}, 401, "bad_token"),
        (token, "{not json", 400, "bad_json"),
        (token, {"action": best, "extra": 1}, 422, "bad_request"),
        (token, {"action": {"type": "fly_to_the_moon"}}, 422, "bad_action"),
        (token, {"action": {"type": "undo"}}, 422, "no_preview"),
        (token, {"action": {"type": "pass", "entity": best["entity"], "entity_type": "corporation"}}, 422, "no_preview"),
    ]
    for tok, body, status, code in cases:
        got, reply = await ask(client, table, tok, body)
        assert (got, reply["error"]["code"]) == (status, code), (body, reply)
        assert reply["error"]["message"]
    other = await make_table(client, 2)   # nim: a title that previews nothing
    got, reply = await ask(client, other.id, other.tokens[0], {"action": {"type": "take", "count": 1}})
    assert (got, reply["error"]["code"]) == (422, "no_preview")
    got, reply = await ask(client, other.id, token, {"action": best})
    assert (got, reply["error"]["code"]) == (403, "wrong_table")
    missing = auth.issue(SECRET, "no-such-table", 0)
    got, reply = await ask(client, "no-such-table", missing, {"action": best})
    assert (got, reply["error"]["code"]) == (404, "unknown_table")
