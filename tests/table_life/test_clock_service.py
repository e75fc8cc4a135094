"""Table clocks through the game service's HTTP API, on a real Redis, with time moved by the
test (tests/table_life/clocks.py): banks and increments, async deadlines, simultaneous
decisions charging every seat that must act, refusals of a seat out of time, both
outcomes carried out once, a player taking the seat back."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from shared.store import keys

from services.game.app import GAME_KEY
from tests.game.conftest import Table, make_cfg, make_table, new_client  # noqa: F401 - fixtures
from tests.table_life.clocks import TestTime, use_test_time
from tests.waiting import until

REALTIME = {"kind": "realtime", "bank_s": 60, "increment_s": 10}


@pytest.fixture
def clock_time(tmp_path, monkeypatch) -> TestTime:
    return use_test_time(tmp_path, monkeypatch)


@pytest.fixture
async def game(new_client, clock_time):  # noqa: F811
    return await new_client(clock_poll=0.02)


async def clock_of(table: Table) -> dict[str, Any]:
    resp = await table.client.get(f"/api/tables/{table.id}/clock")
    body = await resp.json()
    assert resp.status == 200, body
    return body


def remaining(clock: dict[str, Any]) -> list[int | None]:
    return [s["remaining_ms"] for s in clock["seats"]]


async def test_realtime_bank_runs_for_the_seat_to_act_and_the_increment_is_capped(game, make_table, clock_time):  # noqa: F811
    table = await make_table(game, 2, clock=REALTIME)  # nim, seed 0: seat 0 starts
    assert (await table.detail())["clock"] == REALTIME
    clock_time.advance(15_000)
    clock = await clock_of(table)
    assert clock["kind"] == "realtime" and remaining(clock) == [45_000, 60_000]
    assert [s["running"] for s in clock["seats"]] == [True, False]
    status, _ = await table.act(0, {"type": "take", "count": 1}, 0)
    assert status == 201
    clock = await clock_of(table)
    assert remaining(clock) == [55_000, 60_000]  # 45 s left + 10 s increment
    clock_time.advance(5_000)
    status, _ = await table.act(1, {"type": "take", "count": 1}, 1)
    assert status == 201
    clock = await clock_of(table)
    assert remaining(clock) == [55_000, 60_000]  # 55 s + 10 s would pass the 60 s start: capped
    assert clock["deadline_ms"] == clock_time.ms + 55_000


async def test_a_seat_out_of_time_is_refused_and_a_bot_takes_it_once(game, make_table, clock_time):  # noqa: F811
    table = await make_table(game, 2, clock={**REALTIME, "bot_level": "random"})
    clock_time.advance(60_000)
    status, body = await table.act(0, {"type": "take", "count": 1}, 0)
    assert status == 409 and body["error"]["code"] == "out_of_time"

    async def taken() -> dict[str, Any] | None:
        clock = await clock_of(table)
        return clock if clock["seats"][0]["timed_out"] else None

    clock = await until(taken, "the clock watch to hand seat 0 to a bot")
    assert clock["seats"][0]["kind"] == "bot" and clock["seats"][0]["level"] == "random"
    assert not clock["seats"][0]["running"]
    detail = await table.detail()
    assert detail["seats"][0]["kind"] == "bot"
    redis = game.app[GAME_KEY].redis
    events = await redis.xrange(keys.clock_key(table.id))
    assert [(f[b"kind"], f[b"outcome"]) for _i, f in events] == [(b"timeout", b"bot")]
    # The bot's turn was announced to the bot workers.
    layout = game.app[GAME_KEY].service.store.layout

    async def announced() -> bool:
        notices = await redis.xrange(layout.turns(layout.shard_of(table.id)))
        return any(f[b"table"].decode() == table.id and f[b"seats"] == b"[0]" for _i, f in notices)

    await until(announced, "the bot's turn to be announced")
    # Later sweeps change nothing more: the outcome happened once.
    watch = game.app[GAME_KEY].service.watch
    await watch.examine(table.id)
    assert len(await redis.xrange(keys.clock_key(table.id))) == 1

    # The player takes the seat back: a tenth of the bank to start again, running at once.
    resp = await game.post(f"/api/tables/{table.id}/seats/0/controller", json={"kind": "human"}, headers=table.auth(0))
    assert resp.status == 200, await resp.json()
    clock = await clock_of(table)
    assert clock["seats"][0] == {"seat": 0, "kind": "human", "level": None, "remaining_ms": 10_000, "running": True,
                                 "timed_out": False}
    status, body = await table.act(0, {"type": "take", "count": 1}, 0)
    assert status == 201, body


async def test_abandon_ends_the_table_with_standings_once(game, make_table, clock_time):  # noqa: F811
    table = await make_table(game, [{"name": "Ada"}, {"name": "Bo"}], title="sealed",
                             clock={"kind": "async", "turn_hours": 24, "on_timeout": "abandon"})
    # A sealed round: both seats must play, both are charged.
    clock = await clock_of(table)
    assert [s["running"] for s in clock["seats"]] == [True, True]
    assert remaining(clock) == [24 * 3600_000] * 2
    legal = await (await game.get(f"/api/tables/{table.id}/legal", headers=table.auth(1))).json()
    card = legal["actions"][0]["action"]
    clock_time.advance(3600_000)
    status, body = await table.act(1, card, 0)
    assert status == 201, body
    clock = await clock_of(table)
    assert [s["running"] for s in clock["seats"]] == [True, False]  # Bo has played: only Ada's time runs
    assert remaining(clock) == [23 * 3600_000, None]
    clock_time.advance(23 * 3600_000)

    async def ended() -> dict[str, Any] | None:
        detail = await table.detail()
        return detail if detail["status"] == "finished" else None

    detail = await until(ended, "the table to be abandoned")
    assert detail["result"]["reason"] == "abandoned: Ada ran out of time"
    assert detail["result"]["scores"] == [0, 0] and detail["active_seats"] == []
    clock = await clock_of(table)
    assert clock["ended"] == detail["result"] and not any(s["running"] for s in clock["seats"])
    status, body = await table.act(0, card, 1)
    assert status == 409 and body["error"]["code"] == "table_ended"
    legal = await (await game.get(f"/api/tables/{table.id}/legal", headers=table.auth(0))).json()
    assert legal["actions"] == [] and legal["active"] is False
    listed = await (await game.get("/api/tables?status=finished")).json()
    assert table.id in [t["table"] for t in listed["tables"]]


async def test_clock_refusals(game, make_table):  # noqa: F811
    for clock, code in [({"kind": "realtime"}, "bad_clock"), ({"kind": "async"}, "bad_clock"),
                        ({"kind": "async", "turn_hours": 1, "bank_s": 5}, "bad_clock"),
                        ({"kind": "realtime", "bank_s": 5, "bot_level": "wizard"}, "unknown_bot"),
                        ({"kind": "sundial"}, "bad_request")]:
        resp = await game.post("/api/tables", json={"title": "nim", "seats": [{"name": "a"}, {"name": "b"}],
                                                    "clock": clock})
        body = await resp.json()
        assert resp.status == 422 and body["error"]["code"] == code, (clock, body)
    table = await make_table(game, 2)
    clock = await clock_of(table)
    assert clock["kind"] == "none" and remaining(clock) == [None, None]


@pytest.mark.parametrize("outcome", ["bot", "abandon"])
async def test_looks_at_once_carry_out_a_timeout_once(new_client, make_table, clock_time, outcome):  # noqa: F811
    """Several looks at the same expired table at once in one process (the watch's sweep and
    the look a refused move asks for share the table's cached clock): one outcome."""
    game = await new_client(clock_poll=3600)  # the sweep stays out of it: the looks below race each other
    extra = {"bot_level": "random"} if outcome == "bot" else {"on_timeout": "abandon"}
    tables = [await make_table(game, 2, clock={**REALTIME, **extra}) for _ in range(5)]
    clock_time.advance(60_000)
    watch = game.app[GAME_KEY].service.watch
    redis = game.app[GAME_KEY].redis
    for table in tables:
        await asyncio.gather(*(watch.examine(table.id) for _ in range(4)))
        events = await redis.xrange(keys.clock_key(table.id))
        assert [(f[b"kind"], f[b"outcome"], f[b"seat"]) for _i, f in events] == [
            (b"timeout", outcome.encode(), b"0")]
