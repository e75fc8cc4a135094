"""Snapshots are a cache: restoring one gives the same table as folding the log, and
deleting them changes no result."""

from __future__ import annotations

import msgspec

from shared.engine import Redo, Undo, decode_action, encode_action
from shared.store import RedisEventStore
from shared.tables.snapshot import encode_timeline, restore_timeline
from shared.timeline import Timeline

from tests.titles.nim import ENGINE, Take

SEATS = ["a", "b", "c"]
OPTIONS = {"pile": 40, "max_take": 4}
SEED = 7


def fresh() -> Timeline:
    return Timeline(ENGINE, SEATS, OPTIONS, SEED)


def same(a: Timeline, b: Timeline) -> bool:
    def redo(t: Timeline) -> list[tuple[int, int]]:
        return [(node.seq, seat) for node, seat in t.redo]

    return (a.state, a.effective, redo(a), a.length) == (b.state, b.effective, redo(b), b.length)


def test_round_trip_keeps_state_and_undo_history():
    tl = fresh()
    for n in (1, 2, 3):
        tl.push(tl.state.turn, Take(n))
    last = tl.effective[-1][0]
    tl.push(last, Undo())
    back = restore_timeline(ENGINE, SEATS, OPTIONS, SEED, encode_timeline(tl))
    assert back is not None and same(back, tl)
    # The restored history still drives undo/redo like the original.
    back.push(last, Redo())
    tl.push(last, Redo())
    assert same(back, tl)
    back.push(last, Undo())
    tl.push(last, Undo())
    assert same(back, tl)


def test_unusable_snapshots_are_ignored():
    blob = encode_timeline(fresh())
    assert restore_timeline(ENGINE, SEATS, OPTIONS, SEED, b"garbage") is None
    assert restore_timeline(ENGINE, SEATS, OPTIONS, SEED, blob[:-3]) is None
    other_title = msgspec.msgpack.encode((1, "other", 0, None, [], []))
    assert restore_timeline(ENGINE, SEATS, OPTIONS, SEED, other_title) is None
    future_format = msgspec.msgpack.encode((99, "nim", 0, None, [], []))
    assert restore_timeline(ENGINE, SEATS, OPTIONS, SEED, future_format) is None


async def fold(store: RedisEventStore, table: str) -> Timeline:
    """What a service does on a cold load: latest snapshot if usable, then the log after it."""
    tl = None
    snap = await store.load_snapshot(table)
    if snap is not None:
        tl = restore_timeline(ENGINE, SEATS, OPTIONS, SEED, snap[1])
    tl = tl or fresh()
    for entry in await store.read(table, tl.length):
        tl.push(entry.seat, decode_action(ENGINE, entry.action))
    return tl


async def test_deleting_snapshots_changes_no_result(store, make_meta):
    meta = make_meta(title="nim", options=OPTIONS, seed=SEED)
    await store.create_table(meta)
    live = fresh()
    seq = 0
    while ENGINE.result(live.state) is None:
        seat = live.state.turn
        action: Take | Undo = Take(min(1 + seq % 3, live.state.piles[0]))
        if seq % 5 == 4:
            action = Undo()
            seat = live.effective[-1][0]
        live.push(seat, action)
        out = await store.append(meta.table, seq, seat, encode_action(action), f"k{seq}", b"r", seq)
        assert out.status == "ok"
        seq = out.seq
        if seq % 4 == 0:
            await store.save_snapshot(meta.table, seq, encode_timeline(live))
    with_snap = await fold(store, meta.table)
    assert (await store.load_snapshot(meta.table))[0] > 0
    assert await store.delete_snapshots() >= 1
    without = await fold(store, meta.table)
    assert same(with_snap, live) and same(without, live)
    assert ENGINE.result(without.state) == ENGINE.result(live.state) is not None
