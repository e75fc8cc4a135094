"""Projection-only knobs. Shared ones (Redis URL, secret, max_body, ws_send_timeout) stay in
`shared.config.Config`; these have defaults fit for production and env overrides."""

from __future__ import annotations

import os
from typing import Literal

import msgspec


class ProjectionSettings(msgspec.Struct, kw_only=True, frozen=True):
    # WebSocket ping interval, seconds; a peer that misses a pong for half of it is closed.
    heartbeat: float = 20.0
    # A socket that sends no hello this long after opening is closed.
    hello_timeout: float = 10.0
    # A client further behind than this gets a fresh welcome instead of a replay.
    replay_limit: int = 500
    # States kept per table for replays without touching Redis; older ones are re-folded.
    history: int = 64
    # Seconds a table's feed outlives its last socket, so a reconnect finds it warm.
    feed_grace: float = 5.0
    # Bytes queued for one socket before it is dropped as a slow consumer.
    max_queue_bytes: int = 4 * 1024 * 1024
    # "multi": one blocking XREAD over every table of the process; "per_table": one blocking
    # XREAD (and connection) per table. Measured (services/projection/bench_reads.py, 200
    # tables): a 1-key read costs ~170 us of client CPU per entry, a 200-key read ~570 us when
    # it returns one entry and ~40 us per entry when it returns 200; under load reads return
    # batches, and the fan-out benchmark (bench.py, 200 tables, ~600 actions/s) put the whole
    # projection at ~0.48 ms CPU per action with multi against ~0.61 ms with per_table.
    # Redis Cluster needs per_table: one XREAD may only name keys of one slot.
    reader: Literal["multi", "per_table"] = "multi"
    # Block time of one stream read; a change of the table set re-arms it at once.
    block_ms: int = 5000
    # Redis connections for reads that do not block (loading tables, replays, readiness).
    redis_connections: int = 32
    # permessage-deflate costs CPU per socket per frame (frames are encoded once, compressed N times).
    compress: bool = False

    @classmethod
    def from_env(cls, **overrides: object) -> ProjectionSettings:
        env = os.environ
        d = cls()
        s = cls(
            heartbeat=float(env.get("ROUNDHOUSE_WS_HEARTBEAT", d.heartbeat)),
            hello_timeout=float(env.get("ROUNDHOUSE_WS_HELLO_TIMEOUT", d.hello_timeout)),
            replay_limit=int(env.get("ROUNDHOUSE_WS_REPLAY_LIMIT", d.replay_limit)),
            history=int(env.get("ROUNDHOUSE_WS_HISTORY", d.history)),
            feed_grace=float(env.get("ROUNDHOUSE_WS_FEED_GRACE", d.feed_grace)),
            max_queue_bytes=int(env.get("ROUNDHOUSE_WS_MAX_QUEUE_BYTES", d.max_queue_bytes)),
            reader=env.get("ROUNDHOUSE_WS_READER", d.reader),  # type: ignore[arg-type]
            block_ms=int(env.get("ROUNDHOUSE_WS_BLOCK_MS", d.block_ms)),
            redis_connections=int(env.get("ROUNDHOUSE_WS_REDIS_CONNECTIONS", d.redis_connections)),
            compress=env.get("ROUNDHOUSE_WS_COMPRESS", "0").lower() in ("1", "true", "yes"),
        )
        s = msgspec.structs.replace(s, **overrides) if overrides else s
        if s.reader not in ("multi", "per_table"):
            raise ValueError(f"ROUNDHOUSE_WS_READER must be multi or per_table, not {s.reader!r}")
        return s
