"""A connection redis-py closed under a command (its cluster client re-reading the slot map
mid-failover) is the store being unavailable (503, retry), never a bug of ours (500).

redis-py 8.1 raised an AttributeError from its own code there (`_writer` was None); 8.2 raises
its own ConnectionError. Both must be answered as the store being unavailable, and an
AttributeError of our own must stay a bug."""

from __future__ import annotations

import os

import pytest
import redis
from redis.asyncio.connection import Connection

from shared.store.connect import REDIS_OR_CONNECTION_ERRORS, torn_connection


def _store_unavailable(exc: BaseException) -> bool:
    # as services/http/errors.py answers an exception: a Redis or connection error, or a torn one
    return isinstance(exc, REDIS_OR_CONNECTION_ERRORS) or torn_connection(exc)


async def test_a_write_on_a_connection_redis_py_closed_is_the_store_unavailable() -> None:
    closed = Connection()  # never connected: its writer is None, as after redis-py closed it
    with pytest.raises(Exception) as raised:
        await closed._send_packed_command([b"PING\r\n"])
    assert _store_unavailable(raised.value)


def test_an_attribute_error_inside_redis_py_is_a_torn_connection() -> None:
    # what redis-py 8.1 raised: an AttributeError whose innermost frame is redis-py's own code
    inside = os.path.join(os.path.dirname(redis.__file__), "asyncio", "connection.py")
    with pytest.raises(AttributeError) as raised:
        exec(compile("None.writelines([])", inside, "exec"))
    assert torn_connection(raised.value)
    assert _store_unavailable(raised.value)


def test_an_attribute_error_of_our_own_is_not() -> None:
    with pytest.raises(AttributeError) as raised:
        None.writelines([])  # type: ignore[attr-defined]
    assert not torn_connection(raised.value)
    assert not _store_unavailable(raised.value)
    assert not torn_connection(ValueError("not an attribute error"))
