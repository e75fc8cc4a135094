"""Snapshot codec: a Timeline at some seq as msgpack bytes, and back.

A snapshot is a cache, never the truth: `restore_timeline` returns None for anything it
cannot use (other title, other format, undecodable), and the caller then folds the log.
Both services that fold tables (game, projection) share this one format, since they share
the `rh:{<table>}:snap` key.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import Engine, Timeline

FORMAT = 1

_encoder = msgspec.msgpack.Encoder()
_decoders: dict[int, msgspec.msgpack.Decoder] = {}


class _Header(msgspec.Struct, array_like=True):
    format: int
    title: str
    length: int


def _decoder(engine: Engine[Any]) -> msgspec.msgpack.Decoder:
    dec = _decoders.get(id(engine))
    if dec is None:
        pair = tuple[int, engine.action_type]  # type: ignore[name-defined]
        body = msgspec.defstruct(
            "Snapshot",
            [
                ("format", int),
                ("title", str),
                ("length", int),
                ("state", engine.state_type),
                ("effective", list[pair]),  # type: ignore[valid-type]
                ("undone", list[pair]),  # type: ignore[valid-type]
            ],
            array_like=True,
        )
        dec = _decoders[id(engine)] = msgspec.msgpack.Decoder(body)
    return dec


def encode_timeline(timeline: Timeline[Any]) -> bytes:
    """The timeline's state at `timeline.length` (the seq it has folded up to)."""
    return _encoder.encode(
        (FORMAT, timeline.engine.title, timeline.length, timeline.state, timeline.effective, timeline.undone)
    )


def restore_timeline(
    engine: Engine[Any], seats: list[str], options: dict[str, Any], seed: int, blob: bytes
) -> Timeline[Any] | None:
    """A Timeline at the snapshot's seq, or None if the snapshot is unusable."""
    try:
        header = msgspec.msgpack.decode(blob, type=_Header)  # array_like: extra fields ignored
        if header.format != FORMAT or header.title != engine.title:
            return None
        snap = _decoder(engine).decode(blob)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    timeline = Timeline(engine, seats, options, seed)
    timeline.state = snap.state
    timeline.effective = [tuple(p) for p in snap.effective]
    timeline.undone = [tuple(p) for p in snap.undone]
    timeline.length = snap.length
    return timeline
