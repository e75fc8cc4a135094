"""Start a private Redis Cluster: N masters, each with R replicas, all on 127.0.0.1, from the
same redis-server binary as shared/redis_server.py (`--cluster-enabled yes`). The slots are
assigned and the nodes joined by this code (CLUSTER ADDSLOTS / MEET / REPLICATE); `start`
returns once every node reports `cluster_state:ok`, knows every other node, and every replica's
link to its master is up. Used by the tests (REDIS_CLUSTER=1) and `roundhouse dev --redis-cluster N`.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import redis as redis_py

from shared.redis_server import RedisServer, free_port
from shared.store.connect import cluster_url

SLOTS = 16384
BUS_OFFSET = 10000


class ClusterNotReady(RuntimeError):
    pass


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_port() -> int:
    """A free port whose cluster bus port (port + 10000, fixed in redis-server 6.2) is free too."""
    while True:
        port = free_port()
        if port + BUS_OFFSET <= 65535 and _bindable(port + BUS_OFFSET):
            return port


def cluster_ports(n: int) -> list[int]:
    """`n` such ports, none on another's bus port."""
    ports: list[int] = []
    while len(ports) < n:
        port = cluster_port()
        if not {port, port + BUS_OFFSET} & {p + d for p in ports for d in (0, BUS_OFFSET)}:
            ports.append(port)
    return ports


class LocalCluster:
    """`masters` masters with `replicas` replicas each; node i's data in `data_dir/node-<i>`.

    The nodes' ports are kept in `data_dir/ports.json`, so a restart over the same directory
    brings the same cluster back (each node's nodes.conf names its peers by port).

    With a `password`, every node requires it (and replicas give it to their master): it goes
    in each node's redis.conf (0600), never on a command line (see RedisServer), and in `url`.
    `settings` are more redis.conf lines for every node (e.g. maxmemory)."""

    def __init__(self, data_dir: str | Path, masters: int = 3, replicas: int = 1, fsync: str = "always",
                 node_timeout_ms: int = 2000, *, password: str | None = None,
                 settings: dict[str, str] | None = None) -> None:
        if masters < 1 or replicas < 0:
            raise ValueError("a cluster needs at least 1 master and >= 0 replicas per master")
        self.data_dir = Path(data_dir)
        self.masters = masters
        self.replicas = replicas
        self.fsync = fsync
        self.node_timeout_ms = node_timeout_ms
        self.password = password
        self.settings = dict(settings or {})  # more redis.conf lines for every node (e.g. maxmemory)
        self.servers: list[RedisServer] = []
        # Chosen (or read back) now, so the URL is known before the cluster starts.
        self.ports, self._existing = self._ports()

    @property
    def url(self) -> str:
        return cluster_url([("127.0.0.1", port) for port in self.ports], self.password)

    def _ports(self) -> tuple[list[int], bool]:
        saved = self.data_dir / "ports.json"
        total = self.masters * (1 + self.replicas)
        if saved.exists():
            ports = json.loads(saved.read_text())
            if len(ports) == total:
                return ports, True
        ports = cluster_ports(total)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        saved.write_text(json.dumps(ports))
        return ports, False

    def start(self, timeout: float = 30.0) -> LocalCluster:
        ports, existing = self.ports, self._existing
        extra = ("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                 "--cluster-node-timeout", str(self.node_timeout_ms))
        conf = {**self.settings, **({"masterauth": self.password} if self.password else {})}
        try:
            for i, port in enumerate(ports):
                self.servers.append(RedisServer(self.data_dir / f"node-{i}", port, self.fsync, password=self.password,
                                                settings=conf, extra_args=extra).start())
            if not (existing and self._joined()):
                self._create()
            self.wait_ok(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def client(self, i: int) -> redis_py.Redis:
        return redis_py.Redis(host="127.0.0.1", port=self.servers[i].port, password=self.password, socket_timeout=5,
                              decode_responses=True)

    def _joined(self) -> bool:
        with self.client(0) as c:
            return int(c.cluster("INFO")["cluster_known_nodes"]) == len(self.servers)

    def _create(self) -> None:
        ids = []
        for i in range(len(self.servers)):
            with self.client(i) as c:
                ids.append(c.execute_command("CLUSTER MYID"))
        with self.client(0) as first:
            for server in self.servers[1:]:
                first.execute_command("CLUSTER MEET", "127.0.0.1", server.port)
        per = SLOTS // self.masters
        for m in range(self.masters):
            low, high = m * per, SLOTS - 1 if m == self.masters - 1 else (m + 1) * per - 1
            with self.client(m) as c:
                c.execute_command("CLUSTER ADDSLOTS", *range(low, high + 1))
        # A replica may follow its master only once it knows that node.
        self._until(10.0, lambda: all(self._knows_all(i) for i in range(len(self.servers))), "nodes to meet")
        for r in range(self.masters, len(self.servers)):
            master = (r - self.masters) % self.masters
            with self.client(r) as c:
                c.execute_command("CLUSTER REPLICATE", ids[master])

    def _knows_all(self, i: int) -> bool:
        with self.client(i) as c:
            return int(c.cluster("INFO")["cluster_known_nodes"]) == len(self.servers)

    def _node_ok(self, i: int) -> bool:
        process = self.servers[i].process
        if process is None or process.poll() is not None:
            return True  # a killed node does not vote; the others must be ok without it
        try:
            with self.client(i) as c:
                if c.cluster("INFO")["cluster_state"] != "ok":
                    return False
                info = c.info("replication")
                return info["role"] == "master" or info.get("master_link_status") == "up"
        except redis_py.RedisError:
            return False

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every live node says cluster_state:ok and every live replica is linked."""
        self._until(timeout, lambda: all(self._node_ok(i) for i in range(len(self.servers))), "cluster_state:ok")

    def _until(self, timeout: float, done, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise ClusterNotReady(f"local Redis Cluster: no {what} within {timeout}s (logs in {self.data_dir})")
            time.sleep(0.05)

    def master_of_slot(self, slot: int) -> int:
        """Index (into `servers`) of the live node serving `slot` as master."""
        for i, server in enumerate(self.servers):
            if server.process is None or server.process.poll() is not None:
                continue
            with self.client(i) as c:
                for low, high, master, *_ in c.execute_command("CLUSTER SLOTS"):
                    if low <= slot <= high:
                        return next(j for j, s in enumerate(self.servers) if s.port == int(master[1]))
        raise ClusterNotReady(f"no live node serves slot {slot}")

    def stop(self) -> None:
        for server in reversed(self.servers):
            server.stop()
        self.servers = []
