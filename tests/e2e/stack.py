"""The real stack for end-to-end tests: `roundhouse game` and `roundhouse projection` as child
processes on free loopback ports, sharing one Redis and one ROUNDHOUSE_SECRET, plus small
HTTP and WebSocket clients that speak to them the way a player's client does.

Only the store is read directly (to check the log itself and to replay it); everything a
client does goes over HTTP and WebSocket.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path
from typing import Any

import aiohttp
import msgspec

from shared.engine import decode_action
from shared.games import get_engine
from shared.protocol.json_patch import PatchError, apply
from shared.store import RedisEventStore, keys
from shared.store.connect import connect
from shared.timeline import Timeline

from services.bench.procs import ServiceProcess
from tests.redis_replies import stream_entries

SECRET = "e2e-secret-7c1d-0123456789abcdef0123"  # >= 32 bytes: shorter ones are refused
TITLE = "chicago-express"
# Projection knobs for the tests: a slow reader is dropped after 2 s, a feed outlives its
# last socket briefly.
SERVICE_ENV = {
    "ROUNDHOUSE_SECRET": SECRET,
    "ROUNDHOUSE_LOG_LEVEL": "WARNING",
    "ROUNDHOUSE_WS_SEND_TIMEOUT": "2",
    "ROUNDHOUSE_WS_FEED_GRACE": "1",
}

_keys = itertools.count()


def new_key(prefix: str = "k") -> str:
    return f"{prefix}-{next(_keys)}-{random.getrandbits(32):08x}"


class Stack:
    """One game and one projection process against `redis_url`."""

    def __init__(self, redis_url: str, log_dir: Path, **env: str) -> None:
        self.redis_url = redis_url
        base = {**SERVICE_ENV, "REDIS_URL": redis_url, **env}
        self.game = ServiceProcess("game", base, log_dir)
        self.projection = ServiceProcess("projection", base, log_dir)

    def start(self) -> Stack:
        self.game.start()
        self.projection.start()
        return self

    def stop(self) -> None:
        for service in (self.projection, self.game):
            service.stop()


# --- HTTP ------------------------------------------------------------------------------------


class Reply(msgspec.Struct):
    status: int
    body: Any
    headers: dict[str, str]


class GameClient:
    """The game service's HTTP API, as a player's client calls it."""

    def __init__(self, http: aiohttp.ClientSession, base_url: str) -> None:
        self.http = http
        self.base = base_url

    async def request(self, method: str, path: str, *, token: str | None = None, **kw: Any) -> Reply:
        headers = dict(kw.pop("headers", {}))
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        async with self.http.request(method, self.base + path, headers=headers, **kw) as resp:
            raw = await resp.read()
            body = msgspec.json.decode(raw) if raw and resp.content_type == "application/json" else raw
            return Reply(resp.status, body, dict(resp.headers))

    async def create_table(self, players: int, seed: int) -> dict[str, Any]:
        seats = [{"name": f"P{i}"} for i in range(players)]
        reply = await self.request("POST", "/api/tables", json={"title": TITLE, "seats": seats, "seed": seed})
        assert reply.status == 201, reply
        return reply.body

    async def submit(self, table: str, token: str, expected_seq: int, action: Any, key: str | None = None) -> Reply:
        body = {"expected_seq": expected_seq, "idempotency_key": key or new_key(), "action": action}
        return await self.request("POST", f"/api/tables/{table}/actions", token=token, json=body)

    async def legal(self, table: str, token: str) -> dict[str, Any]:
        reply = await self.request("GET", f"/api/tables/{table}/legal", token=token)
        assert reply.status == 200, reply
        return reply.body


def pick(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A random legal action from the legal endpoint's list (a value drawn for a range)."""
    choice = rng.choice(legal)
    action = dict(choice["action"])
    r = choice.get("range")
    if r:
        action[r["field"]] = rng.randrange(r["min"], r["max"] + 1, r["step"])
    return action


