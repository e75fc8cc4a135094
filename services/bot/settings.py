"""Settings of the bot worker, from environment variables (see docs/bots.md)."""

from __future__ import annotations

import importlib.util
import os
import socket

import msgspec


def _int(env: dict[str, str], name: str, default: int, lo: int) -> int:
    text = env.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {text!r}") from None
    if value < lo:
        raise ValueError(f"{name} must be at least {lo}, not {value}")
    return value


class BotSettings(msgspec.Struct, frozen=True, kw_only=True):
    # Consumer group on the turn stream shared by every worker; each worker is one consumer.
    group: str = "bots"
    # Where a new group starts reading: "0" = every turn still in the stream (a stale one is
    # acknowledged after one meta read), "$" = only turns published from now on.
    group_start: str = "0"
    consumer: str = ""
    # Processes computing moves, and turns held at once (read ahead of the pool).
    processes: int = 2
    inflight: int = 4
    # A turn another worker read and has not acknowledged for this long is taken over.
    claim_idle_ms: int = 5000
    claim_every_ms: int = 1000
    # How long one blocking read of the turn stream waits.
    block_ms: int = 2000
    # Search budget for `mcts` seats (None: the bot's default).
    budget_ms: int | None = None
    iterations: int | None = None
    # A consumer with nothing pending and idle this long is a departed worker: removed.
    forget_after_ms: int = 3_600_000
    # Tables kept folded in memory (LRU).
    tables: int = 2000
    # The sweeper: every sweep_every_ms, tables noted as awaiting a bot for longer than
    # sweep_after_ms (their notice was lost) are announced again.
    sweep_every_ms: int = 1000
    sweep_after_ms: int = 3000
    # Failed attempts at one turn before it is dropped (logged) instead of retried. Only a
    # turn that fails by itself counts; one the store or the game service is unavailable for
    # is retried until they are back.
    max_attempts: int = 5
    # Modules every compute process imports first (extra titles or kits).
    preload: tuple[str, ...] = ()
    # The game service the standalone worker submits to.
    game_url: str = "http://127.0.0.1:8001"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: object) -> BotSettings:
        env = dict(os.environ if env is None else env)
        default = cls()
        processes = _int(env, "ROUNDHOUSE_BOT_PROCESSES", min(2, os.cpu_count() or 1), 1)
        budget = _int(env, "ROUNDHOUSE_BOT_BUDGET_MS", 0, 0)
        iterations = _int(env, "ROUNDHOUSE_BOT_ITERATIONS", 0, 0)
        settings = cls(
            group=env.get("ROUNDHOUSE_BOT_GROUP") or default.group,
            group_start=env.get("ROUNDHOUSE_BOT_GROUP_START") or default.group_start,
            consumer=env.get("ROUNDHOUSE_BOT_CONSUMER") or f"{socket.gethostname()}-{os.getpid()}",
            processes=processes,
            inflight=_int(env, "ROUNDHOUSE_BOT_INFLIGHT", 2 * processes, 1),
            claim_idle_ms=_int(env, "ROUNDHOUSE_BOT_CLAIM_IDLE_MS", default.claim_idle_ms, 100),
            claim_every_ms=_int(env, "ROUNDHOUSE_BOT_CLAIM_EVERY_MS", default.claim_every_ms, 50),
            block_ms=_int(env, "ROUNDHOUSE_BOT_BLOCK_MS", default.block_ms, 10),
            sweep_every_ms=_int(env, "ROUNDHOUSE_BOT_SWEEP_EVERY_MS", default.sweep_every_ms, 50),
            sweep_after_ms=_int(env, "ROUNDHOUSE_BOT_SWEEP_AFTER_MS", default.sweep_after_ms, 100),
            budget_ms=budget or None,
            iterations=iterations or None,
            preload=tuple(m.strip() for m in env.get("ROUNDHOUSE_BOT_PRELOAD", "").split(",") if m.strip()),
            game_url=(env.get("ROUNDHOUSE_GAME_URL") or default.game_url).rstrip("/"),
        )
        settings = msgspec.structs.replace(settings, **overrides) if overrides else settings
        for module in settings.preload:
            if not _importable(module):
                raise ValueError(f"ROUNDHOUSE_BOT_PRELOAD: no module named {module!r}")
        return settings


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False
