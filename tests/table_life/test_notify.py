"""Turn notices through the game service, to a local webhook receiver and a local SMTP
server started here (loopback only), on a real Redis: one signed POST per turn that
began, a retry after a 500, the Discord and Slack bodies, the player's delay (time moved by
the test), e-mail, and the settings endpoint's refusals."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from services.game.app import GAME_KEY
from tests.game.conftest import Table, make_cfg, make_table, new_client  # noqa: F401 - fixtures
from tests.table_life.clocks import TestTime
from tests.table_life.receivers import SmtpReceiver, WebhookReceiver
from tests.waiting import until

FAST = {"ROUNDHOUSE_NOTIFY_PRIVATE_HOSTS": "1", "ROUNDHOUSE_NOTIFY_POLL": "0.02", "ROUNDHOUSE_NOTIFY_RETRY_BASE": "0.05"}


@pytest.fixture
async def receiver() -> AsyncIterator[WebhookReceiver]:
    hook = await WebhookReceiver(fail_first=1).start()
    yield hook
    await hook.stop()


@pytest.fixture
def smtp() -> Any:
    server = SmtpReceiver().start()
    yield server
    server.stop()


@pytest.fixture
async def game(new_client, monkeypatch, smtp):  # noqa: F811
    for name, value in {**FAST, **smtp.env}.items():
        monkeypatch.setenv(name, value)
    return await new_client()


def path(table: Table, seat: int) -> str:
    return f"/api/tables/{table.id}/seats/{seat}/notify"


async def set_notify(table: Table, seat: int, body: dict[str, Any]) -> dict[str, Any]:
    resp = await table.client.put(path(table, seat), json=body, headers=table.auth(seat))
    reply = await resp.json()
    assert resp.status == 200, reply
    return reply


def verify(post: Any, key: str) -> dict[str, Any]:
    """The receiver's check: the signature over `<t>.<body>` with the seat's key."""
    parts = dict(p.split("=", 1) for p in post.headers["X-Roundhouse-Signature"].split(","))
    mac = hmac.new(key.encode(), parts["t"].encode() + b"." + post.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(mac, parts["v1"])
    return json.loads(post.body)


async def test_one_signed_post_per_turn_and_a_retry_after_500(game, make_table, receiver):  # noqa: F811
    table = await make_table(game, [{"name": "Ada"}, {"name": "Bo"}])  # nim, seed 0: Ada starts
    keys = [(await set_notify(table, s, {"delay_s": 0, "webhook": {"url": receiver.url}}))["signing_key"] for s in (0, 1)]
    assert keys[0] != keys[1]
    # Ada's turn has begun: the first POST is answered 500, the retry carries the same id.
    await until(lambda: len(receiver.delivered()) == 1, "Ada's notice, retried")
    first, retry = receiver.posts
    assert first.answered == 500 and retry.answered == 200
    assert first.headers["X-Roundhouse-Delivery"] == retry.headers["X-Roundhouse-Delivery"] == f"{table.id}:0:0"
    body = verify(retry, keys[0])
    assert body == {"type": "turn", "id": f"{table.id}:0:0", "table": table.id, "title": "Nim", "title_id": "nim",
                    "seat": 0, "name": "Ada", "seq": 0, "waiting_s": body["waiting_s"], "link": f"/#table={table.id}"}
    # Each turn change: one notice to the seat whose turn began.
    assert (await table.act(0, {"type": "take", "count": 1}, 0))[0] == 201
    await until(lambda: len(receiver.delivered()) == 2, "Bo's notice")
    assert verify(receiver.delivered()[1], keys[1])["seq"] == 1
    assert (await table.act(1, {"type": "take", "count": 2}, 1))[0] == 201
    await until(lambda: len(receiver.delivered()) == 3, "Ada's second notice")
    assert verify(receiver.delivered()[2], keys[0])["id"] == f"{table.id}:0:2"
    # An out-of-turn shout by Bo begins no turn: nothing more is sent.
    assert (await table.act(1, {"type": "shout", "word": "hey"}, 2))[0] == 201
    await game.app[GAME_KEY].notifier.examine(table.id)
    assert [p.headers["X-Roundhouse-Delivery"] for p in receiver.delivered()] == [
        f"{table.id}:0:0", f"{table.id}:1:1", f"{table.id}:0:2"]
    outbox = await game.app[GAME_KEY].service.notify_store.outbox(table.id)
    assert {f: (d.state, d.attempts) for f, d in outbox.items()} == {"0:0": ("sent", 2), "1:1": ("sent", 1),
                                                                      "0:2": ("sent", 1)}


async def test_discord_and_slack_bodies(game, make_table):  # noqa: F811
    hooks = [await WebhookReceiver().start() for _ in range(2)]
    try:
        table = await make_table(game, [{"name": "Ada"}, {"name": "Bo"}], seed=1)  # Bo starts
        await set_notify(table, 1, {"delay_s": 0, "webhook": {"url": hooks[0].url, "format": "discord"}})
        await until(lambda: hooks[0].delivered(), "the Discord notice")
        discord = json.loads(hooks[0].delivered()[0].body)
        assert discord["content"].startswith("Nim: Bo, it is your turn at table") and discord["allowed_mentions"] == {"parse": []}
        await set_notify(table, 0, {"delay_s": 0, "webhook": {"url": hooks[1].url, "format": "slack"}})
        assert (await table.act(1, {"type": "take", "count": 1}, 0))[0] == 201
        await until(lambda: hooks[1].delivered(), "the Slack notice")
        assert json.loads(hooks[1].delivered()[0].body)["text"].startswith("Nim: Ada, it is your turn")
    finally:
        for hook in hooks:
            await hook.stop()


async def test_email_over_smtp(game, make_table, smtp):  # noqa: F811
    table = await make_table(game, [{"name": "Ada"}, {"name": "Bo"}])
    reply = await set_notify(table, 0, {"delay_s": 0, "email": "ada@example.test"})
    assert reply["email_available"] is True and reply["settings"]["email"] == "ada@example.test"
    await until(lambda: smtp.messages, "the e-mail")
    mail = smtp.messages[0]
    assert mail["To"] == "ada@example.test" and mail["From"] == "tables@roundhouse.test"
    assert mail["Subject"] == f"Your turn: Nim at table {table.id}"
    assert mail["X-Roundhouse-Delivery"] == f"{table.id}:0:0"
    assert f"/#table={table.id}" in mail.get_payload(decode=True).decode()


async def test_the_delay_the_player_chose(new_client, make_table, monkeypatch, tmp_path, receiver):  # noqa: F811
    time = TestTime(tmp_path / "now")
    for name, value in {**FAST, **time.env}.items():
        monkeypatch.setenv(name, value)
    receiver.fail_first = 0
    game = await new_client()
    table = await make_table(game, [{"name": "Ada"}, {"name": "Bo"}])
    await set_notify(table, 0, {"delay_s": 300, "webhook": {"url": receiver.url}})
    notifier = game.app[GAME_KEY].notifier
    time.advance(299_000)
    await notifier.examine(table.id)
    assert receiver.posts == []
    time.advance(1_000)
    await until(lambda: receiver.delivered(), "Ada's notice after five minutes")
    assert json.loads(receiver.delivered()[0].body)["waiting_s"] == 300


async def test_settings_are_the_seats_own_and_checked(game, make_table):  # noqa: F811
    table = await make_table(game, 2)
    resp = await game.put(path(table, 1), json={"webhook": {"url": "http://127.0.0.1:1/x"}}, headers=table.auth(0))
    assert resp.status == 403 and (await resp.json())["error"]["code"] == "wrong_seat"
    resp = await game.get(path(table, 0))
    assert resp.status == 401
    for body in ({}, {"webhook": {"url": "ftp://x.test/a"}}, {"email": "not an address"}, {"delay_s": -1, "email": "a@b.co"},
                 {"webhook": {"url": "http://x.test/a", "format": "teams"}}):
        resp = await game.put(path(table, 0), json=body, headers=table.auth(0))
        assert resp.status == 422, body
    reply = await set_notify(table, 0, {"email": "a@b.co"})
    assert reply["settings"] == {"delay_s": 60, "webhook": None, "email": "a@b.co"}
    resp = await game.delete(path(table, 0), json={}, headers=table.auth(0))  # writes are JSON (the guard)
    assert resp.status == 200 and (await resp.json())["settings"] is None
