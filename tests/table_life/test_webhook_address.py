"""Webhooks reach public addresses only: a host that is, or resolves to, loopback or a
private address is refused by the notifier's own resolver (the one aiohttp connects
through, so a name cannot pass the check and then resolve elsewhere), unless the
deployment allows private hosts. Real DNS (the system resolver on `localhost`), a real
receiver on loopback, the game service on a real Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from services.game.app import GAME_KEY
from services.notify.address import NotPublic, PublicResolver
from services.notify.send import DeliveryError, check_url
from tests.game.conftest import make_cfg, make_table, new_client  # noqa: F401 - fixtures
from tests.table_life.receivers import WebhookReceiver
from tests.waiting import until

FAST = {"ROUNDHOUSE_NOTIFY_POLL": "0.02", "ROUNDHOUSE_NOTIFY_RETRY_BASE": "0.05", "ROUNDHOUSE_NOTIFY_ATTEMPTS": "1"}


@pytest.fixture
async def receiver() -> AsyncIterator[WebhookReceiver]:
    hook = await WebhookReceiver().start()
    yield hook
    await hook.stop()


@pytest.mark.parametrize("url", ["http://127.0.0.1/h", "http://[::1]:8/h", "http://10.1.2.3/h", "http://192.168.0.1/h",
                                 "http://169.254.169.254/latest", "http://[::ffff:127.0.0.1]/h", "http://0.0.0.0/h",
                                 "http://100.64.0.1/h", "http://[fd00::1]/h", "http://224.0.0.1/h"])
def test_a_private_ip_literal_is_refused_before_any_connection(url: str) -> None:
    with pytest.raises(DeliveryError, match="not a public address"):
        check_url(url, allow_private=False)
    check_url(url, allow_private=True)  # the allowance (tests, one machine)


def test_a_public_literal_and_any_name_pass_the_url_check() -> None:
    check_url("https://93.184.216.34/hook", allow_private=False)
    check_url("https://discord.com/api/webhooks/1/x", allow_private=False)  # names: checked as they resolve


async def test_the_resolver_refuses_a_name_with_a_private_address() -> None:
    guarded = PublicResolver(allow_private=False)
    allowing = PublicResolver(allow_private=True)
    try:
        with pytest.raises(NotPublic, match="non-public address"):
            await guarded.resolve("localhost", 80)
        with pytest.raises(NotPublic):
            await guarded.resolve("2130706433", 80)  # 127.0.0.1 as one number: the resolver sees what it means
        found = await allowing.resolve("localhost", 80)
        assert found and all(r["host"] in ("127.0.0.1", "::1") for r in found)
    finally:
        await guarded.close()
        await allowing.close()


async def test_the_service_sends_nothing_to_a_name_on_loopback_unless_allowed(
        new_client, make_table, monkeypatch, receiver):  # noqa: F811
    for name, value in FAST.items():
        monkeypatch.setenv(name, value)
    game = await new_client()
    table = await make_table(game, [{"name": "Ada"}, {"name": "Bo"}])  # nim, seed 0: Ada starts
    url = f"http://localhost:{receiver.port}/hook"  # a name: accepted when set, refused as it resolves
    resp = await game.put(f"/api/tables/{table.id}/seats/0/notify", json={"delay_s": 0, "webhook": {"url": url}},
                          headers=table.auth(0))
    assert resp.status == 200, await resp.json()
    store = game.app[GAME_KEY].service.notify_store

    async def given_up() -> dict[str, object] | None:
        record = (await store.outbox(table.id)).get("0:0")
        return {"state": record.state, "error": record.error} if record and record.state != "pending" else None

    record = await until(given_up, "Ada's notice to be refused")
    assert record is not None
    assert record["state"] == "gave_up" and "localhost resolves to a non-public address" in str(record["error"]), record
    assert receiver.posts == []


async def test_a_name_on_loopback_is_delivered_with_the_allowance(new_client, make_table, monkeypatch, receiver):  # noqa: F811
    for name, value in {**FAST, "ROUNDHOUSE_NOTIFY_PRIVATE_HOSTS": "1"}.items():
        monkeypatch.setenv(name, value)
    game = await new_client()
    table = await make_table(game, [{"name": "Ada"}, {"name": "Bo"}])
    resp = await game.put(f"/api/tables/{table.id}/seats/0/notify", headers=table.auth(0),
                          json={"delay_s": 0, "webhook": {"url": f"http://localhost:{receiver.port}/hook"}})
    assert resp.status == 200
    await until(lambda: receiver.delivered(), "Ada's notice through the name")
    assert receiver.delivered()[0].headers["X-Roundhouse-Delivery"] == f"{table.id}:0:0"


async def test_a_private_ip_literal_is_refused_when_set(new_client, make_table, monkeypatch):  # noqa: F811
    for name, value in FAST.items():
        monkeypatch.setenv(name, value)
    game = await new_client()
    table = await make_table(game, [{"name": "Ada"}, {"name": "Bo"}])
    path = f"/api/tables/{table.id}/seats/0/notify"
    for url in ("http://127.0.0.1:9/hook", "http://[::1]/hook", "http://10.0.0.7/hook"):
        resp = await game.put(path, json={"webhook": {"url": url}}, headers=table.auth(0))
        body = await resp.json()
        assert resp.status == 422 and body["error"]["code"] == "bad_request", body
        assert "public address" in body["error"]["message"]
    got = await (await game.get(path, headers=table.auth(0))).json()
    assert got["settings"] is None  # nothing changed
