"""History over the projection's WebSocket, against a real redis-server: `view_at` answers
exactly the engine's view of that seq for the asking socket's seat, with the log index for
stepping; a seat's past secrets reach that seat only; the folding happens in the history
worker thread, not on the event loop."""

from __future__ import annotations

import threading
from typing import Any

from shared.games import get_engine

from services.projection.history import round_label
from tests.projection.support import CountingEngine, TableDriver
from tests.projection.test_feed import hello, recv
from tests.titles.sealed import ENGINE as SEALED


async def ask(ws, seq: int, entries_after: int | None = None, rid: Any = 1) -> dict[str, Any]:
    await ws.send_json({"type": "view_at", "seq": seq, "id": rid, "entries_after": entries_after})
    while True:
        frame = await recv(ws)
        if frame["type"] in ("past_view", "error"):
            return frame


class ThreadNoting(CountingEngine):
    """Notes the threads `apply` runs in."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.apply_threads: set[str] = set()

    def apply(self, state: Any, seat: int, action: Any) -> Any:
        self.apply_threads.add(threading.current_thread().name)
        return self.inner.apply(state, seat, action)


async def test_view_at_is_the_engines_view_at_that_seq(start_app, store) -> None:
    inner = get_engine("chicago-express")
    engine = ThreadNoting(inner)
    driver = await TableDriver(store, inner).create()
    await driver.play(60)
    client = await start_app(engine_for=lambda title: engine)
    ws = await hello(client, driver.table, seat=1)
    assert (await recv(ws))["seq"] == 60
    engine.apply_threads.clear()
    first = await ask(ws, 0, entries_after=0)
    assert first["type"] == "past_view" and first["id"] == 1 and first["last_seq"] == 60
    assert first["view"] == driver.view(0, 1)
    # Chicago Express seals nothing: every seat's actions come whole (a sealed one would come
    # as its type alone, as in test_past_secrets_reach_their_seat_only).
    assert [(e["seq"], e["seat"], e["action"]) for e in first["entries"]] == [
        (seq, driver.log[seq][0], driver.log[seq][1]) for seq in range(1, 61)]
    assert [e["round"] for e in first["entries"]] == [round_label(inner, driver.states[s]) for s in range(1, 61)]
    assert len({e["round"] for e in first["entries"]}) > 1  # the game moved through rounds
    for seq in (1, 17, 33, 59, 60):
        reply = await ask(ws, seq, rid=f"s{seq}")
        assert reply["id"] == f"s{seq}" and reply["entries"] == []
        assert reply["view"] == driver.view(seq, 1), seq
    # Every fold for history ran in the history worker, none on the event loop's thread.
    assert engine.apply_threads and all(name.startswith("history") for name in engine.apply_threads), engine.apply_threads
    # Later entries arrive in the index as the game goes on.
    await driver.play(3)
    while (await recv(ws))["seq"] < 63:
        pass
    more = await ask(ws, 61, entries_after=60)
    assert [e["seq"] for e in more["entries"]] == [61, 62, 63] and more["view"] == driver.view(61, 1)
    bad = await ask(ws, 64)
    assert bad["type"] == "error" and bad["code"] == "bad_seq" and not bad["fatal"]
    await ws.close()


async def test_past_secrets_reach_their_seat_only(start_app, store) -> None:
    driver = await TableDriver(store, SEALED).create()
    # Round one: seat 0 plays a sealed card (seq 1), then seats 1 and 2 (the reveal at seq 3).
    await driver.play(4)
    client = await start_app(engine_for=lambda title: SEALED)
    sockets = {seat: await hello(client, driver.table, seat=seat) for seat in (0, 1, None)}
    for ws in sockets.values():
        await recv(ws)
    for seat, ws in sockets.items():
        for seq in range(0, 5):
            reply = await ask(ws, seq)
            assert reply["view"] == driver.view(seq, seat), (seat, seq)
    card = driver.log[1][1]["card"]
    # The index names who played, and the card only to the seat that played it.
    for seat, ws in sockets.items():
        first = (await ask(ws, 0, entries_after=0))["entries"][0]
        assert first["seat"] == 0
        assert first["action"] == ({"type": "play", "card": card} if seat == 0 else {"type": "play"})
    mine = (await ask(sockets[0], 1))["view"]
    theirs = (await ask(sockets[1], 1))["view"]
    watching = (await ask(sockets[None], 1))["view"]
    assert mine["played"][0] == card
    assert theirs["played"][0] is True and watching["played"][0] is True
    assert card not in theirs["hand"] and watching["hand"] is None
    for ws in sockets.values():
        await ws.close()
