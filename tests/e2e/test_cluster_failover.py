"""The whole stack on a local Redis Cluster (3 masters, 1 replica each) with the replica
acknowledgement on: game and projection processes, a `roundhouse bot` worker, people playing
over HTTP and watching over WebSocket. A master is killed with kill -9 mid-play; its replica
is promoted; afterwards every acknowledged action is in the log once, and every socket has
received every seq exactly once, in order. Also: the ready endpoints follow the cluster."""

from __future__ import annotations

import asyncio
import functools
import random
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest
from redis.crc import key_slot

from shared.engine import served_view
from shared.games import get_engine
from shared.redis_cluster import LocalCluster
from shared.store import keys

from tests.bots.conftest import WorkerProcess, assert_each_turn_played_once
from tests.bots.conftest import replay as bot_replay
from tests.waiting import until

from .stack import SECRET, TITLE, GameClient, LiveSocket, Match, Reply, Stack, as_json, new_key, pick, replay

# One replica must hold an action before it is acknowledged; a node unheard for 1 s is failed.
ACK_ENV = {"ROUNDHOUSE_REDIS_WAIT_REPLICAS": "1", "ROUNDHOUSE_REDIS_WAIT_MS": "500"}
NODE_TIMEOUT_MS = 1000
# The longest any one step may take across a failover (detection, election, the old master's
# return as a replica and its first sync): far above the few seconds it takes here.
RECOVERY_S = 45.0
PEOPLE_TABLES, TURNS, KILL_AT = 6, 40, 12

T = TypeVar("T")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    # Behind a password, as `roundhouse dev --redis-cluster` runs it: the old master rejoins
    # as a replica through masterauth.
    started = LocalCluster(tmp_path / "cluster", masters=3, replicas=1, node_timeout_ms=NODE_TIMEOUT_MS,
                           password="failover-" + uuid.uuid4().hex).start()
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def cluster_stack(cluster: LocalCluster, tmp_path: Path) -> Iterator[Stack]:
    stack = Stack(cluster.url, tmp_path, **ACK_ENV)
    try:
        yield stack.start()
    finally:
        stack.stop()


def slot_of(table: str) -> int:
    return key_slot(keys.log_key(table).encode())


class Unavailable:
    """How many times a client was told to retry (503 or a dropped connection)."""

    def __init__(self) -> None:
        self.count = 0


async def retrying(call: Callable[[], Awaitable[T]], ok: Callable[[T], bool], what: str,
                   unavailable: Unavailable | None = None) -> T:
    """`call` again (with backoff) while it fails as an unavailable store does: a 503 or a
    dropped connection. Anything else is returned at once; bounded by RECOVERY_S."""
    loop = asyncio.get_running_loop()
    deadline, delay = loop.time() + RECOVERY_S, 0.02
    while True:
        try:
            result = await call()
            if ok(result):
                return result
        except (TimeoutError, aiohttp.ClientError):
            pass
        if unavailable is not None:
            unavailable.count += 1
        if loop.time() > deadline:
            raise AssertionError(f"{what}: still unavailable after {RECOVERY_S} s")
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.25)


def not_503(reply: Reply) -> bool:
    return reply.status != 503


async def seen(sock: LiveSocket, seq: int) -> None:
    """Until `sock` holds `seq`; if the projection closed it meanwhile, reconnect with the last
    seq held (a client's resume), as often as needed within RECOVERY_S."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + RECOVERY_S
    while sock.seq < seq:
        if sock.closed.is_set():
            await sock.reconnect(timeout=max(deadline - loop.time(), 0.1))
            continue
        try:
            await sock.wait_seq(seq, timeout=max(min(deadline - loop.time(), 1.0), 0.1))
        except TimeoutError:
            if loop.time() > deadline:
                raise


class Player:
    """A people's table played by scripted seats through the failover: each action is retried
    with its idempotency key until acknowledged (201), as a client must."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.acked: list[str] = []
        self.rng = random.Random(match.table)
        self.unavailable = Unavailable()

    async def legal_action(self, seat: int) -> dict[str, Any]:
        m = self.match
        reply = await retrying(lambda: m.game.request("GET", f"/api/tables/{m.table}/legal", token=m.tokens[seat]),
                               not_503, f"legal on {m.table}", self.unavailable)
        assert reply.status == 200 and reply.body["seq"] == m.seq, reply
        return pick(self.rng, reply.body["actions"])

    async def play(self, turns: int, on_turn: Callable[[Player], None]) -> None:
        m = self.match
        for _ in range(turns):
            if not m.active:
                return
            seat = m.active[0]
            action, key = await self.legal_action(seat), new_key(m.table)
            submit = functools.partial(m.game.submit, m.table, m.tokens[seat], m.seq, action, key)
            reply = await retrying(submit, not_503, f"submit on {m.table}", self.unavailable)
            # 201, replayed or not: a try before the failover may have been kept.
            m.accepted(reply)
            self.acked.append(key)
            await seen(m.sockets[seat], m.seq)
            on_turn(self)


async def create_bot_table(game: GameClient) -> str:
    seats = [{"name": f"r{i}", "kind": "bot", "level": "random"} for i in range(2)]
    reply = await retrying(lambda: game.request("POST", "/api/tables", json={"title": TITLE, "seats": seats, "seed": 5}),
                           not_503, "creating a bot table")
    assert reply.status == 201, reply
    return str(reply.body["table"])


