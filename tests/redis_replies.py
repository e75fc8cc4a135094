"""Redis replies as the store's clients give them. `connect` leaves decode_responses off, so
keys, stream ids, field names and values come back as bytes; redis-py's return types also allow
the str a decoding client gets (and None for XRANGE, which never answers nil). These check the
bytes once, so a test reads what it fetched without a cast."""

from __future__ import annotations

from shared.store.connect import AnyRedis

StreamEntries = list[tuple[bytes, dict[bytes, bytes]]]


def raw(value: object) -> bytes:
    """`value`, known to be the bytes an undecoded client returns."""
    assert isinstance(value, bytes), f"a client with decode_responses off answered {value!r}"
    return value


async def stream_entries(client: AnyRedis, stream: str, count: int | None = None) -> StreamEntries:
    """XRANGE of the whole stream (its first `count` entries): (id, fields) of each, oldest first."""
    reply = await client.xrange(stream, count=count)
    assert reply is not None, stream
    out: StreamEntries = []
    for entry_id, fields in reply:
        assert fields is not None, (stream, entry_id)
        out.append((raw(entry_id), {raw(name): raw(value) for name, value in fields.items()}))
    return out
