"""The retention sweeper (docs/running.md#retention): what the store keeps of a table, and for
how long, so that tables nobody plays any more do not fill it.

- Unstarted: removed `table_open_ttl` after creation (the meta's Redis expiry; its place in
  the budgets goes with it).
- Finished: compacted `table_compact_after` after its last move - the log, its chat and
  clock streams' growth end there; what stays is the meta with the result and the final
  position (a snapshot the cache-clearing tools leave alone) - then kept `table_finished_ttl`.
- Started but nobody moves for `table_abandon_after`: ended as abandoned (the standings at
  that point, as a clock's `abandon` does) and compacted at once.
- A running table's own Redis expiry (`table_idle_ttl`) stays as the backstop for a
  deployment that runs no sweeper.

Every game service replica sweeps: started tables are in a due index (keys.RETIRE) from
their first move, and each look re-reads the meta, so a move in between only moves the
date. The compaction script checks the log's last seq is still the one folded, so a move
that raced the sweeper is never lost (the table is looked at again instead).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from shared.store import FINISHED, OPEN
from shared.store.due import DueIndex
from shared.tables import LogBroken
from shared.timesource import now_ms

from services.game.clock import standings
from services.game.sweeping import sweep_forever

if TYPE_CHECKING:
    from services.game.service import GameService

log = logging.getLogger("roundhouse.game.retention")

DAY_MS = 24 * 3600 * 1000
# A table the sweeper cannot fold (its rules changed, its log broke) is looked at again then.
RETRY_MS = DAY_MS


class Retention:
    def __init__(self, service: GameService) -> None:
        self.service = service
        cfg = service.cfg
        self.compact_after_ms = int(cfg.table_compact_after * 1000)
        self.abandon_after_ms = int(cfg.table_abandon_after * 1000)
        self.kept_ms = int(cfg.table_finished_ttl * 1000)
        self.poll_s = max(0.01, cfg.retention_poll)
        store = service.store
        self.index = DueIndex(store.redis, store.layout, store.layout.retire)
        self.compacted = 0  # by this process (tests and metrics)

    def _after_ms(self, finished: bool) -> int:
        return self.compact_after_ms if finished else self.abandon_after_ms

    async def moved(self, table: str, status: str, at_ms: int) -> None:
        """A move changed the table's status (started, finished): when to look at it next."""
        after = self._after_ms(status == FINISHED)
        if status != OPEN and after:
            await self.index.set(table, at_ms + after)

    async def run(self) -> None:
        await sweep_forever(self.sweep, self.poll_s, log, "retention sweeper")

    async def sweep(self) -> int:
        """Look at every table whose date has come; returns how many."""
        due = await self.index.due(now_ms())
        for table in due:
            await self.examine(table)
        return len(due)

    async def examine(self, table: str) -> None:
        store = self.service.store
        meta = await store.get_meta(table)
        if meta is None or meta.status == OPEN or await store.compacted(table):
            await self.index.set(table, None)  # gone, never started (its expiry removes it) or done
            return
        finished = meta.status == FINISHED or meta.ended is not None
        after = self._after_ms(finished)
        now = now_ms()
        if not after:
            await self.index.set(table, None)
            return
        if meta.updated_ms + after > now:  # moved since it was scheduled
            await self.index.set(table, meta.updated_ms + after)
            return
        try:
            loaded = await self.service.tables.open(table)
        except LogBroken as exc:
            log.warning("retention: table %s is not folded (%s); kept as it is", table, exc.message)
            await self.index.set(table, now + RETRY_MS)
            return
        timeline, engine = loaded.timeline, loaded.engine
        result = meta.ended or engine.result(timeline.state)
        if result is None:
            days = self.abandon_after_ms / DAY_MS
            result = standings(engine, timeline.state, len(meta.seats), f"abandoned: no move for {days:g} days")
        snap = self.service.tables.snapshot(table, timeline)
        done = await store.compact(table, snap.seq, snap.blob, result, now, self.kept_ms)
        if done == -2:
            return  # a move came in between: still due, decided again next time
        await self.index.set(table, None)
        if done == 1:
            self.compacted += 1
            log.info("table %s compacted (%s)", table, "finished" if finished else "abandoned")
            if meta.status != FINISHED:
                await store.index_status(table, meta.created_ms, FINISHED)  # listed as finished; budgets freed
            hot = self.service.tables.peek(table)
            if hot is not None:
                hot.meta.ended = result
