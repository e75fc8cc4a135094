"""Past positions of a table (history stepping): the view at any seq, for any seat.

A table's history is kept in a `HistoryBook`: its own Timeline of the whole log, folded in
one worker thread shared by every book of the process, never on the event loop. The
Timeline keeps a state every `checkpoint_every` decisions, so a view at any seq costs at
most that many `apply` calls (in that thread) and a recent one nothing. The view is the
engine's `view(state, seat)` of that position, so a seat's secrets of then are shown to
that seat only, exactly as they were shown live; a spectator gets the spectator's view.

Each entry of the index also carries a round label (`round`): the engine's optional
`round_label(state)`, else what the spectator view declares (`view_round_label`: its
`round`, `phase` and `turn`). Pages use it to step back to where a round began.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec
from msgspec import Raw

from shared.engine import Engine, served_view, shown_to_others
from shared.protocol.ws import HistoryEntry
from shared.tables import EventStore, fold_entry
from shared.timeline import Timeline

_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history")


def round_label(engine: Engine[Any], state: Any) -> str | None:
    hook = getattr(engine, "round_label", None)
    if hook is not None:
        label = hook(state)
        return None if label is None else str(label)
    return view_round_label(engine.view(state, None))


def view_round_label(view: dict[str, Any]) -> str | None:
    """The round label a view declares: its `round` (at the top or in `position`), then its
    `phase` and `turn` there when it has them, joined by "/" ("1/build", "stock/2")."""
    where = view if "round" in view else view.get("position")
    if not isinstance(where, dict) or where.get("round") is None:
        return None
    parts = [where["round"], where.get("phase"), where.get("turn")]
    return "/".join(str(p) for p in parts if isinstance(p, (str, int)) and not isinstance(p, bool))


class HistoryBook:
    def __init__(self, engine: Engine[Any], seats: list[str], options: dict[str, Any], seed: int) -> None:
        self.engine = engine
        self.timeline: Timeline[Any] = Timeline(engine, seats, options, seed)
        self.entries: list[HistoryEntry] = []
        # The same entries as every seat but the actor is told of them: a sealed action (a
        # secret vote, a sealed bid: Engine.sealed) cut to its type, as the live feed does.
        self.public: list[HistoryEntry] = []
        self.setup_round = round_label(engine, self.timeline.state)
        self._lock = asyncio.Lock()

    @property
    def seq(self) -> int:
        return self.timeline.length

    def _fold(self, table: str, logged: list[Any]) -> None:
        for e in logged:
            if e.seq <= self.timeline.length:
                continue
            state, action = fold_entry(self.timeline, e, table)
            label = round_label(self.engine, state)
            canonical = e.action  # stored canonical: passed on as it is
            self.entries.append(HistoryEntry(seq=e.seq, seat=e.seat, action=Raw(canonical), t=e.t_ms, round=label))
            told = shown_to_others(self.engine, action, canonical)
            self.public.append(HistoryEntry(seq=e.seq, seat=e.seat, action=Raw(told), t=e.t_ms, round=label))

    async def catch_up(self, table: str, store: EventStore, seq: int) -> None:
        """Fold the log up to at least `seq` (in the worker thread)."""
        async with self._lock:
            if self.seq >= seq:
                return
            logged = await store.read(table, self.seq)
            await asyncio.get_running_loop().run_in_executor(_POOL, self._fold, table, logged)

    def _view(self, seq: int, seat: int | None) -> bytes:
        state = self.timeline.state_after(self.timeline.heads[seq])
        return msgspec.json.encode(served_view(self.engine, state, seat))

    async def view_at(self, seq: int, seat: int | None) -> bytes:
        async with self._lock:
            return await asyncio.get_running_loop().run_in_executor(_POOL, self._view, seq, seat)

    def index(self, after: int, upto: int, seat: int | None) -> list[HistoryEntry]:
        """Entries after seq `after` up to `upto`: whole for `seat`'s own, others' as they are told."""
        lo = max(0, after)
        return [mine if mine.seat == seat else other
                for mine, other in zip(self.entries[lo:upto], self.public[lo:upto])]