class Match:
    """One table played through the HTTP API by scripted seats: each seat to act picks a random
    action from the legal endpoint. A seat with a socket waits to see each of its outcomes
    on that socket before playing on, as a client would."""

    def __init__(self, game: GameClient, created: dict[str, Any], rng_seed: int) -> None:
        self.game = game
        self.table: str = created["table"]
        self.tokens: list[str] = [s["token"] for s in created["seats"]]
        self.seq = 0
        self.status = created["status"]
        self.active: list[int] = created["active_seats"]
        self.rng = random.Random(rng_seed)
        self.sockets: list[LiveSocket] = []

    @classmethod
    async def create(cls, game: GameClient, players: int, seed: int) -> Match:
        return cls(game, await game.create_table(players, seed), rng_seed=seed)

    async def open_sockets(self, http: aiohttp.ClientSession, ws_url: str) -> list[LiveSocket]:
        """One socket per seat, then one spectator (`sockets[-1]`)."""
        self.sockets = [LiveSocket(http, ws_url, self.table, t) for t in [*self.tokens, None]]
        for sock in self.sockets:
            await sock.connect()
        return self.sockets

    async def legal_action(self, seat: int) -> dict[str, Any]:
        legal = await self.game.legal(self.table, self.tokens[seat])
        assert legal["seq"] == self.seq and legal["active"], legal
        return pick(self.rng, legal["actions"])

    def accepted(self, reply: Reply) -> None:
        assert reply.status == 201, reply
        self.seq, self.status, self.active = reply.body["seq"], reply.body["status"], reply.body["active_seats"]

    async def play(self, turns: int | None = None, watch: bool = True) -> int:
        """Play `turns` actions (None: to the end of the game); returns the seq reached."""
        played = 0
        while self.active and (turns is None or played < turns):
            seat = self.active[0]
            reply = await self.game.submit(self.table, self.tokens[seat], self.seq, await self.legal_action(seat))
            assert reply.headers.get("Idempotent-Replayed") == "false", reply
            self.accepted(reply)
            if watch and seat < len(self.sockets):
                await self.sockets[seat].wait_seq(self.seq)
            played += 1
            assert played < 3000, "the game does not end"
        return self.seq


# --- WebSocket -------------------------------------------------------------------------------


