"""`roundhouse import-18xx --to-table`: store an imported game as a table, so the game
service, the projection and the bot worker open it through the one loader like any other.

The table's log is exactly what the import folded (decisions, undo and redo entries), appended
entry by entry with the same check the game service makes (each append expects the previous
seq); its meta carries the export's seed, the title's options with undo "any", and the rules
version, so the loader folds it to the same state. Each entry carries the seats it made
active and the meta a clock record (`--clock`, else `none`), as a table the game service
creates has: the clock, the clock watch and the turn notices treat it like any other.
"""

from __future__ import annotations

import base64
import os
import secrets
from typing import Any

import msgspec

from shared import auth
from shared.bots import BOT_NAMES
from shared.clock import ClockRecord, ClockSpec, clock_refusal
from shared.engine import encode_action
from shared.options import resolve_options
from shared.store import RedisEventStore, SeatSpec, TableMeta
from shared.store.clock import ClockStore
from shared.store.connect import STORE_ERRORS, connect
from shared.store.models import FINISHED, RUNNING, TableExists
from shared.timesource import now_ms

from services.offline.errors import OfflineError


def _table_id() -> str:
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()


def parse_clock(text: str | None) -> ClockSpec:
    """`--clock`'s JSON, refused as `POST /api/tables` refuses it (one line, exit status 2)."""
    if text is None:
        return ClockSpec()
    try:
        spec = msgspec.json.decode(text, type=ClockSpec)
    except msgspec.DecodeError as exc:
        raise OfflineError(f"clock: bad_clock: {exc}", 2) from None
    refusal = clock_refusal(spec, BOT_NAMES)
    if refusal:
        raise OfflineError(f"clock: {refusal[0]}: {refusal[1]}", 2)
    return spec


async def store_table(run: Any, redis_url: str, clock: ClockSpec | None = None) -> dict[str, Any]:
    timeline, engine = run.timeline, run.engine
    spec = clock or ClockSpec()
    options = resolve_options(engine.meta, timeline.options)
    finished = engine.result(timeline.state) is not None
    client = connect(redis_url)
    try:
        store = RedisEventStore(client)
        created = now_ms()
        while True:
            meta = TableMeta(table=_table_id(), title=engine.title, options=options,
                             seats=[SeatSpec(name) for name in timeline.seats], seed=timeline.seed,
                             status=RUNNING, created_ms=created, rules_version=engine.meta.rules_version,
                             clock=ClockRecord(spec=spec, start_ms=created, active=run.initial_active, bots=[]))
            try:
                await store.create_table(meta)
                break
            except TableExists:
                continue
        last = len(run.entries)
        for seq, (seat, action) in enumerate(run.entries):
            status = (FINISHED if finished else RUNNING) if seq + 1 == last else None
            outcome = await store.append(meta.table, seq, seat, encode_action(action), f"import-{seq + 1}", b"{}",
                                         now_ms(), status, active=run.active[seq])
            if outcome.status != "ok":
                raise OfflineError(f"store: append_failed: entry {seq + 1}: {outcome.status}", 3)
        if spec.kind != "none" and not finished:
            # Only a hint of when to look: the first clock watch to run computes the clock
            # from the log just written and sets the real deadline.
            await ClockStore(store).set_deadline(meta.table, now_ms())
    except STORE_ERRORS as exc:
        raise OfflineError(f"store: cannot reach Redis at {redis_url}: {exc}", 2) from None
    finally:
        await client.aclose()
    out: dict[str, Any] = {"table": meta.table, "seq": last}
    secret = os.environ.get("ROUNDHOUSE_SECRET")
    if secret:
        out["seats"] = [{"seat": i, "name": name, "token": auth.issue(secret.encode(), meta.table, i)}
                        for i, name in enumerate(timeline.seats)]
    return out
