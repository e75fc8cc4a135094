"""A connection redis-py closed under a command (its cluster client re-reading the slot map
mid-failover) is told apart from an AttributeError of our own: the first is the store being
unavailable (503, retry), the second a bug (500)."""

from __future__ import annotations

import pytest
from redis.asyncio.connection import Connection

from shared.store.connect import torn_connection


async def test_a_write_on_a_connection_redis_py_closed_is_a_torn_connection() -> None:
    closed = Connection()  # never connected: its writer is None, as after redis-py closed it
    with pytest.raises(AttributeError) as raised:
        await closed._send_packed_command([b"PING\r\n"])
    assert torn_connection(raised.value)


def test_an_attribute_error_of_our_own_is_not() -> None:
    with pytest.raises(AttributeError) as raised:
        None.writelines([])  # type: ignore[attr-defined]
    assert not torn_connection(raised.value)
    assert not torn_connection(ValueError("not an attribute error"))
