"""A sealed action (Engine.sealed) reaches other seats and spectators as its type alone: the
live update frame must not carry what the view still hides. Real sockets, real Redis."""

from __future__ import annotations

import pytest

from shared.games import get_engine
from shared.protocol.json_patch import apply

from .support import CountingEngine, TableDriver
from .test_feed import hello, recv


@pytest.fixture
def engine() -> CountingEngine:
    return CountingEngine(get_engine("sealed"))


async def test_a_sealed_card_reaches_others_as_its_type_only(client, driver: TableDriver):
    sockets = {key: await hello(client, driver.table, seat=key) for key in (0, 1, 2, None)}
    for ws in sockets.values():
        assert (await recv(ws))["seq"] == 0
    actor, card = 1, driver.engine.legal_actions(driver.states[0], 1)[0].action
    await driver.append(actor, card)
    for key, ws in sockets.items():
        update = await recv(ws)
        assert update["seq"] == 1 and update["seat"] == actor
        if key == actor:
            assert update["action"] == {"type": "play", "card": card.card}
        else:
            assert update["action"] == {"type": "play"}, f"seat {key} was told the sealed card"
        # The patch still brings each seat exactly its own view.
        assert apply(driver.view(0, key), update["patch"]) == driver.view(1, key)


async def test_a_resumed_socket_is_not_told_a_sealed_card_either(client, driver: TableDriver):
    for seat in (0, 1):
        seq = len(driver.states) - 1
        await driver.append(seat, driver.engine.legal_actions(driver.states[seq], seat)[0].action)
    ws = await hello(client, driver.table, seat=2, last_seq=1)
    welcome = await recv(ws)
    assert welcome["resumed"] is True and welcome["seq"] == 1
    update = await recv(ws)
    assert update["seq"] == 2 and update["seat"] == 1 and update["action"] == {"type": "play"}


def test_england_and_wales_merger_votes_are_sealed_and_other_moves_are_not():
    from shared.games.rotw_england_wales.actions import Pass
    from shared.games.rotw_england_wales.advanced.actions import Vote
    from shared.games.rotw_england_wales.engine import ENGINE as engine
    assert engine.sealed(Vote(yes=True)) is True
    assert engine.sealed(Pass()) is False
