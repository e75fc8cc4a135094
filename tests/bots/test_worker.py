"""The bot worker against the real stack: game service and projection over loopback HTTP and
WebSocket, a real redis-server, real compute processes."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from typing import Any

import msgspec

from shared.protocol.json_patch import apply
from shared.store import RedisEventStore, SeatSpec, TableMeta, keys
from shared.store.connect import connect

from tests.waiting import until

from .conftest import assert_each_turn_played_once, pending, replay


async def every_notice_handled(redis_url: str, group: str) -> bool:
    """Every notice on the turn stream was delivered to `group` and acknowledged."""
    client = connect(redis_url)
    try:
        store = RedisEventStore(client)
        for stream in store.turn_streams():  # every shard's
            if store.layout.kind_of_stream(stream) != keys.TURNS:
                continue
            last = (await client.xinfo_stream(stream))["last-generated-id"]
            info = next(g for g in await client.xinfo_groups(stream) if g["name"] == group.encode())
            if info["last-delivered-id"] != last or info["pending"] != 0:
                return False
    finally:
        await client.aclose()
    return True


class Watcher:
    """A WebSocket on the projection, read as the game goes (a socket that stops reading is
    dropped as a slow consumer), keeping every update."""

    def __init__(self, stack, table: str, token: str | None = None) -> None:
        self.stack, self.table, self.token = stack, table, token
        self.welcome: dict[str, Any] = {}
        self.updates: list[dict[str, Any]] = []
        self.changed = asyncio.Event()

    async def __aenter__(self) -> Watcher:
        self.ws = await self.stack.session.ws_connect(self.stack.url + "/ws", max_msg_size=0)
        hello: dict[str, Any] = {"type": "hello", "v": 1, "table": self.table}
        if self.token:
            hello["token"] = self.token
        await self.ws.send_str(json.dumps(hello))
        self.welcome = json.loads((await self.ws.receive()).data)
        assert self.welcome["type"] == "welcome", self.welcome
        self.view: dict[str, Any] = self.welcome["view"]
        self.task = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            assert data["type"] == "update", data
            self.view = apply(self.view, data["patch"])
            self.updates.append(data)
            self.changed.set()

    @property
    def seq(self) -> int:
        return self.updates[-1]["seq"] if self.updates else self.welcome["seq"]

    async def until(self, seq: int, timeout: float = 60.0) -> None:
        async def wait() -> None:
            while self.seq < seq:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(wait(), timeout)

    async def __aexit__(self, *exc: object) -> None:
        self.task.cancel()
        await self.ws.close()


async def test_a_table_of_bots_finishes_through_the_stack_and_equals_its_replay(stack, start_worker) -> None:
    await start_worker()
    created = await stack.create([{"name": "R", "kind": "bot", "level": "random"},
                                  {"name": "H", "kind": "bot", "level": "heuristic"},
                                  {"name": "M", "kind": "bot", "level": "mcts"}])
    table = created["table"]
    async with Watcher(stack, table) as spectator:
        detail = await stack.wait_finished(table)
        await spectator.until(detail["last_seq"])
    result, entries = await replay(stack.redis_url, table)
    assert msgspec.to_builtins(result) == detail["result"]
    assert_each_turn_played_once(entries)
    assert {e.seat for e in entries} == {0, 1, 2}
    # The spectator's socket saw every move, in order, ending on the same result.
    assert [u["seq"] for u in spectator.updates] == list(range(spectator.welcome["seq"] + 1, detail["last_seq"] + 1))
    assert spectator.view["result"] == detail["result"]


async def test_a_duplicated_turn_notice_never_moves_a_seat_twice(stack, start_worker, redis_client) -> None:
    first, second = await start_worker(), await start_worker()
    created = await stack.create([{"name": "Bot", "kind": "bot", "level": "heuristic"}, {"name": "Ada"}])
    table = created["table"]
    store = RedisEventStore(redis_client)
    for _ in range(6):  # the notice the game service sent, six more times, racing the first
        await store.publish_turn(table, 0, [0])
    for _ in range(200):
        if first.stats.notices + second.stats.notices == 7 and not await pending(stack.redis_url, first.settings.group):
            break
        await asyncio.sleep(0.05)
    assert first.stats.notices + second.stats.notices == 7
    assert first.stats.notices and second.stats.notices  # both workers handled some
    _, entries = await replay(stack.redis_url, table)
    assert [(e.seq, e.seat, e.key) for e in entries] == [(1, 0, "bot-0-0")]
    assert first.stats.moves + second.stats.moves == 1
    # Each extra notice found the turn played (stale) or its move already logged (replayed).
    extra = [w.stats.stale + w.stats.replayed for w in (first, second)]
    assert sum(extra) == 6
    assert (await stack.detail(table))["active_seats"] == [1]  # now it is the person's turn


async def test_departed_consumers_are_forgotten_but_not_those_holding_turns(
    stack, start_worker, group, redis_client
) -> None:
    store = RedisEventStore(redis_client)
    await store.ensure_turn_group(group, start="$")
    await store.publish_turn("ghost-table", 1, [0])
    turns = store.layout.turns(store.layout.shard_of("ghost-table"))
    await redis_client.xreadgroup(group, "holder", {turns: ">"}, count=1)  # holds a turn
    await redis_client.xreadgroup(group, "departed", {turns: ">"}, count=1)  # holds nothing
    worker = await start_worker(forget_after_ms=50, claim_idle_ms=60_000)
    await store.publish_turn("ghost-table", 1, [0])  # Redis lists a consumer once it was served
    for _ in range(100):
        if worker.stats.notices:
            break
        await asyncio.sleep(0.02)

    async def departed_is_idle() -> bool:
        consumers = await redis_client.xinfo_consumers(turns, group)
        # (The worker's own clean-up round may have forgotten it already.)
        return all(c["idle"] > 50 for c in consumers if c["name"] == b"departed")

    await until(departed_is_idle, "'departed' to be idle for longer than forget_after_ms")
    await worker._forget_departed()
    names = {c["name"].decode() for c in await redis_client.xinfo_consumers(turns, group)}
    assert "departed" not in names and {"holder", worker.settings.consumer} <= names


async def test_a_worker_killed_holding_a_turn_is_replaced_and_no_seat_moves_twice(stack, worker_process) -> None:
    # This worker thinks for seconds on every mcts move, so it is caught holding a turn.
    slow = worker_process("slow", ROUNDHOUSE_BOT_BUDGET_MS="4000", ROUNDHOUSE_BOT_ITERATIONS="1000000")
    await slow.ready()
    created = await stack.create([{"name": "M", "kind": "bot", "level": "mcts"},
                                  {"name": "R", "kind": "bot", "level": "random"}])
    table = created["table"]
    held: dict[str, int] = {}
    for _ in range(400):
        held = await pending(stack.redis_url, slow.group)
        if held.get("slow"):
            break
        await asyncio.sleep(0.025)
    assert held.get("slow") == 1, held
    seq_when_killed = (await stack.detail(table))["last_seq"]
    slow.kill9()
    fast = worker_process("fast", ROUNDHOUSE_BOT_ITERATIONS="5")
    await fast.ready()
    detail = await stack.wait_finished(table)
    stats = await fast.stop_off_loop()
    assert stats["claimed"] >= 1  # the killed worker's turn, taken over
    result, entries = await replay(stack.redis_url, table)
    assert msgspec.to_builtins(result) == detail["result"]
    assert_each_turn_played_once(entries)
    assert len(entries) > seq_when_killed
    assert not await pending(stack.redis_url, slow.group) or (await pending(stack.redis_url, slow.group)) == {"slow": 0}


async def test_one_person_and_three_bots_the_persons_socket_sees_every_bot_move(stack, start_worker) -> None:
    await start_worker()
    created = await stack.create([{"name": "Ada"}, {"name": "R", "kind": "bot", "level": "random"},
                                  {"name": "H", "kind": "bot", "level": "heuristic"},
                                  {"name": "M", "kind": "bot", "level": "mcts"}])
    table, token = created["table"], created["seats"][0]["token"]
    rng = random.Random(5)
    moves = 0
    async with Watcher(stack, table, token) as ada:
        while ada.view["result"] is None:
            seq = ada.seq
            if 0 in ada.view["active_seats"]:
                # Ada plays like a person: one of the legal actions the API offers her.
                status, legal = await stack.call("GET", f"/api/tables/{table}/legal", None, token)
                assert status == 200, legal
                offer = rng.choice(legal["actions"])
                action = dict(offer["action"])
                if offer.get("range"):
                    span = offer["range"]
                    action[span["field"]] = rng.randrange(span["min"], span["max"] + 1, span["step"])
                status, body = await stack.call("POST", f"/api/tables/{table}/actions", {
                    "expected_seq": seq, "idempotency_key": f"ada-{seq}", "action": action}, token)
                assert status == 201, body
                moves += 1
            await ada.until(seq + 1)
        last = ada.seq
    assert moves > 10
    assert [u["seq"] for u in ada.updates] == list(range(1, last + 1))
    bot_moves = [u for u in ada.updates if u["seat"] != 0]
    assert {u["seat"] for u in bot_moves} == {1, 2, 3}
    assert len(bot_moves) + moves == last
    _, entries = await replay(stack.redis_url, table)
    assert [(e.seq, e.seat) for e in entries] == [(u["seq"], u["seat"]) for u in ada.updates]


async def test_a_person_hands_a_seat_to_a_bot_and_takes_it_back(stack, start_worker) -> None:
    worker = await start_worker()
    created = await stack.create([{"name": "Ada"}, {"name": "R", "kind": "bot", "level": "random"}])
    table, token = created["table"], created["seats"][0]["token"]
    path = f"/api/tables/{table}/seats/0/controller"
    status, body = await stack.call("POST", path, {"kind": "bot", "level": "heuristic"}, token)
    assert status == 200, body
    assert body == {"seat": 0, "name": "Ada", "kind": "bot", "level": "heuristic", "table": table,
                    "seq": 0, "active_seats": [0]}
    for _ in range(400):  # the bot now plays Ada's seat (it was her turn: a notice went out)
        detail = await stack.detail(table)
        if detail["last_seq"] >= 30:
            break
        await asyncio.sleep(0.05)
    assert detail["seats"][0] == {"seat": 0, "name": "Ada", "kind": "bot", "level": "heuristic"}
    status, body = await stack.call("POST", path, {"kind": "human"}, token)
    assert status == 200 and body["kind"] == "human" and body["level"] is None, body
    handed_back = body["seq"]
    # Once it is Ada's turn again, nobody moves for her (a move the bot had already decided
    # and was sending when she took the seat back may still land, right after `handed_back`).
    for _ in range(400):
        detail = await stack.detail(table)
        if detail["active_seats"] == [0]:
            break
        await asyncio.sleep(0.05)
    assert detail["active_seats"] == [0]
    # The worker has handled every turn notice sent so far: whatever it was going to do, it did.
    await until(lambda: every_notice_handled(stack.redis_url, worker.settings.group),
                "the bot worker to handle every turn notice")
    still = await stack.detail(table)
    assert still["last_seq"] == detail["last_seq"] and still["seats"][0]["kind"] == "human"
    _, entries = await replay(stack.redis_url, table)
    assert any(e.seat == 0 and e.key.startswith("bot-") for e in entries)
    assert not [e for e in entries if e.seat == 0 and e.seq > handed_back + 1]
    # Her own token still plays her seat.
    state_view = (await stack.call("GET", f"/api/tables/{table}/legal", token=token))[1]
    legal = state_view["actions"][0]["action"]
    status, body = await stack.call("POST", f"/api/tables/{table}/actions", {
        "expected_seq": still["last_seq"], "idempotency_key": "ada-back", "action": legal}, token)
    assert status == 201, body


async def test_seat_handover_refusals(stack) -> None:
    created = await stack.create([{"name": "Ada"}, {"name": "Bob"}])
    table, ada = created["table"], created["seats"][0]["token"]
    path = f"/api/tables/{table}/seats/0/controller"
    cases = [
        (f"/api/tables/{table}/seats/1/controller", {"kind": "bot"}, ada, 403, "wrong_seat"),
        (path, {"kind": "bot", "level": "alphazero"}, ada, 422, "unknown_bot"),
        (path, {"kind": "human", "level": "mcts"}, ada, 422, "bad_request"),
        (path, {"kind": "robot"}, ada, 422, "bad_request"),
        (path, {"kind": "bot"}, None, 401, "missing_token"),
        (path, {"kind": "bot"}, stack.token("otherTable", 0), 403, "wrong_table"),
        ("/api/tables/nosuch/seats/0/controller", {"kind": "bot"}, stack.token("nosuch", 0), 404, "unknown_table"),
    ]
    for where, body, token, status, code in cases:
        got, reply = await stack.call("POST", where, body, token)
        assert (got, reply["error"]["code"]) == (status, code), (where, body, reply)
    detail = await stack.detail(table)
    assert [s["kind"] for s in detail["seats"]] == ["human", "human"]  # nothing changed
    got, reply = await stack.call("POST", path, {"kind": "bot"}, ada)  # no level: the default bot
    assert got == 200 and reply["level"] == "heuristic", reply


async def test_simultaneous_sealed_decisions_are_made_for_every_bot_seat(stack, start_worker) -> None:
    await start_worker(processes=2)
    tables = [
        (await stack.create([{"name": f"B{i}", "kind": "bot", "level": level}
                             for i, level in enumerate(["random", "heuristic", "mcts"])], title="sealed"))["table"]
        for _ in range(3)
    ]
    for table in tables:
        detail = await stack.wait_finished(table, timeout=60)
        result, entries = await replay(stack.redis_url, table)
        assert msgspec.to_builtins(result) == detail["result"]
        assert_each_turn_played_once(entries)
        # Three rounds; in each, all three seats played once.
        rounds = [sorted(e.seat for e in entries[i:i + 3]) for i in range(0, 9, 3)]
        assert len(entries) == 9 and rounds == [[0, 1, 2]] * 3


async def test_a_table_of_a_title_the_worker_lacks_is_skipped(stack, start_worker, redis_client) -> None:
    worker = await start_worker()
    store = RedisEventStore(redis_client)
    table = f"unplayable-{uuid.uuid4().hex[:8]}"
    meta = TableMeta(table=table, title="no-such-title", options={}, seats=[SeatSpec("b", "bot")],
                     seed=1, status="open", created_ms=1)
    await store.create_table(meta)
    await store.publish_turn(table, 0, [0])
    for _ in range(100):
        if worker.stats.notices:
            break
        await asyncio.sleep(0.02)
    assert worker.stats.notices == 1 and worker.stats.retries == 0 and worker.stats.moves == 0
