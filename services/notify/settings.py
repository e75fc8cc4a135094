"""The notifier's settings, from the environment (docs/notifications.md#running-it)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import msgspec

from shared.config import env_number


class NotifyConfig(msgspec.Struct, frozen=True, kw_only=True):
    poll_s: float = 1.0  # between looks at the index of tables with notices due
    retry_base_s: float = 5.0  # a failed delivery waits this, then twice as long each time
    attempts: int = 6  # then it gives up (the record stays, marked gave_up)
    timeout_s: float = 10.0  # per webhook POST and SMTP session
    lease_s: float = 60.0  # a claimed notice is another sender's after this (its sender died)
    private_hosts: bool = False  # webhooks to loopback / private addresses (tests, one machine)
    smtp_host: str = ""  # empty: no e-mail
    smtp_port: int = 25
    smtp_from: str = "roundhouse@localhost"
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False

    @property
    def email(self) -> bool:
        return bool(self.smtp_host)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> NotifyConfig:
        env = os.environ if env is None else env
        d = cls()

        def num_get(name: str, default: float) -> float:
            return float(env_number(env, name, default, float))  # type: ignore[arg-type]

        def flag_get(name: str, default: bool) -> bool:
            text = env.get(name, "").strip().lower()
            return default if not text else text in ("1", "yes", "true", "on")

        return cls(
            poll_s=num_get("ROUNDHOUSE_NOTIFY_POLL", d.poll_s),
            retry_base_s=num_get("ROUNDHOUSE_NOTIFY_RETRY_BASE", d.retry_base_s),
            attempts=max(1, int(num_get("ROUNDHOUSE_NOTIFY_ATTEMPTS", d.attempts))),
            timeout_s=num_get("ROUNDHOUSE_NOTIFY_TIMEOUT", d.timeout_s),
            lease_s=num_get("ROUNDHOUSE_NOTIFY_LEASE", d.lease_s),
            private_hosts=flag_get("ROUNDHOUSE_NOTIFY_PRIVATE_HOSTS", d.private_hosts),
            smtp_host=env.get("ROUNDHOUSE_SMTP_HOST", d.smtp_host),
            smtp_port=int(num_get("ROUNDHOUSE_SMTP_PORT", d.smtp_port)),
            smtp_from=env.get("ROUNDHOUSE_SMTP_FROM", d.smtp_from),
            smtp_user=env.get("ROUNDHOUSE_SMTP_USER", d.smtp_user),
            smtp_password=env.get("ROUNDHOUSE_SMTP_PASSWORD", d.smtp_password),
            smtp_starttls=flag_get("ROUNDHOUSE_SMTP_STARTTLS", d.smtp_starttls),
        )
