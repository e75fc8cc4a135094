"""Service configuration from environment variables (12-factor); one place for every knob.

The limits (docs/running.md#security) are per client address and per process: each game
service replica counts on its own. Their defaults are generous enough for `roundhouse bench
live` (1,000 actions/s over 200 tables from one loopback address) and the test suite, and
tight enough that one client cannot starve the others; tune them with the variables below.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from typing import Any

import msgspec

# Seat-token secrets shorter than this are refused by `roundhouse game` / `projection`.
MIN_SECRET_BYTES = 32


def env_number(env: Mapping[str, str], name: str, default: float, kind: type = int) -> object:
    """The variable `name` as a number >= 0 of `kind`, or `default` when unset or empty."""
    text = env.get(name)
    if text is None or text == "":
        return default
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {text!r}") from None
    if value < 0:
        raise ValueError(f"{name} must be >= 0, not {text!r}")
    return value


class RateLimit(msgspec.Struct, frozen=True):
    """A token bucket: `burst` at once, refilled at `per_s` a second. per_s <= 0: unlimited."""

    per_s: float
    burst: float

    @property
    def enabled(self) -> bool:
        return self.per_s > 0

    @classmethod
    def parse(cls, name: str, text: str) -> RateLimit:
        """`<per second>/<burst>` (e.g. `10/300`), or `0` / `off` for no limit."""
        if text.strip().lower() in ("0", "off", "none"):
            return cls(0.0, 0.0)
        rate, sep, burst = text.partition("/")
        try:
            per_s = float(rate)
            size = float(burst) if sep else max(1.0, per_s)
        except ValueError:
            raise ValueError(f"{name} must be <per second>/<burst> (e.g. 10/300) or off, not {text!r}") from None
        if per_s < 0 or size < 1:
            raise ValueError(f"{name}: the rate must be >= 0 and the burst >= 1, not {text!r}")
        return cls(per_s, size)


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
    # The URL people reach this deployment at (invite links are built from it, never from
    # the request's Host header). Empty: invite links are relative (`/#table=...`).
    public_url: str = ""
    # Browser origins allowed to call the API cross-site (CORS); empty: same origin only.
    cors_origins: tuple[str, ...] = ()
    # Host names writes may be addressed to besides IP addresses, localhost and the public
    # URL's host (DNS rebinding: a page's own name pointed at this server): `name`, `.name`
    # (it and its subdomains) or `*` (any). Lower case, without a port.
    allowed_hosts: tuple[str, ...] = ()
    # Bearer token for /api/metrics and /live/metrics; empty: those answer loopback peers only.
    metrics_token: str = ""
    # A header a trusted reverse proxy sets to the client's address (e.g. X-Real-IP); empty:
    # limits count per TCP peer address.
    client_ip_header: str = ""
    # --- limits (per client address, per process) ---
    limit_create: RateLimit = RateLimit(10.0, 300.0)  # tables created
    limit_bot_tables: RateLimit = RateLimit(0.2, 20.0)  # of which with no human seat
    limit_actions: RateLimit = RateLimit(2000.0, 4000.0)  # actions, undos, seat handovers
    # Per table: undo and redo entries (a bucket, so a real undo is never refused).
    limit_undo: RateLimit = RateLimit(1.0, 60.0)
    # Per table: log entries at most (a game of 1841 is a few thousand).
    max_log: int = 50_000
    # Open connections per client address (HTTP and WebSocket), per process.
    max_connections_per_client: int = 4096
    # Seconds to send a request's headers (and idle time between keep-alive requests), and
    # to send its body.
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    # Reads (listings, table details, legal actions) per client address, as a cost: a
    # listing costs 1 + limit/2 (its rows are what it costs: 200 of them about 15 submits'
    # CPU), any other read 1.
    limit_reads: RateLimit = RateLimit(100.0, 400.0)
    # WebSockets without a seat token (spectators) per client address, per process.
    max_watchers_per_client: int = 256
    # --- the store's budget (for the whole service, not one address) ---
    # Tables created per second by all clients of one process together.
    limit_create_all: RateLimit = RateLimit(10.0, 50.0)
    # Tables made bot-only (created so, or the last person's seat handed to a bot) per second
    # by all clients of one process together.
    limit_bot_tables_all: RateLimit = RateLimit(1.0, 20.0)
    # Unstarted tables (no action logged yet) per client address, and in the whole store.
    max_open_tables_per_client: int = 500
    max_open_tables: int = 20_000
    # Unfinished tables (unstarted or running: one move does not take a table out of its
    # creator's count) per client address, and in the whole store.
    max_tables_per_client: int = 1_000
    max_tables: int = 200_000
    # Tables where every seat is a bot, at once, per creating address and in all, whatever
    # made them so: created so, seats handed over, a clock that gave a seat to a bot (then,
    # over the budget, the table is abandoned instead).
    max_bot_tables_per_client: int = 20
    max_bot_tables: int = 1_000
    # Fraction of Redis's maxmemory kept for the moves of existing tables: new tables are
    # refused (507 store_full) once used memory is above the rest. 0: only a full Redis refuses.
    store_reserve: float = 0.10
    # Expiry (seconds; 0 keeps forever): an unstarted table after its creation, a running
    # table after its last action (abandoned), a finished table after its last action.
    table_open_ttl: float = 24 * 3600.0
    table_idle_ttl: float = 30 * 24 * 3600.0
    table_finished_ttl: float = 180 * 24 * 3600.0
    # Retention (services/game/retention.py): a finished table is compacted to its result and
    # final position this long after its last move (the log goes; the compacted table is then
    # kept table_finished_ttl); a started table with no move this long is ended as abandoned
    # (standings at that point) and compacted. 0: never. Seconds between the sweeper's looks.
    table_compact_after: float = 7 * 24 * 3600.0
    table_abandon_after: float = 14 * 24 * 3600.0
    retention_poll: float = 60.0
    # Game service: seconds between looks at the deadline index of table clocks (a seat that
    # runs out is dealt with within this; moves by a seat out of time are refused at once).
    clock_poll: float = 1.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Config:
        env = os.environ if env is None else env
        secret = env.get("ROUNDHOUSE_SECRET")
        # Struct fields are descriptors on the class; the defaults live on an instance. (The
        # helpers' names end in `get(` so tests/dev/test_deploy_files.py finds every variable.)
        d = cls()

        # Any: the value is of `kind`, which is the type of the field it is given to.
        def num_get(name: str, default: float, kind: type = int) -> Any:
            return env_number(env, name, default, kind)

        def rate_get(name: str, default: RateLimit) -> RateLimit:
            text = env.get(name)
            return default if not text else RateLimit.parse(name, text)

        cfg = cls(
            redis_url=env.get("REDIS_URL", d.redis_url),
            secret=secret.encode() if secret else secrets.token_bytes(32),
            max_body=num_get("ROUNDHOUSE_MAX_BODY", d.max_body),
            snapshot_every=num_get("ROUNDHOUSE_SNAPSHOT_EVERY", d.snapshot_every),
            ws_send_timeout=num_get("ROUNDHOUSE_WS_SEND_TIMEOUT", d.ws_send_timeout, float),
            hot_tables=num_get("ROUNDHOUSE_HOT_TABLES", d.hot_tables),
            public_url=env.get("ROUNDHOUSE_PUBLIC_URL", d.public_url).rstrip("/"),
            cors_origins=tuple(o.strip().rstrip("/") for o in env.get("ROUNDHOUSE_CORS_ORIGINS", "").split(",")
                               if o.strip()),
            allowed_hosts=tuple(h.strip().lower().rstrip(".") for h in env.get("ROUNDHOUSE_ALLOWED_HOSTS", "").split(",")
                                if h.strip()),
            metrics_token=env.get("ROUNDHOUSE_METRICS_TOKEN", d.metrics_token),
            client_ip_header=env.get("ROUNDHOUSE_CLIENT_IP_HEADER", d.client_ip_header),
            limit_create=rate_get("ROUNDHOUSE_LIMIT_CREATE", d.limit_create),
            limit_bot_tables=rate_get("ROUNDHOUSE_LIMIT_BOT_TABLES", d.limit_bot_tables),
            limit_actions=rate_get("ROUNDHOUSE_LIMIT_ACTIONS", d.limit_actions),
            limit_undo=rate_get("ROUNDHOUSE_LIMIT_UNDO", d.limit_undo),
            max_log=num_get("ROUNDHOUSE_MAX_LOG", d.max_log),
            max_connections_per_client=num_get("ROUNDHOUSE_MAX_CONNECTIONS_PER_CLIENT", d.max_connections_per_client),
            header_timeout=num_get("ROUNDHOUSE_HEADER_TIMEOUT", d.header_timeout, float),
            body_timeout=num_get("ROUNDHOUSE_BODY_TIMEOUT", d.body_timeout, float),
            limit_reads=rate_get("ROUNDHOUSE_LIMIT_READS", d.limit_reads),
            max_watchers_per_client=num_get("ROUNDHOUSE_MAX_WATCHERS_PER_CLIENT", d.max_watchers_per_client),
            limit_create_all=rate_get("ROUNDHOUSE_LIMIT_CREATE_ALL", d.limit_create_all),
            limit_bot_tables_all=rate_get("ROUNDHOUSE_LIMIT_BOT_TABLES_ALL", d.limit_bot_tables_all),
            max_open_tables_per_client=num_get("ROUNDHOUSE_MAX_OPEN_TABLES_PER_CLIENT", d.max_open_tables_per_client),
            max_open_tables=num_get("ROUNDHOUSE_MAX_OPEN_TABLES", d.max_open_tables),
            max_tables_per_client=num_get("ROUNDHOUSE_MAX_TABLES_PER_CLIENT", d.max_tables_per_client),
            max_tables=num_get("ROUNDHOUSE_MAX_TABLES", d.max_tables),
            max_bot_tables_per_client=num_get("ROUNDHOUSE_MAX_BOT_TABLES_PER_CLIENT", d.max_bot_tables_per_client),
            max_bot_tables=num_get("ROUNDHOUSE_MAX_BOT_TABLES", d.max_bot_tables),
            store_reserve=num_get("ROUNDHOUSE_STORE_RESERVE", d.store_reserve, float),
            table_open_ttl=num_get("ROUNDHOUSE_TABLE_OPEN_TTL", d.table_open_ttl, float),
            table_idle_ttl=num_get("ROUNDHOUSE_TABLE_IDLE_TTL", d.table_idle_ttl, float),
            table_finished_ttl=num_get("ROUNDHOUSE_TABLE_FINISHED_TTL", d.table_finished_ttl, float),
            table_compact_after=num_get("ROUNDHOUSE_TABLE_COMPACT_AFTER", d.table_compact_after, float),
            table_abandon_after=num_get("ROUNDHOUSE_TABLE_ABANDON_AFTER", d.table_abandon_after, float),
            retention_poll=num_get("ROUNDHOUSE_RETENTION_POLL", d.retention_poll, float),
            clock_poll=num_get("ROUNDHOUSE_CLOCK_POLL", d.clock_poll, float),
        )
        return msgspec.structs.replace(cfg, **overrides) if overrides else cfg


def check_secret(service: str, env: Mapping[str, str] | None = None) -> str | None:
    """Why `service` must not start with the environment's ROUNDHOUSE_SECRET, or None.

    A short secret makes seat tokens guessable offline from one token; `roundhouse dev`
    (one machine, its own generated secret) is the only place a short one is tolerated.
    """
    env = os.environ if env is None else env
    secret = env.get("ROUNDHOUSE_SECRET", "")
    if not secret:
        return f"roundhouse {service}: set ROUNDHOUSE_SECRET (the seat-token secret every service shares)"
    if len(secret.encode()) < MIN_SECRET_BYTES:
        return (f"roundhouse {service}: ROUNDHOUSE_SECRET is {len(secret.encode())} bytes; use at least "
                f"{MIN_SECRET_BYTES} (e.g. `openssl rand -hex 32`)")
    return None
