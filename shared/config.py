"""Service configuration from environment variables (12-factor); one place for every knob."""

from __future__ import annotations

import os
import secrets

import msgspec


class Config(msgspec.Struct, kw_only=True):
    redis_url: str = "redis://127.0.0.1:6379/0"
    # HMAC key for seat tokens. Services that share tables must share it; dev generates one.
    secret: bytes = b""
    # Largest accepted HTTP body / WebSocket frame, bytes.
    max_body: int = 64 * 1024
    # Snapshot a table every N actions (a cache only; 0 disables).
    snapshot_every: int = 100
    # Seconds a WebSocket may fall behind (unread send buffer) before it is dropped.
    ws_send_timeout: float = 5.0
    # Game service: tables kept hot in memory.
    hot_tables: int = 10_000

    @classmethod
    def from_env(cls, **overrides: object) -> "Config":
        env = os.environ
        secret = env.get("ROUNDHOUSE_SECRET")
        # Struct fields are descriptors on the class; the defaults live on an instance.
        default = cls()
        cfg = cls(
            redis_url=env.get("REDIS_URL", default.redis_url),
            secret=secret.encode() if secret else secrets.token_bytes(32),
            max_body=int(env.get("ROUNDHOUSE_MAX_BODY", default.max_body)),
            snapshot_every=int(env.get("ROUNDHOUSE_SNAPSHOT_EVERY", default.snapshot_every)),
            ws_send_timeout=float(env.get("ROUNDHOUSE_WS_SEND_TIMEOUT", default.ws_send_timeout)),
            hot_tables=int(env.get("ROUNDHOUSE_HOT_TABLES", default.hot_tables)),
        )
        return msgspec.structs.replace(cfg, **overrides) if overrides else cfg
