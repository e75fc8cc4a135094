"""Test helpers for the projection: a table driver that appends legal actions through the
real event store, and an engine wrapper that counts `view` calls."""

from __future__ import annotations

import secrets
import time
from collections import Counter
from typing import Any

import msgspec

from shared.engine import Engine, Redo, TitleMeta, Undo, action_to_builtins, default_options, encode_action, served_view
from shared.store import RedisEventStore, SeatSpec, TableMeta
from shared.timeline import Timeline


class CountingEngine:
    """Delegates to a real engine and counts view calls per seat (None = spectator).

    `public_view` overrides the title's declaration (shared.engine.Engine) so tests can
    exercise both the per-seat and the one-view-for-everyone fan-out with one real title.
    """

    def __init__(self, inner: Engine[Any], public_view: bool | None = None) -> None:
        self.inner = inner
        self.view_calls: Counter[int | None] = Counter()
        self.meta: TitleMeta = inner.meta
        self.title = inner.title
        self.action_type = inner.action_type
        self.state_type = inner.state_type
        if public_view is not None:
            self.public_view = public_view

    @property
    def public_view(self) -> bool:
        return self.meta.public_view

    @public_view.setter
    def public_view(self, value: bool) -> None:
        self.meta = msgspec.structs.replace(self.meta, public_view=value)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        self.view_calls[seat] += 1
        return self.inner.view(state, seat)


class TableDriver:
    """One table in the real store, played with legal actions; keeps every state for checks."""

    def __init__(self, store: RedisEventStore, engine: Engine[Any], players: int = 3, seed: int = 7) -> None:
        self.store = store
        self.engine = engine
        self.table = "t" + secrets.token_hex(6)
        self.seats = [f"P{i}" for i in range(players)]
        self.seed = seed
        self.options = default_options(engine)
        self.timeline = Timeline(engine, self.seats, self.options, seed)
        self.states: list[Any] = [self.timeline.state]  # states[seq]
        self.log: list[tuple[int, dict[str, Any]]] = [(-1, {})]  # log[seq] = (seat, action)

    async def create(self) -> TableDriver:
        meta = TableMeta(
            table=self.table,
            title=self.engine.title,
            options=self.options,
            seats=[SeatSpec(n) for n in self.seats],
            seed=self.seed,
            status="open",
            created_ms=int(time.time() * 1000),
        )
        await self.store.create_table(meta)
        return self

    @property
    def seq(self) -> int:
        return len(self.states) - 1

    def next_move(self) -> tuple[int, Any]:
        state = self.timeline.state
        seat = min(self.engine.active_seats(state))
        # Cycle through the legal options so the game moves on rather than repeating one choice.
        legal = self.engine.legal_actions(state, seat)
        return seat, legal[self.seq % len(legal)].action

    async def play(self, n: int = 1) -> None:
        for _ in range(n):
            seat, action = self.next_move()
            await self.append(seat, action)

    async def churn(self) -> None:
        """Undo, then redo, the last action: endless legal traffic that never ends the game."""
        if self.log[-1][1] == {"type": "undo"}:
            await self.append(self.timeline.redo[-1][1], Redo())
        else:
            await self.append(self.timeline.effective[-1][0], Undo())

    async def append(self, seat: int, action: Any) -> None:
        self.timeline.push(seat, action)
        out = await self.store.append(
            self.table, self.seq, seat, encode_action(action), secrets.token_hex(8), b"{}", int(time.time() * 1000)
        )
        assert out.status == "ok", out
        self.states.append(self.timeline.state)
        self.log.append((seat, action_to_builtins(action)))

    def view(self, seq: int, seat: int | None) -> Any:
        """The view the projection must send at `seq`, as JSON builtins."""
        return msgspec.json.decode(msgspec.json.encode(served_view(self.engine, self.states[seq], seat)))