async def test_a_master_killed_mid_play_loses_nothing_and_every_socket_resumes(
    cluster: LocalCluster, cluster_stack: Stack, http: aiohttp.ClientSession, tmp_path: Path
) -> None:
    game = GameClient(http, cluster_stack.game.url)
    worker = WorkerProcess(cluster.url, cluster_stack.game.url,
                           f"bots-failover-{uuid.uuid4().hex[:8]}", "w0",
                           {"ROUNDHOUSE_SECRET": SECRET, "ROUNDHOUSE_BOT_ITERATIONS": "5", **ACK_ENV},
                           stderr_path=tmp_path / "bot.log")
    try:
        await worker.ready()
        players = [Player(await Match.create(game, 2, seed=100 + i)) for i in range(PEOPLE_TABLES)]
        for p in players:
            await p.match.open_sockets(http, cluster_stack.projection.ws_url)
        # One bot table plays from before the failover, one is created right after the kill.
        bot_tables = [await create_bot_table(game)]
        # The master of the first table's slot dies when that table reaches KILL_AT actions,
        # with every other table mid-play too.
        victim = cluster.master_of_slot(slot_of(players[0].match.table))
        killed = asyncio.Event()

        def kill_at(player: Player) -> None:
            if player is players[0] and len(player.acked) == KILL_AT:
                cluster.servers[victim].kill()
                killed.set()

        async def bring_back() -> None:
            # The promoted replica has no replica of its own, so its tables' appends cannot be
            # acknowledged (503) until the old master is back, now as its replica.
            await killed.wait()
            bot_tables.append(await create_bot_table(game))
            await until(lambda: cluster.master_of_slot(slot_of(players[0].match.table)) != victim,
                        "the replica to be promoted", timeout=RECOVERY_S, interval=0.05)
            cluster.servers[victim].start()

        await asyncio.wait_for(asyncio.gather(bring_back(), *(p.play(TURNS, kill_at) for p in players)),
                               timeout=4 * RECOVERY_S)
        assert killed.is_set()
        # The first table played on past the kill, through its master's failover (as a 503 to
        # retry, or as a slow answer when redis-py's own retries outlasted it).
        assert len(players[0].acked) > KILL_AT
        cluster.wait_ok()
        assert cluster.master_of_slot(slot_of(players[0].match.table)) != victim
        on_victim = [p for p in players if cluster.master_of_slot(slot_of(p.match.table)) == victim]
        assert not on_victim  # every slot the dead master had is served by its old replica

        engine = get_engine(TITLE)
        for p in players:
            m = p.match
            ref = await replay(cluster.url, m.table)
            # Every acknowledged action is in the log, once, in the order acknowledged.
            assert ref.keys == p.acked and len(set(ref.keys)) == len(ref.keys)
            assert ref.seqs == list(range(1, m.seq + 1))
            for sock in m.sockets:
                await seen(sock, m.seq)
                # No gap and nothing twice, across however many reconnects it took.
                assert sock.seqs == list(range(1, m.seq + 1)), (m.table, sock.seqs)
                assert sock.view == as_json(served_view(engine, ref.timeline.state, sock.welcomes[0]["seat"]))

        # The bot worker played its tables through the failover, each turn once.
        for table in bot_tables:
            async def finished(t: str = table) -> bool:
                reply = await game.request("GET", f"/api/tables/{t}")
                return reply.status == 200 and reply.body["status"] == "finished"

            try:
                await until(finished, f"bot table {table} to finish", timeout=4 * RECOVERY_S, interval=0.1)
            except AssertionError as exc:
                detail = await game.request("GET", f"/api/tables/{table}")
                raise AssertionError(f"{exc}; table {detail.body}; bot worker log: "
                                     f"{(tmp_path / 'bot.log').read_text()[-3000:]}") from None
            _result, entries = await bot_replay(cluster.url, table)
            assert_each_turn_played_once(entries)
    finally:
        worker.close()
        for p in locals().get("players", []):
            for sock in p.match.sockets:
                await sock.close()


async def ready_status(http: aiohttp.ClientSession, url: str) -> int:
    try:
        async with http.get(url, timeout=aiohttp.ClientTimeout(total=10)) as resp:
            return resp.status
    except (TimeoutError, aiohttp.ClientError):
        return 0


async def until_status(http: aiohttp.ClientSession, url: str, want: int, what: str) -> None:
    async def reached() -> bool:
        return await ready_status(http, url) == want

    await until(reached, f"{url} to answer {want} {what}", timeout=RECOVERY_S, interval=0.05)


async def test_ready_endpoints_follow_the_cluster_through_a_failover(
    cluster: LocalCluster, cluster_stack: Stack, http: aiohttp.ClientSession
) -> None:
    urls = [cluster_stack.game.url + "/api/ready", cluster_stack.projection.url + "/live/ready"]
    assert [await ready_status(http, url) for url in urls] == [200, 200]

    async def down_then_up(url: str) -> None:
        # Each endpoint on its own: the two see the promotion at different moments.
        await until_status(http, url, 503, "while the master is dead and not yet replaced")
        await until_status(http, url, 200, "once its replica is promoted")

    cluster.servers[0].kill()  # a master: node 0 serves the first third of the slots
    await asyncio.gather(*(down_then_up(url) for url in urls))
    assert cluster.master_of_slot(0) != 0  # ready again with the old master still dead
    # With a master and its replica both gone the cluster cannot serve their slots: not ready.
    cluster.servers[cluster.master_of_slot(0)].kill()
    await asyncio.gather(*(until_status(http, url, 503, "without any node for slot 0") for url in urls))
