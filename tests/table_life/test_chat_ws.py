"""Table chat over the projection's WebSocket, against a real redis-server: lines reach every
socket of the table (seats and spectators, across replicas), stay text, are limited in
length and rate, a seat's mute hides a seat's lines from it alone, and a joiner gets the
recent lines."""

from __future__ import annotations

from typing import Any

from services.projection.life import CHAT_BURST, CHAT_MAX_CHARS
from tests.projection.test_feed import hello, recv


async def recv_type(ws, kind: str) -> dict[str, Any]:
    """The next frame of `kind`, skipping any other (updates may come between)."""
    while True:
        frame = await recv(ws)
        if frame["type"] == kind:
            return frame


async def join(client, table: str, seat: int | None) -> Any:
    ws = await hello(client, table, seat=seat, chat=True)
    assert (await recv(ws))["type"] == "welcome"
    log = await recv(ws)
    assert log["type"] == "chat_log"
    return ws, log


async def test_chat_reaches_every_socket_as_text(client, driver) -> None:
    ada, log = await join(client, driver.table, 0)
    assert log == {"type": "chat_log", "lines": [], "muted": []}
    brunel, _ = await join(client, driver.table, 1)
    watcher, _ = await join(client, driver.table, None)
    script = "<script>alert('x')</script> & <b>bold</b>"
    await ada.send_json({"type": "chat", "text": f"  {script}\n"})
    for ws in (ada, brunel, watcher):
        line = await recv_type(ws, "chat_line")
        assert line["seat"] == 0 and line["name"] == "P0" and line["text"] == script and line["t"] > 0
    await watcher.send_json({"type": "chat", "text": "hello from the rail", "name": "Kibitzer"})
    line = await recv_type(brunel, "chat_line")
    assert (line["seat"], line["name"], line["text"]) == (None, "Kibitzer", "hello from the rail")
    # A late joiner gets both lines, oldest first.
    late, log = await join(client, driver.table, 2)
    assert [(line["seat"], line["text"]) for line in log["lines"]] == [(0, script), (None, "hello from the rail")]
    for ws in (ada, brunel, watcher, late):
        await ws.close()


async def test_chat_limits(client, driver) -> None:
    ada, _ = await join(client, driver.table, 0)
    await ada.send_json({"type": "chat", "text": " \n\t "})
    assert (await recv(ada))["code"] == "chat_empty"
    await ada.send_json({"type": "chat", "text": "x" * (CHAT_MAX_CHARS + 1)})
    error = await recv(ada)
    assert error["code"] == "chat_too_long" and error["fatal"] is False
    for i in range(CHAT_BURST):
        await ada.send_json({"type": "chat", "text": f"line {i}"})
        assert (await recv_type(ada, "chat_line"))["text"] == f"line {i}"
    await ada.send_json({"type": "chat", "text": "one too many"})
    error = await recv(ada)
    assert error["type"] == "error" and error["code"] == "chat_rate_limited" and not error["fatal"]
    # The limit is the seat's, wherever it connects from: a second socket of seat 0 is limited too.
    again, log = await join(client, driver.table, 0)
    assert [line["text"] for line in log["lines"]] == [f"line {i}" for i in range(CHAT_BURST)]
    await again.send_json({"type": "chat", "text": "from my phone"})
    assert (await recv(again))["code"] == "chat_rate_limited"
    # The socket still works after refusals.
    await ada.send_json({"type": "ping", "id": 5})
    assert await recv_type(ada, "pong") == {"type": "pong", "id": 5}
    await ada.close()
    await again.close()


async def test_mute_hides_a_seat_for_the_muting_seat_only(client, driver) -> None:
    ada, _ = await join(client, driver.table, 0)
    brunel, _ = await join(client, driver.table, 1)
    crewe, _ = await join(client, driver.table, 2)
    for bad, why in (({"target": 0}, "itself"), ({"target": 9}, "no seat")):
        await ada.send_json({"type": "mute", **bad})
        error = await recv(ada)
        assert error["code"] == "bad_mute" and why in error["message"]
    await ada.send_json({"type": "mute", "target": 1})
    assert await recv_type(ada, "mutes") == {"type": "mutes", "muted": [1]}
    await brunel.send_json({"type": "chat", "text": "buy my shares"})
    assert (await recv_type(crewe, "chat_line"))["text"] == "buy my shares"
    await crewe.send_json({"type": "chat", "text": "no thanks"})
    # Ada's next line is Crewe's: Brunel's was left out for her.
    assert (await recv_type(ada, "chat_line"))["text"] == "no thanks"
    # The mute holds for Ada's other sockets and for her next visit, and can be lifted.
    again, log = await join(client, driver.table, 0)
    assert log["muted"] == [1] and [line["text"] for line in log["lines"]] == ["no thanks"]
    await again.send_json({"type": "mute", "target": 1, "muted": False})
    assert (await recv_type(ada, "mutes"))["muted"] == []
    assert (await recv_type(again, "mutes"))["muted"] == []
    await brunel.send_json({"type": "chat", "text": "last offer"})
    assert (await recv_type(ada, "chat_line"))["text"] == "last offer"
    spectator, _ = await join(client, driver.table, None)
    await spectator.send_json({"type": "mute", "target": 0})
    assert (await recv(spectator))["code"] == "bad_mute"
    for ws in (ada, brunel, crewe, again, spectator):
        await ws.close()


async def test_chat_crosses_replicas(start_app, driver) -> None:
    one, two = await start_app(), await start_app()
    ada, _ = await join(one, driver.table, 0)
    brunel, _ = await join(two, driver.table, 1)
    await ada.send_json({"type": "chat", "text": "over here"})
    line = await recv_type(brunel, "chat_line")
    assert line["text"] == "over here"
    await ada.close()
    await brunel.close()


async def test_sockets_without_chat_get_no_chat_frames(client, driver) -> None:
    plain = await hello(client, driver.table, seat=1)
    assert (await recv(plain))["type"] == "welcome"
    ada, _ = await join(client, driver.table, 0)
    await ada.send_json({"type": "chat", "text": "anyone?"})
    await recv_type(ada, "chat_line")
    await driver.play(1)
    # The next frame the plain socket gets is the update, not the chat line before it.
    assert (await recv(plain))["type"] == "update"
    await plain.close()
    await ada.close()


async def test_chat_while_redis_is_away_is_refused_and_the_socket_stays(tmp_path, start_app, cfg, engine) -> None:
    import msgspec
    import redis.asyncio as aioredis

    from shared.redis_server import RedisServer
    from shared.store import RedisEventStore

    from tests.projection.support import TableDriver

    server = RedisServer(tmp_path / "redis").start()
    redis = aioredis.from_url(server.url)
    try:
        driver = await TableDriver(RedisEventStore(redis), engine.inner).create()
        client = await start_app(cfg=msgspec.structs.replace(cfg, redis_url=server.url))
        ada, _ = await join(client, driver.table, 0)
        server.kill()
        await ada.send_json({"type": "chat", "text": "hello?"})
        error = await recv_type(ada, "error")
        assert error["code"] == "unavailable" and error["fatal"] is False
        server.start()  # same port, same data
        await redis.connection_pool.disconnect()
        await ada.send_json({"type": "ping", "id": 1})
        assert (await recv_type(ada, "pong"))["id"] == 1
        await ada.close()
    finally:
        await redis.aclose()
        server.stop()