class LiveSocket:
    """One WebSocket to the projection, applying the protocol's sequence rules.

    Every frame is kept (`frames`); `seqs` lists every update seq received over all
    connections, so a test can check it is strictly consecutive across reconnects.
    """

    def __init__(self, http: aiohttp.ClientSession, ws_url: str, table: str, token: str | None = None) -> None:
        self.http = http
        self.ws_url = ws_url
        self.table = table
        self.token = token
        self.seq = 0
        self.view: Any = None
        self.seqs: list[int] = []
        self.frames: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.welcomes: list[dict[str, Any]] = []
        self.ends: list[dict[str, Any]] = []  # `ended` frames
        self.closed = asyncio.Event()
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    async def connect(self) -> LiveSocket:
        """Open, say hello with the last seq held, and wait for the welcome."""
        self.closed.clear()
        self._ws = await self.http.ws_connect(self.ws_url, max_msg_size=0, heartbeat=None)
        hello: dict[str, Any] = {"type": "hello", "v": 1, "table": self.table, "last_seq": self.seq}
        if self.token is not None:
            hello["token"] = self.token
        await self._ws.send_json(hello)
        welcomes = len(self.welcomes)
        self._reader = asyncio.create_task(self._read(self._ws))
        await self._until(lambda: len(self.welcomes) > welcomes or self.closed.is_set(), 10.0)
        if len(self.welcomes) == welcomes:
            raise ConnectionError(f"no welcome; errors {self.errors}")
        return self

    async def reconnect(self, timeout: float = 20.0) -> None:
        """Reconnect with backoff until the projection answers again (as protocol.md asks)."""
        deadline = asyncio.get_running_loop().time() + timeout
        delay = 0.05
        while True:
            try:
                await self.connect()
                return
            except (aiohttp.ClientError, ConnectionError, OSError):
                if asyncio.get_running_loop().time() > deadline:
                    raise
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        try:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                self._handle(msgspec.json.decode(msg.data))
        except (aiohttp.ClientError, ConnectionError):
            pass
        finally:
            self.closed.set()
            self._poke()

    def _handle(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        kind = frame["type"]
        if kind == "welcome":
            self.welcomes.append(frame)
            if frame["resumed"]:
                assert frame["seq"] == self.seq and frame["view"] is None, frame
            else:
                self.view = frame["view"]
            self.seq = frame["seq"]
        elif kind == "update":
            self.seqs.append(frame["seq"])
            self.seq = frame["seq"]
            try:
                self.view = apply(self.view, frame["patch"])
            except PatchError as exc:  # never expected: the test's waits report it
                self.errors.append({"type": "error", "code": "bad_patch", "message": str(exc)})
        elif kind == "ended":  # the table ended outside the rules: its patch applies to the view at seq
            assert frame["seq"] == self.seq, frame
            self.ends.append(frame)
            try:
                self.view = apply(self.view, frame["patch"])
            except PatchError as exc:
                self.errors.append({"type": "error", "code": "bad_patch", "message": str(exc)})
        elif kind == "error":
            self.errors.append(frame)
        self._poke()

    def _poke(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _until(self, done: Any, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not done():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"socket on {self.table}: condition not met in {timeout}s (seq {self.seq}, errors {self.errors})"
                )
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                pass

    async def wait_seq(self, seq: int, timeout: float = 10.0) -> None:
        await self._until(lambda: self.seq >= seq, timeout)

    async def wait_result(self, timeout: float = 10.0) -> dict[str, Any]:
        """The view's result, once it has one (the rules ended the game, or the table ended)."""
        await self._until(lambda: isinstance(self.view, dict) and self.view.get("result") is not None, timeout)
        return self.view["result"]

    async def wait_closed(self, timeout: float = 10.0) -> None:
        await asyncio.wait_for(self.closed.wait(), timeout)

    async def send_raw(self, data: str) -> None:
        assert self._ws is not None
        await self._ws.send_str(data)

    @property
    def close_code(self) -> int | None:
        return None if self._ws is None else self._ws.close_code

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


# --- the log itself --------------------------------------------------------------------------


class Replay(msgspec.Struct):
    timeline: Any
    seqs: list[int]
    keys: list[str]


async def replay(redis_url: str, table: str) -> Replay:
    """Fold the table's stream from Redis with the engine's Timeline (the reference result)."""
    client = connect(redis_url)
    try:
        store = RedisEventStore(client)
        meta = await store.get_meta(table)
        assert meta is not None, table
        engine = get_engine(meta.title)
        timeline = Timeline(engine, [s.name for s in meta.seats], meta.options, meta.seed)
        entries = await store.read(table, 0)
        for entry in entries:
            timeline.push(entry.seat, decode_action(engine, entry.action))
        return Replay(timeline, [e.seq for e in entries], [e.key for e in entries])
    finally:
        await client.aclose()


async def stream_ids(redis_url: str, table: str) -> list[int]:
    """The seqs of the table's stream entries, straight from XRANGE."""
    client = connect(redis_url)
    try:
        return [int(entry_id.split(b"-")[0]) for entry_id, _ in await stream_entries(client, keys.log_key(table))]
    finally:
        await client.aclose()


async def projection_counter(http: aiohttp.ClientSession, stack: Stack, name: str) -> int:
    """One counter of the projection's /live/metrics."""
    async with http.get(stack.projection.url + "/live/metrics") as resp:
        text = await resp.text()
    line = next(row for row in text.splitlines() if row.startswith(f"roundhouse_projection_{name} "))
    return int(line.split()[1])


def as_json(value: Any) -> Any:
    """A view as the wire carries it (tuples become lists, structs dicts)."""
    return msgspec.json.decode(msgspec.json.encode(value))
