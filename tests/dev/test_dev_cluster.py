"""`roundhouse dev --redis-cluster 3`: the same app over a local Redis Cluster it starts and stops."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import stat
from pathlib import Path

import pytest
import redis

from shared.store import keys

from tests.dev.devproc import DevProcess, alive, dev_env, free_port, http
from tests.dev.test_dev_command import create_table, play_first_legal, token_of, welcome


def node_pids(cluster_dir: Path) -> list[int]:
    pids = []
    for log in sorted(cluster_dir.glob("node-*/redis.log")):
        found = re.findall(r"pid=(\d+), just started", log.read_text())
        pids.append(int(found[-1]))
    return pids


def test_dev_runs_on_a_local_cluster_and_stops_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with DevProcess(data, free_port(), dev_env(), ("--redis-cluster", "3")) as dev:
        base = dev.wait_ready(timeout=60)
        assert http("GET", base + "api/ready")[0] == 200
        created = create_table(base)
        table, first = created["table"], created["active_seats"][0]
        assert play_first_legal(base, table, token_of(created, first), 0, "first")["seq"] == 1
        hello = asyncio.run(welcome(base, table, token_of(created, first)))
        assert (hello["type"], hello["seq"]) == ("welcome", 1)
        status, listing = http("GET", base + "api/tables")
        assert status == 200 and table in [t["table"] for t in listing["tables"]]

        cluster = data / "redis-cluster"
        ports = json.loads((cluster / "ports.json").read_text())
        assert len(ports) == 6  # 3 masters, one replica each
        # Every node behind the dev password, as the single embedded Redis: in its 0600
        # redis.conf (with masterauth, so replicas sync), never on a command line.
        password = (data / "redis-password").read_text().strip()
        assert stat.S_IMODE((data / "redis-password").stat().st_mode) == 0o600
        for i, port in enumerate(ports):
            conf = cluster / f"node-{i}" / "redis.conf"
            assert stat.S_IMODE(conf.stat().st_mode) == 0o600
            assert f'requirepass "{password}"' in conf.read_text() and f'masterauth "{password}"' in conf.read_text()
            with pytest.raises(redis.AuthenticationError):
                redis.Redis(port=port).ping()
            node = redis.Redis(port=port, password=password)
            assert node.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
            node.close()
        assert password not in "\n".join(dev.stdout)
        client = redis.RedisCluster(host="127.0.0.1", port=ports[0], password=password)
        try:
            assert client.cluster_info()["cluster_state"] == "ok"
            assert client.xlen(keys.log_key(table)) == 1
            # Each replica synced from its master through masterauth.
            replicas = [redis.Redis(port=p, password=password) for p in ports[3:]]
            assert [r.info("replication")["master_link_status"] for r in replicas] == ["up"] * 3
            for r in replicas:
                r.close()
        finally:
            client.close()
        pids = node_pids(cluster)
        assert len(pids) == 6 and all(alive(p) for p in pids)
        assert dev.stop(signal.SIGTERM) == 0, dev.stderr()
        assert not any(alive(p) for p in pids)
        assert "Traceback" not in dev.stderr()


def test_a_bad_cluster_size_is_one_line(tmp_path: Path) -> None:
    with DevProcess(tmp_path / "data", free_port(), dev_env(), ("--redis-cluster", "-2")) as dev:
        assert dev.proc.wait(timeout=30) != 0
        err = dev.stderr().strip().splitlines()
        assert len(err) == 1 and "--redis-cluster" in err[0], err
