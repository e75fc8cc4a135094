"""Delivering one turn notice: the webhook body in its format (Roundhouse JSON, Discord,
Slack), signed with HMAC-SHA256 under the seat's key, POSTed through the notifier's client,
which connects only to public addresses unless the deployment allows private ones
(services/notify/address.py); and the e-mail, over SMTP.

The seat's key is derived from the server secret, the table and the seat, so nothing secret
is stored and the seat's holder can ask for it again (`GET .../notify`). The signature
covers the timestamp and the body: `X-Roundhouse-Signature: t=<unix s>,v1=<hex>` where
hex = HMAC-SHA256(key, "<t>.<body>"). `X-Roundhouse-Delivery` is the notice's id, the same
on every retry, so a receiver drops a repeat.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import smtplib
import time
from email.message import EmailMessage
from urllib.parse import urlsplit

import aiohttp
import msgspec

from services.notify.address import NotPublic, check_url_host
from services.notify.settings import NotifyConfig

_json = msgspec.json.Encoder()


class Notice(msgspec.Struct, frozen=True, kw_only=True):
    """What a notice says (the `json` format's body)."""

    type: str = "turn"
    id: str  # `<table>:<seat>:<turn seq>`: the same on every retry
    table: str
    title: str  # the title's name, e.g. "Chicago Express"
    title_id: str
    seat: int
    name: str  # the seat's player name
    seq: int  # the log position the seat has been to act at since
    waiting_s: int
    link: str


class DeliveryError(Exception):
    pass


def signing_key(secret: bytes, table: str, seat: int) -> str:
    return hmac.new(secret, f"notify:{table}:{seat}".encode(), hashlib.sha256).hexdigest()


def sign(key: str, body: bytes, timestamp: int) -> str:
    mac = hmac.new(key.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def text_of(notice: Notice) -> str:
    return f"{notice.title}: {notice.name}, it is your turn at table {notice.table} (move {notice.seq}). {notice.link}"


def body_of(notice: Notice, fmt: str) -> bytes:
    if fmt == "discord":
        return _json.encode({"content": text_of(notice), "allowed_mentions": {"parse": []}})
    if fmt == "slack":
        return _json.encode({"text": text_of(notice)})
    return _json.encode(notice)


def check_url(url: str, allow_private: bool) -> None:
    """Refuse what is not an http(s) URL, or names an IP literal that is not public. A host
    name is checked as the POST resolves it (services/notify/address.py), never before."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DeliveryError(f"not an http(s) URL: {url[:80]}")
    try:
        check_url_host(parts.hostname, allow_private)
    except NotPublic as exc:
        raise DeliveryError(str(exc)) from None


async def post_webhook(http: aiohttp.ClientSession, cfg: NotifyConfig, url: str, fmt: str, key: str,
                       notice: Notice) -> None:
    check_url(url, cfg.private_hosts)
    body = body_of(notice, fmt)
    headers = {"Content-Type": "application/json", "User-Agent": "Roundhouse-Notify/1",
               "X-Roundhouse-Delivery": notice.id, "X-Roundhouse-Signature": sign(key, body, int(time.time()))}
    try:
        async with http.post(url, data=body, headers=headers, allow_redirects=False,
                             timeout=aiohttp.ClientTimeout(total=cfg.timeout_s)) as resp:
            if resp.status >= 300:
                raise DeliveryError(f"webhook answered {resp.status}")
    except aiohttp.ClientConnectorDNSError as exc:
        # The resolver's refusal (NotPublic) arrives wrapped as a DNS error.
        cause = exc.os_error
        raise DeliveryError(str(cause) if isinstance(cause, NotPublic) else f"webhook: {exc}") from None
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise DeliveryError(f"webhook: {type(exc).__name__}: {exc}") from None


def _send_mail(cfg: NotifyConfig, to: str, notice: Notice) -> None:
    msg = EmailMessage()
    msg["From"] = cfg.smtp_from
    msg["To"] = to
    msg["Subject"] = f"Your turn: {notice.title} at table {notice.table}"
    msg["Message-ID"] = f"<{notice.id.replace(':', '.')}@roundhouse>"
    msg["X-Roundhouse-Delivery"] = notice.id
    msg.set_content(text_of(notice) + "\n")
    with smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=cfg.timeout_s) as smtp:
        if cfg.smtp_starttls:
            smtp.starttls()
        if cfg.smtp_user:
            smtp.login(cfg.smtp_user, cfg.smtp_password)
        smtp.send_message(msg)


async def send_mail(cfg: NotifyConfig, to: str, notice: Notice) -> None:
    try:
        await asyncio.to_thread(_send_mail, cfg, to, notice)
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryError(f"smtp: {type(exc).__name__}: {exc}") from None
