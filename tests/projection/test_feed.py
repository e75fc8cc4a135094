"""Welcome, live updates, replays and the shared per-table feed, over real WebSockets."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient

from shared.protocol.json_patch import apply

from tests.waiting import blocked_stream_reads, until_blocked_in_read

from .conftest import hub_of, projection_of, token
from .support import TableDriver

TIMEOUT = 5.0


async def hello(client: TestClient, table: str, seat: int | None = None, last_seq: int = 0, **extra: Any):
    ws = await client.ws_connect("/ws")
    msg: dict[str, Any] = {"type": "hello", "v": 1, "table": table, "last_seq": last_seq, **extra}
    if seat is not None:
        msg["token"] = token(table, seat)
    await ws.send_str(msgspec.json.encode(msg).decode())
    return ws


async def recv(ws) -> dict[str, Any]:
    msg = await ws.receive(timeout=TIMEOUT)
    assert msg.type == WSMsgType.TEXT, msg
    return msgspec.json.decode(msg.data)


def check_update(frame: dict[str, Any], driver: TableDriver, seq: int, seat: int | None) -> None:
    assert frame["type"] == "update"
    assert frame["seq"] == seq
    actor, action = driver.log[seq]
    assert frame["seat"] == actor
    assert frame["action"] == action
    assert "view" not in frame
    # The patch turns this seat's view at seq - 1 into its view at seq.
    assert apply(driver.view(seq - 1, seat), frame["patch"]) == driver.view(seq, seat)
    assert isinstance(frame["t"], int) and frame["t"] > 0


async def test_welcome_carries_the_seats_view_at_the_current_seq(client, driver):
    await driver.play(3)
    ws = await hello(client, driver.table, seat=1)
    welcome = await recv(ws)
    assert welcome == {
        "type": "welcome",
        "v": 1,
        "table": driver.table,
        "title": driver.engine.title,
        "seat": 1,
        "seq": 3,
        "resumed": False,
        "view": driver.view(3, 1),
    }


async def test_updates_arrive_in_order_as_entries_are_appended(client, driver):
    await driver.play(2)
    ws = await hello(client, driver.table, seat=0)
    assert (await recv(ws))["seq"] == 2
    await driver.play(5)
    for seq in range(3, 8):
        check_update(await recv(ws), driver, seq, 0)


async def test_spectator_gets_the_spectator_view(client, driver):
    await driver.play(2)
    ws = await hello(client, driver.table)
    welcome = await recv(ws)
    assert welcome["seat"] is None and welcome["view"] == driver.view(2, None)
    await driver.play(1)
    check_update(await recv(ws), driver, 3, None)


@pytest.mark.parametrize(
    ("public_view", "expected_calls"),
    [(False, {0: 4, 1: 4, None: 4}), (True, {None: 4})],
    ids=["per-seat-views", "public-view"],
)
async def test_sockets_of_one_table_share_one_feed_and_one_view_per_seat(
    client, driver, engine, public_view, expected_calls
):
    engine.public_view = public_view
    await driver.play(1)
    sockets = [
        await hello(client, driver.table, seat=0),
        await hello(client, driver.table, seat=0),
        await hello(client, driver.table, seat=1),
        await hello(client, driver.table),
        await hello(client, driver.table),
    ]
    for ws in sockets:
        assert (await recv(ws))["type"] == "welcome"
    hub = hub_of(client)
    assert list(hub.feeds) == [driver.table]
    assert hub.feeds[driver.table].watcher_count == 5

    engine.view_calls.clear()
    await driver.play(4)
    for ws, seat in zip(sockets, (0, 0, 1, None, None)):
        for seq in range(2, 6):
            check_update(await recv(ws), driver, seq, seat)
    # One view per distinct watching seat per update (seat 0, seat 1, spectators), not one
    # per socket; a title without hidden information (public_view) needs only one in all.
    assert dict(engine.view_calls) == expected_calls


async def test_reconnect_in_the_middle_gets_exactly_the_missing_updates(client, driver):
    await driver.play(2)
    ws = await hello(client, driver.table, seat=2)
    assert (await recv(ws))["seq"] == 2
    await driver.play(3)
    frames = [await recv(ws) for _ in range(3)]
    assert [f["seq"] for f in frames] == [3, 4, 5]
    await ws.close()
    await driver.play(4)  # seq 6..9 happen while the client is away

    ws = await hello(client, driver.table, seat=2, last_seq=5)
    welcome = await recv(ws)
    assert welcome["type"] == "welcome" and welcome["resumed"] is True
    assert welcome["seq"] == 5 and welcome["view"] is None
    for seq in range(6, 10):
        check_update(await recv(ws), driver, seq, 2)
    await driver.play(1)
    check_update(await recv(ws), driver, 10, 2)
    with pytest.raises(asyncio.TimeoutError):  # and no duplicate after it
        await ws.receive(timeout=0.2)


async def test_resume_at_the_current_seq_sends_no_replay(client, driver):
    await driver.play(3)
    ws = await hello(client, driver.table, seat=0, last_seq=3)
    welcome = await recv(ws)
    assert (welcome["seq"], welcome["resumed"], welcome["view"]) == (3, True, None)
    await driver.play(1)
    check_update(await recv(ws), driver, 4, 0)


async def test_restarted_service_resumes_without_gap_or_duplicate(start_app, driver):
    first = await start_app()
    await driver.play(2)
    ws = await hello(first, driver.table, seat=1)
    assert (await recv(ws))["seq"] == 2
    await driver.play(2)
    assert [(await recv(ws))["seq"] for _ in range(2)] == [3, 4]
    await first.close()  # the whole service goes away

    await driver.play(3)
    second = await start_app()  # a new process's worth of state, rebuilt from Redis
    ws = await hello(second, driver.table, seat=1, last_seq=4)
    welcome = await recv(ws)
    assert (welcome["seq"], welcome["resumed"]) == (4, True)
    for seq in (5, 6, 7):
        check_update(await recv(ws), driver, seq, 1)
    await driver.play(1)
    check_update(await recv(ws), driver, 8, 1)


async def test_replay_older_than_memory_history_refolds_the_log(start_app, driver):
    client = await start_app(history=2)
    await driver.play(10)
    ws = await hello(client, driver.table, seat=0, last_seq=3)
    welcome = await recv(ws)
    assert (welcome["seq"], welcome["resumed"]) == (3, True)
    for seq in range(4, 11):
        check_update(await recv(ws), driver, seq, 0)
    assert projection_of(client).metrics.counts["cold_replays_total"] == 1


async def test_client_too_far_behind_gets_a_fresh_welcome(start_app, driver):
    client = await start_app(replay_limit=3)
    await driver.play(6)
    ws = await hello(client, driver.table, seat=0, last_seq=2)
    welcome = await recv(ws)
    assert (welcome["seq"], welcome["resumed"], welcome["view"]) == (6, False, driver.view(6, 0))


async def test_client_ahead_of_the_log_gets_a_fresh_welcome(client, driver):
    await driver.play(2)
    ws = await hello(client, driver.table, seat=0, last_seq=50)
    welcome = await recv(ws)
    assert (welcome["seq"], welcome["resumed"], welcome["view"]) == (2, False, driver.view(2, 0))


async def test_cold_feed_starts_from_the_snapshot(start_app, driver, store):
    from shared.tables.snapshot import encode_timeline

    await driver.play(5)
    await store.save_snapshot(driver.table, 5, encode_timeline(driver.timeline))
    await driver.play(2)
    client = await start_app()
    ws = await hello(client, driver.table, seat=0)
    assert (await recv(ws))["view"] == driver.view(7, 0)
    feed = hub_of(client).feeds[driver.table]
    assert [e.seq for e in feed.history] == [6, 7]  # folded only what followed the snapshot


async def test_unusable_snapshot_is_ignored(start_app, driver, store):
    await driver.play(3)
    await store.save_snapshot(driver.table, 3, b"not a snapshot")
    client = await start_app()
    ws = await hello(client, driver.table, seat=2)
    assert (await recv(ws))["view"] == driver.view(3, 2)
    assert [e.seq for e in hub_of(client).feeds[driver.table].history] == [1, 2, 3]


async def test_feed_stops_after_the_last_socket_leaves(client, driver):
    ws = await hello(client, driver.table, seat=0)
    await recv(ws)
    hub = hub_of(client)
    assert driver.table in hub.feeds
    await ws.close()
    for _ in range(100):
        if driver.table not in hub.feeds:
            break
        await asyncio.sleep(0.02)
    assert driver.table not in hub.feeds


async def test_per_table_reader_mode_delivers_the_same(start_app, driver):
    client = await start_app(reader="per_table")
    ws = await hello(client, driver.table, seat=0)
    await recv(ws)
    await driver.play(3)
    for seq in (1, 2, 3):
        check_update(await recv(ws), driver, seq, 0)


async def test_undo_and_redo_arrive_as_updates_with_the_folded_view(client, driver):
    await driver.play(3)
    ws = await hello(client, driver.table, seat=0)
    await recv(ws)
    await driver.churn()  # undo seq 3's action
    await driver.churn()  # redo it
    undo, redo = await recv(ws), await recv(ws)
    assert undo["action"] == {"type": "undo"} and redo["action"] == {"type": "redo"}
    check_update(undo, driver, 4, 0)
    check_update(redo, driver, 5, 0)
    after_undo = apply(driver.view(3, 0), undo["patch"])
    assert after_undo == driver.view(2, 0)  # the undone action is taken back
    assert apply(after_undo, redo["patch"]) == driver.view(3, 0)


async def test_a_new_table_is_read_at_once_while_the_reader_blocks_on_others(start_app, store, engine):
    client = await start_app(reader="multi", block_ms=30_000)
    first = await TableDriver(store, engine.inner).create()
    second = await TableDriver(store, engine.inner).create()
    before = await blocked_stream_reads(store.redis)
    ws1 = await hello(client, first.table, seat=0)
    await recv(ws1)
    hub = hub_of(client)
    assert set(hub.feeds) == {first.table}
    # The reader is now blocked (for up to 30 s) on the first table alone.
    await until_blocked_in_read(store.redis, before, "the multi reader to block on the first table")
    ws2 = await hello(client, second.table, seat=0)
    await recv(ws2)
    await second.play(1)
    # Without re-arming, this would wait for the 30 s block to end.
    check_update(await asyncio.wait_for(recv(ws2), 3), second, 1, 0)
    await first.play(1)
    check_update(await asyncio.wait_for(recv(ws1), 3), first, 1, 0)


async def test_a_replay_bigger_than_the_send_queue_is_streamed_not_dropped(start_app, driver):
    client = await start_app(max_queue_bytes=2_000, history=100)
    await driver.play(31)
    ws = await hello(client, driver.table, seat=1, last_seq=1)
    assert (await recv(ws))["resumed"] is True
    replayed = 0
    for seq in range(2, 32):
        msg = await ws.receive(timeout=TIMEOUT)
        replayed += len(msg.data)
        check_update(msgspec.json.decode(msg.data), driver, seq, 1)
    assert replayed > 2 * 2_000  # the replay's patches exceed the queue bound
    assert projection_of(client).metrics.counts["slow_clients_dropped_total"] == 0


async def test_updates_carry_small_patches_not_views(client, driver):
    await driver.play(5)
    ws = await hello(client, driver.table, seat=0)
    welcome = await ws.receive(timeout=TIMEOUT)
    await driver.play(5)
    updates = [await ws.receive(timeout=TIMEOUT) for _ in range(5)]
    held = msgspec.json.decode(welcome.data)["view"]
    for seq, msg in enumerate(updates, start=6):
        held = apply(held, msgspec.json.decode(msg.data)["patch"])
        assert held == driver.view(seq, 0)
        # A Chicago Express view is tens of kB (mostly the unchanging map); its patch is not.
        assert len(msg.data) * 10 < len(welcome.data)


async def test_resume_just_before_the_memory_history_needs_no_refold(start_app, driver):
    client = await start_app(history=3)
    await driver.play(10)  # history keeps seqs 8..10, and the state at 7 as their patches' base
    ws = await hello(client, driver.table, seat=2, last_seq=7)
    assert (await recv(ws))["resumed"] is True
    for seq in (8, 9, 10):
        check_update(await recv(ws), driver, seq, 2)
    assert projection_of(client).metrics.counts.get("cold_replays_total", 0) == 0


async def test_resume_at_the_snapshot_a_feed_started_from_needs_no_refold(start_app, driver, store):
    from shared.tables.snapshot import encode_timeline

    await driver.play(4)
    await store.save_snapshot(driver.table, 4, encode_timeline(driver.timeline))
    await driver.play(2)
    client = await start_app()
    ws = await hello(client, driver.table, seat=1, last_seq=4)
    assert (await recv(ws))["resumed"] is True
    for seq in (5, 6):
        check_update(await recv(ws), driver, seq, 1)
    assert projection_of(client).metrics.counts.get("cold_replays_total", 0) == 0


async def test_sockets_arriving_together_at_a_cold_table_share_one_load(client, driver, store, monkeypatch):
    await driver.play(3)
    loads = 0
    real_get_meta = type(store).get_meta

    async def counting_get_meta(self, table):
        nonlocal loads
        loads += 1
        return await real_get_meta(self, table)

    monkeypatch.setattr(type(store), "get_meta", counting_get_meta)
    sockets = await asyncio.gather(*(hello(client, driver.table, seat=i % 3) for i in range(10)))
    welcomes = [await recv(ws) for ws in sockets]
    assert {(w["type"], w["seq"]) for w in welcomes} == {("welcome", 3)}
    assert loads == 1
    assert hub_of(client).feeds[driver.table].watcher_count == 10
