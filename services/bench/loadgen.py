"""One load-generator process of `roundhouse bench live` (`python -m services.bench.loadgen`).

It reads a `WorkerConfig` line on stdin, opens every socket of its tables and says `ready`,
waits for `go`, then plays: per table one driver submits a random legal action for the seat
to act, computed from a local fold of the table (the driver is the table's only writer, so
its fold is the log), waits until that seat's socket has the outcome before the seat plays
on, and keeps to the configured pace. A table that finishes is replaced by a new one.

Latency of one action: from just before its submit is sent until the last socket of its
table has the `update` with its seq. Only submits sent inside the measured window count.
Sockets parse just the head of each frame (type, seq), not the view or patch, to keep this
process cheap; every socket checks that seqs arrive with no gap and no repeat.
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import time
from functools import partial
from typing import Any

import aiohttp
import msgspec

from shared.engine import default_options, encode_action
from shared.games import get_engine
from shared.timeline import Timeline

from services.offline.random_play import random_action

from .messages import Outcome, Progress, Ready, TableSpec, WorkerConfig, decode_config, encode
from .wsclient import HeadSocket

DRAIN_SECONDS = 5.0  # after the window: how long updates of counted submits may still take
OPEN_AT_ONCE = 50  # sockets opened concurrently



def _reached(watch: Watch, run: TableRun) -> bool:
    return watch.seq >= run.seq

class _Head(msgspec.Struct):
    type: str
    seq: int = -1
    code: str = ""


_decode_head = msgspec.json.Decoder(_Head).decode


_BIG_LAST_FIELDS = (b',"patch":', b',"view":')  # an update's patch, a welcome's view


def frame_head(head: bytes, size: int) -> _Head:
    """type and seq of a server message from its first bytes (its patch or view is its last field)."""
    if size <= len(head):
        return _decode_head(head)
    for field in _BIG_LAST_FIELDS:
        cut = head.find(field)
        if cut >= 0:
            return _decode_head(head[:cut] + b"}")
    raise ValueError(f"no patch or view field in the first {len(head)} bytes of a {size}-byte message: {head[:120]!r}")


class HttpConnection:
    """One keep-alive HTTP/1.1 connection carrying one request at a time: a table's submits.

    A few lines of HTTP instead of aiohttp's client, whose per-request cost was a third of
    this process's CPU; the game service is the same aiohttp server either way.
    """

    def __init__(self, base_url: str) -> None:
        host, _, port = base_url.removeprefix("http://").partition(":")
        self.host, self.port = host, int(port)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: bytes, token: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        self.writer.write(
            b"POST %s HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
            % (path.encode(), self.host.encode(), self.port, token.encode(), len(body), body)
        )
        try:
            status_line = await self.reader.readline()
            length, keep = 0, True
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"connection" and value.strip().lower() == b"close":
                    keep = False
            reply = await self.reader.readexactly(length)
            status = int(status_line.split(b" ", 2)[1])
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            self.close()
            raise ConnectionError(f"POST {path}: connection lost") from None
        if not keep:
            self.close()
        return status, reply

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Watch:
    """One WebSocket watching a table as a seat (or spectator)."""

    def __init__(self, run: TableRun, seat: int | None) -> None:
        self.run = run
        self.seat = seat
        self.seq = -1
        self.sock: HeadSocket | None = None
        self.welcomed = asyncio.Event()
        self.watcher: asyncio.Task[None] | None = None

    async def open(self) -> None:
        run = self.run
        host, _, rest = run.spec.ws_url.removeprefix("ws://").partition(":")
        port, _, path = rest.partition("/")
        self.sock = await HeadSocket.connect(host, int(port), "/" + path, self._message)
        hello: dict[str, Any] = {"type": "hello", "v": 1, "table": run.spec.table}
        if self.seat is not None:
            hello["token"] = run.spec.tokens[self.seat]
        self.sock.send_text(msgspec.json.encode(hello))
        closed = asyncio.ensure_future(self.sock.closed.wait())
        welcomed = asyncio.ensure_future(self.welcomed.wait())
        await asyncio.wait((closed, welcomed), timeout=30, return_when=asyncio.FIRST_COMPLETED)
        closed.cancel()
        welcomed.cancel()
        if not self.welcomed.is_set():
            raise ConnectionError(f"table {run.spec.table}: no welcome")
        self.watcher = asyncio.create_task(self._watch(self.sock))

    def _message(self, head_bytes: bytes, size: int) -> None:
        run = self.run
        try:
            head = frame_head(head_bytes, size)
        except (ValueError, msgspec.DecodeError) as exc:
            run.worker.error(f"table {run.spec.table}: unreadable frame: {exc}")
            return
        if head.type == "update":
            if head.seq != self.seq + 1:
                run.worker.error(f"table {run.spec.table}: socket expected seq {self.seq + 1}, got {head.seq}")
            self.seq = head.seq
            run.delivered(head.seq)
        elif head.type == "welcome":
            self.seq = head.seq
            self.welcomed.set()
        elif head.type == "error":
            run.worker.error(f"table {run.spec.table}: error frame {head.code}")

    async def _watch(self, sock: HeadSocket) -> None:
        await sock.closed.wait()
        if not self.run.worker.stopping and not self.run.replacing:
            self.run.worker.error(f"table {self.run.spec.table}: socket closed by the server")

    async def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        if self.watcher is not None:
            self.watcher.cancel()
            await asyncio.gather(self.watcher, return_exceptions=True)


class TableRun:
    """One table: its local fold, its sockets, and the driver that plays it."""

    def __init__(self, worker: Worker, spec: TableSpec, rng: random.Random) -> None:
        self.worker = worker
        self.engine = get_engine(worker.cfg.title)
        self.rng = rng
        self.replacing = False
        self.http = HttpConnection(spec.game_url)
        self.set_table(spec)

    def set_table(self, spec: TableSpec) -> None:
        self.spec = spec
        names = [f"P{i}" for i in range(len(spec.tokens))]
        self.timeline = Timeline(self.engine, names, default_options(self.engine), spec.seed)
        self.seq = 0
        self.watches = [Watch(self, seat) for seat in spec.sockets]
        self.by_seat = {w.seat: w for w in self.watches if w.seat is not None}
        self.pending: dict[int, list[Any]] = {}  # seq -> [sent at, sockets still to get it, counted]
        self.moved = asyncio.Event()

    async def open(self) -> None:
        for watch in self.watches:
            async with self.worker.opening:
                await watch.open()

    def delivered(self, seq: int) -> None:
        entry = self.pending.get(seq)
        if entry is not None:
            entry[1] -= 1
            if entry[1] <= 0:
                del self.pending[seq]
                if entry[2]:
                    self.worker.latencies.append((time.perf_counter() - entry[0]) * 1000)
        self.moved.set()

    async def _until(self, ready: Any) -> None:
        while not ready():
            self.moved.clear()
            await self.moved.wait()

    async def drive(self) -> None:
        worker, interval = self.worker, self.worker.cfg.interval
        due = time.perf_counter() + self.rng.random() * interval
        while True:
            if interval:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                due = max(due + interval, time.perf_counter())
            if time.perf_counter() >= worker.window_end:
                return
            state = self.timeline.state
            if self.engine.result(state) is not None:
                await self.replace()
                continue
            seat = min(self.engine.active_seats(state))
            watch = self.by_seat.get(seat)
            if watch is not None:  # the seat learns it is its turn from its own socket
                try:
                    await asyncio.wait_for(self._until(partial(_reached, watch, self)), DRAIN_SECONDS)
                except TimeoutError:
                    worker.error(f"table {self.spec.table}: seq {self.seq} never reached seat {seat}'s socket")
                    return
            action = random_action(self.engine, state, seat, self.rng)
            if not await self.submit(seat, action):
                return

    async def submit(self, seat: int, action: Any) -> bool:
        worker, seq = self.worker, self.seq + 1
        body = b'{"expected_seq":%d,"idempotency_key":"b%d","action":%s}' % (self.seq, seq, encode_action(action))
        sent = time.perf_counter()
        counted = worker.window_start <= sent < worker.window_end
        self.pending[seq] = [sent, len(self.watches), counted]
        if not self.watches:
            self.pending.pop(seq)
        try:
            status, reply = await self.http.post(f"/api/tables/{self.spec.table}/actions", body, self.spec.tokens[seat])
        except ConnectionError as exc:
            status, reply = 0, str(exc).encode()
        if status != 201:
            self.pending.pop(seq, None)
            worker.error(f"table {self.spec.table} seq {seq}: HTTP {status} {reply[:200]!r}")
            return False
        self.timeline.push(seat, action)
        self.seq = seq
        worker.accepted += 1
        if counted:
            worker.accepted_in_window += 1
            worker.reply_ms.append((time.perf_counter() - sent) * 1000)
        return True

    async def replace(self) -> None:
        """The game ended: once every socket has its last update, play a new table instead."""
        await asyncio.wait_for(self._until(lambda: all(w.seq >= self.seq for w in self.watches)), DRAIN_SECONDS)
        self.replacing = True
        for watch in self.watches:
            await watch.close()
        seed = self.rng.randrange(2**31)
        seats = [{"name": f"P{i}"} for i in range(len(self.spec.tokens))]
        async with self.worker.http.post(f"{self.spec.game_url}/api/tables",
                                         json={"title": self.worker.cfg.title, "seats": seats, "seed": seed}) as resp:
            created = await resp.json()
            if resp.status != 201:
                raise RuntimeError(f"creating a replacement table: {resp.status} {created}")
        self.set_table(msgspec.structs.replace(
            self.spec, table=created["table"], seed=seed, tokens=[s["token"] for s in created["seats"]]))
        await self.open()
        self.replacing = False
        self.worker.tables_replaced += 1


class Worker:
    def __init__(self, cfg: WorkerConfig, http: aiohttp.ClientSession) -> None:
        self.cfg = cfg
        self.http = http
        self.opening = asyncio.Semaphore(OPEN_AT_ONCE)
        rng = random.Random(cfg.seed)
        self.runs = [TableRun(self, spec, random.Random(rng.randrange(2**63))) for spec in cfg.tables]
        self.latencies: list[float] = []
        self.reply_ms: list[float] = []
        self.errors = 0
        self.error_samples: list[str] = []
        self.accepted = 0
        self.accepted_in_window = 0
        self.tables_replaced = 0
        self.stopping = False
        self.window_start = self.window_end = float("inf")

    def error(self, message: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(message)

    async def run(self) -> Outcome:
        await asyncio.gather(*(run.open() for run in self.runs))
        # Set-up objects live to the end: keep the GC's full collections (pauses that would
        # count as latency) off them, as the services do (services/runner.py).
        gc.collect()
        gc.freeze()
        say(Ready(sockets=sum(len(r.watches) for r in self.runs)))
        if (await asyncio.to_thread(sys.stdin.readline)).strip() != "go":
            raise SystemExit("load generator: expected `go` on stdin")
        now = time.perf_counter()
        self.window_start = now + self.cfg.warmup
        self.window_end = self.window_start + self.cfg.seconds
        progress = asyncio.create_task(self._progress())
        drivers = await asyncio.gather(*(run.drive() for run in self.runs), return_exceptions=True)
        for failure in drivers:
            if isinstance(failure, BaseException):
                self.error(f"driver failed: {failure!r}")
        await self._drain()
        progress.cancel()
        self.stopping = True
        await asyncio.gather(*(w.close() for run in self.runs for w in run.watches), return_exceptions=True)
        for run in self.runs:
            run.http.close()
        return Outcome(
            accepted=self.accepted_in_window,
            window=self.cfg.seconds,
            latencies_ms=self.latencies,
            reply_ms=self.reply_ms,
            errors=self.errors,
            error_samples=self.error_samples,
            tables_replaced=self.tables_replaced,
        )

    async def _drain(self) -> None:
        """Wait for the updates of counted submits; any still missing then is an error."""
        deadline = time.perf_counter() + DRAIN_SECONDS

        def missing() -> int:
            return sum(1 for run in self.runs for entry in run.pending.values() if entry[2])

        while missing() and time.perf_counter() < deadline:
            await asyncio.sleep(0.02)
        if missing():
            self.error(f"{missing()} updates did not reach every socket within {DRAIN_SECONDS:g}s")

    async def _progress(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            say(Progress(accepted=self.accepted))


def say(message: Any) -> None:
    sys.stdout.write(encode(message).decode() + "\n")
    sys.stdout.flush()


async def amain() -> None:
    cfg = decode_config((await asyncio.to_thread(sys.stdin.readline)).encode())
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    async with aiohttp.ClientSession(connector=connector) as http:
        say(await Worker(cfg, http).run())


if __name__ == "__main__":
    asyncio.run(amain())
