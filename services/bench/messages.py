"""What `roundhouse bench live` and its load-generator processes say to each other: one JSON
object per line (config on the worker's stdin; ready / progress / result on its stdout)."""

from __future__ import annotations

import msgspec


class TableSpec(msgspec.Struct):
    """One table a worker drives: where it lives and the sockets that watch it."""

    table: str
    seed: int
    tokens: list[str]
    game_url: str
    ws_url: str
    sockets: list[int | None]  # the seat each socket watches as; None = spectator


class WorkerConfig(msgspec.Struct):
    title: str
    players: int
    tables: list[TableSpec]
    interval: float  # seconds between one table's submits; 0 = as fast as turns allow
    warmup: float
    seconds: float
    seed: int


class Ready(msgspec.Struct, tag="ready"):
    sockets: int


class Progress(msgspec.Struct, tag="progress"):
    accepted: int  # accepted submits so far, warm-up included


class Outcome(msgspec.Struct, tag="result"):
    accepted: int  # accepted submits sent inside the measured window
    window: float  # seconds the window lasted
    latencies_ms: list[float]  # submit sent -> every socket of the table has the update
    reply_ms: list[float]  # submit sent -> HTTP reply read (the command side alone)
    errors: int
    error_samples: list[str]
    tables_replaced: int  # tables that finished and were replaced by a new one


WorkerMessage = Ready | Progress | Outcome

encode = msgspec.json.Encoder().encode
decode_config = msgspec.json.Decoder(WorkerConfig).decode
decode_message = msgspec.json.Decoder(WorkerMessage).decode
