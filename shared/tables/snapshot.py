"""Snapshot codec: a Timeline at some seq as msgpack bytes, and back.

A snapshot is a cache, never the truth: `restore_timeline` returns None for anything it
cannot use (other title, other rules version, other format, undecodable), and the caller
then folds the log. It holds the decision tree (so undo to any entry still works after a
restore), the head's state and sparse checkpoints (every `SPARSE` checkpoints of the
timeline), so a restored table goes back as cheaply as a live one, give or take.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import Engine
from shared.timeline import Node, Timeline

FORMAT = 2
SPARSE = 8  # keep one timeline checkpoint in SPARSE in a snapshot

_encoder = msgspec.msgpack.Encoder()
_decoders: dict[int, msgspec.msgpack.Decoder] = {}


class _Header(msgspec.Struct, array_like=True):
    format: int
    title: str
    rules_version: str
    length: int


def _decoder(engine: Engine[Any]) -> msgspec.msgpack.Decoder:
    dec = _decoders.get(id(engine))
    if dec is None:
        node = tuple[int, int, engine.action_type, int, bool]  # type: ignore[name-defined]
        body = msgspec.defstruct(
            "Snapshot",
            [
                ("format", int),
                ("title", str),
                ("rules_version", str),
                ("length", int),
                ("nodes", list[node]),
                ("heads", list[int]),
                ("redo", list[tuple[int, int]]),
                ("states", list[tuple[int, engine.state_type]]),  # type: ignore[name-defined]
            ],
            array_like=True,
        )
        dec = _decoders[id(engine)] = msgspec.msgpack.Decoder(body)
    return dec


def encode_timeline(timeline: Timeline[Any]) -> bytes:
    """The timeline at `timeline.length` (the seq it has folded up to)."""
    meta = timeline.engine.meta
    nodes = [(n.seq, n.seat, n.action, n.parent.seq, n.barrier)
             for seq, n in sorted(timeline.nodes.items()) if n.parent is not None]
    keep = timeline.every * SPARSE
    states = [(n.seq, n.state) for n in timeline.nodes.values()
              if n.state is not None and n.parent is not None and (n is timeline.head or n.depth % keep == 0)]
    return _encoder.encode((
        FORMAT, meta.id, meta.rules_version, timeline.length, nodes,
        [n.seq for n in timeline.heads], [(n.seq, seat) for n, seat in timeline.redo], states,
    ))


def restore_timeline(
    engine: Engine[Any], seats: list[str], options: dict[str, Any], seed: int, blob: bytes
) -> Timeline[Any] | None:
    """A Timeline at the snapshot's seq, or None if the snapshot is unusable."""
    try:
        header = msgspec.msgpack.decode(blob, type=_Header)  # array_like: extra fields ignored
        if (header.format, header.title, header.rules_version) != (FORMAT, engine.meta.id, engine.meta.rules_version):
            return None
        snap = _decoder(engine).decode(blob)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    timeline = Timeline(engine, seats, options, seed)
    nodes = timeline.nodes
    try:
        for seq, seat, action, parent, barrier in snap.nodes:
            nodes[seq] = Node(seq, seat, action, nodes[parent], None, barrier)
        for seq, state in snap.states:
            nodes[seq].state = state
        timeline.heads = [nodes[seq] for seq in snap.heads]
        timeline.redo = [(nodes[seq], seat) for seq, seat in snap.redo]
    except KeyError:
        return None
    timeline.head = timeline.heads[-1]
    if timeline.head.state is None or timeline.length != snap.length:
        return None
    return timeline
