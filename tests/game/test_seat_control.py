"""Seat control is a GameService method: the HTTP route only checks the token and the rates,
so the same handover works, with the same limits, from any caller of the service."""

from __future__ import annotations

import pytest

from services.game.app import GAME_KEY
from services.http.errors import ApiError


async def test_a_handover_through_the_service_writes_the_seat_and_asks_the_rate_only_for_an_all_bot_table(
        client, make_table) -> None:
    table = await make_table(client, 2)
    service = client.app[GAME_KEY].service
    asked: list[str] = []

    async def admit() -> None:
        asked.append(table.id)

    first = await service.set_controller(table.id, 1, "bot", None, "127.0.0.1", admit)
    assert (first.kind, first.level, first.seq) == ("bot", "heuristic", 0) and asked == []
    stored = await service.store.get_meta(table.id)
    assert stored is not None and [s.kind for s in stored.seats] == ["human", "bot"]

    await service.set_controller(table.id, 0, "bot", "random", "127.0.0.1", admit)  # now only bots
    assert asked == [table.id]
    back = await service.set_controller(table.id, 0, "human", None, "127.0.0.1", admit)
    assert back.kind == "human" and back.level is None and asked == [table.id]
    detail = await table.detail()
    assert [s["kind"] for s in detail["seats"]] == ["human", "bot"]


async def test_a_refused_handover_through_the_service_changes_nothing(client, make_table) -> None:
    table = await make_table(client, 2)
    service = client.app[GAME_KEY].service

    async def refuse() -> None:
        raise ApiError(429, "rate_limited", "no more tables of bots")

    await service.set_controller(table.id, 1, "bot", None, "127.0.0.1", refuse)
    with pytest.raises(ApiError) as refused:
        await service.set_controller(table.id, 0, "bot", None, "127.0.0.1", refuse)
    assert refused.value.code == "rate_limited"
    with pytest.raises(ApiError) as bad:
        await service.set_controller(table.id, 0, "bot", "grandmaster", "127.0.0.1", refuse)
    assert bad.value.code == "unknown_bot"
    stored = await service.store.get_meta(table.id)
    assert stored is not None and [s.kind for s in stored.seats] == ["human", "bot"]
