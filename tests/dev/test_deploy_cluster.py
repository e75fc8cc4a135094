"""The Redis Cluster deployments agree with the code and work: docker-compose.yml's profile
`cluster` and the Kubernetes overlay deploy/k8s-cluster (both run deploy/k8s-cluster's node
and join scripts). No Docker engine runs here: the compose file is parsed (and checked by
`docker compose config` / `docker-compose config` where one is installed), the overlay is
built by `kubectl kustomize` where kubectl is, and the scripts themselves start six real
redis-server nodes, join them, and the services' own client uses the result."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
import yaml

from shared.redis_cluster import cluster_ports
from shared.redis_server import redis_server_binary
from shared.store import RedisEventStore, SeatSpec, TableMeta
from shared.store.connect import connect, seed_nodes, unhealthy

from tests.dev.devproc import REPO
from tests.dev.test_deploy_files import config_env_vars, parse_command, route_paths

SCRIPTS = REPO / "deploy" / "k8s-cluster"
NODES = [f"redis-node-{i}" for i in range(6)]
PODS = [f"roundhouse-redis-{i}.roundhouse-redis" for i in range(6)]


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def cluster_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: svc for name, svc in compose["services"].items() if "cluster" in svc.get("profiles", [])}


# --- docker-compose.yml, profile `cluster` ------------------------------------------------------


def test_the_profile_has_six_nodes_a_join_and_the_three_services(compose: dict[str, Any]) -> None:
    assert set(cluster_services(compose)) == {*NODES, "redis-cluster-create", "game-cluster", "projection-cluster",
                                              "bot-cluster"}
    for name in NODES:
        node = compose["services"][name]
        assert node["image"].startswith("redis:7")  # cluster-announce-hostname needs Redis 7
        assert node["hostname"] == name == node["environment"]["REDIS_ANNOUNCE_HOSTNAME"]
        assert node["entrypoint"] == ["sh", "/etc/roundhouse-redis/redis-node.sh"]
        mounts = dict(v.rsplit(":", 1)[0].split(":", 1) for v in node["volumes"] if v.startswith("./"))
        assert mounts == {"./deploy/k8s-cluster": "/etc/roundhouse-redis"}
        assert f"{name}:/data" in node["volumes"] and name in compose["volumes"]
        assert node["environment"]["ROUNDHOUSE_REDIS_PASSWORD"] == "${ROUNDHOUSE_REDIS_PASSWORD:-}"
        assert "ping" in node["healthcheck"]["test"][1]

    create = compose["services"]["redis-cluster-create"]
    assert create["entrypoint"] == ["sh", "/etc/roundhouse-redis/redis-create.sh"]
    assert create["command"] == [f"{n}:6379" for n in NODES]  # masters first, as the script wants
    assert create["depends_on"] == {n: {"condition": "service_healthy"} for n in NODES}
    assert create["restart"] == "no"


@pytest.mark.parametrize("service,health", [("game", "/api/ready"), ("projection", "/live/ready")])
def test_the_cluster_services_run_the_same_commands_on_the_cluster(compose: dict[str, Any], service: str,
                                                                   health: str) -> None:
    single, on_cluster = compose["services"][service], compose["services"][f"{service}-cluster"]
    assert on_cluster["command"] == single["command"]
    args = parse_command(on_cluster["command"])
    assert {p.rsplit(":", 1)[1] for p in on_cluster["ports"]} == {str(args.port)}
    url = urlsplit(on_cluster["healthcheck"]["test"][3].split("'")[1])
    assert (url.port, url.path) == (args.port, health) and health in route_paths(service)
    assert on_cluster["depends_on"] == {"redis-cluster-create": {"condition": "service_completed_successfully"}}

    env = on_cluster["environment"]
    assert set(env) <= config_env_vars()
    assert {k: v for k, v in env.items() if k not in ("REDIS_URL", "ROUNDHOUSE_GAME_URL") and not k.startswith(
        "ROUNDHOUSE_REDIS_WAIT")} == {k: v for k, v in single["environment"].items() if k not in ("REDIS_URL", "ROUNDHOUSE_GAME_URL")}
    assert env["REDIS_URL"].startswith("redis-cluster://:${ROUNDHOUSE_REDIS_PASSWORD:-}@")
    seeds = {host for host, _port in seed_nodes(env["REDIS_URL"])}
    assert seeds == set(NODES[:3])  # the masters the join makes
    assert env["ROUNDHOUSE_REDIS_WAIT_REPLICAS"].startswith("${ROUNDHOUSE_REDIS_WAIT_REPLICAS:-1}")
    assert urlsplit(env["ROUNDHOUSE_GAME_URL"]).hostname == "game-cluster"


def test_published_ports_do_not_collide(compose: dict[str, Any]) -> None:
    published = [p.split(":")[0] for svc in compose["services"].values() for p in svc.get("ports", [])]
    assert len(published) == len(set(published)), published


def test_the_bot_on_the_cluster_waits_for_its_game_service(compose: dict[str, Any]) -> None:
    bot = compose["services"]["bot-cluster"]
    assert parse_command(bot["command"]).command == "bot"
    assert bot["depends_on"]["game-cluster"] == {"condition": "service_healthy"}


def compose_cli() -> list[str] | None:
    for cmd in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(cmd[0]) and subprocess.run([*cmd, "version"], capture_output=True).returncode == 0:
            return cmd
    return None


def test_docker_compose_config_accepts_both_profiles(tmp_path: Path) -> None:
    cmd = compose_cli()
    if cmd is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    env = {**os.environ, "ROUNDHOUSE_SECRET": "s" * 64, "ROUNDHOUSE_REDIS_PASSWORD": "p" * 48}
    for profile in ([], ["--profile", "cluster"]):
        proc = subprocess.run([*cmd, "-f", str(REPO / "docker-compose.yml"), "--project-directory", str(REPO),
                               *profile, "config"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
        assert proc.returncode == 0, proc.stderr
        rendered = yaml.safe_load(proc.stdout)
        assert "game" in rendered["services"]
    assert "redis-cluster://:" + "p" * 48 + "@redis-node-0:6379" in proc.stdout


# --- the node and join scripts, on real redis-server nodes ---------------------------------------


@pytest.fixture
def script_env(tmp_path: Path) -> dict[str, str]:
    bindir = Path(redis_server_binary()).parent
    if not (bindir / "redis-cli").exists() and not shutil.which("redis-cli"):
        pytest.skip("no redis-cli beside redis-server")
    return {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}", "ROUNDHOUSE_REDIS_PASSWORD": "n0de-" + "x" * 40,
            "REDIS_CREATE_TIMEOUT": "60"}


async def test_the_scripts_make_a_password_protected_cluster_the_services_use(tmp_path: Path,
                                                                             script_env: dict[str, str]) -> None:
    password = script_env["ROUNDHOUSE_REDIS_PASSWORD"]
    ports = cluster_ports(6)
    nodes = []
    try:
        for i, port in enumerate(ports):
            data = tmp_path / f"node-{i}"
            data.mkdir()
            # As in a container, but in the foreground's stead daemonized, on loopback.
            subprocess.run(["sh", str(SCRIPTS / "redis-node.sh"), "--port", str(port), "--bind", "127.0.0.1",
                            "--daemonize", "yes", "--logfile", str(data / "redis.log")],
                           env={**script_env, "REDIS_DATA_DIR": str(data)}, check=True, timeout=30)
            nodes.append(redis.Redis(port=port, password=password))
        for i in range(6):
            conf = tmp_path / f"node-{i}" / "node.conf"
            assert stat.S_IMODE(conf.stat().st_mode) == 0o600 and f'requirepass "{password}"' in conf.read_text()
        addresses = [f"127.0.0.1:{p}" for p in ports]
        joined = subprocess.run(["sh", str(SCRIPTS / "redis-create.sh"), *addresses], env=script_env,
                                capture_output=True, text=True, timeout=120)
        assert joined.returncode == 0, joined.stdout + joined.stderr
        assert joined.stdout.strip().endswith("cluster of 6 nodes is ok")
        again = subprocess.run(["sh", str(SCRIPTS / "redis-create.sh"), *addresses], env=script_env,
                               capture_output=True, text=True, timeout=120)
        assert again.returncode == 0 and "exists already" in again.stdout, again.stdout + again.stderr

        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=ports[0]).ping()
        roles = [n.info("replication")["role"] for n in nodes]
        assert roles.count("master") == 3 and roles.count("slave") == 3
        # The URL in compose's form, the services' own client and store.
        client = connect(f"redis-cluster://:{password}@" + ",".join(addresses[:3]))
        try:
            assert await unhealthy(client) is None
            store = RedisEventStore(client, replica_ack=1, replica_ack_ms=2000)
            meta = TableMeta(table="deploytest", title="nim", options={}, seats=[SeatSpec("a"), SeatSpec("b")],
                             seed=1, status="running", created_ms=1)
            await store.create_table(meta)
            assert (await store.append(meta.table, 0, 0, b'{"take":1}', "k1", b"{}", 2)).status == "ok"
            assert [e.key for e in await store.read(meta.table, 0)] == ["k1"]
        finally:
            await client.aclose()
    finally:
        for node in nodes:
            try:
                node.shutdown(nosave=True)
            except redis.RedisError:
                pass  # shutting down closes the connection under the reply


# --- Kubernetes: deploy/k8s-cluster over deploy/k8s ----------------------------------------------


@pytest.fixture(scope="module")
def overlay() -> list[dict[str, Any]]:
    if not shutil.which("kubectl"):
        pytest.skip("kubectl is not installed (it builds the kustomize overlay)")
    proc = subprocess.run(["kubectl", "kustomize", str(SCRIPTS)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [doc for doc in yaml.safe_load_all(proc.stdout) if doc]


def named(docs: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {doc["metadata"]["name"]: doc for doc in docs if doc["kind"] == kind}


def test_the_overlay_runs_six_redis_pods_with_their_own_volumes(overlay: list[dict[str, Any]]) -> None:
    (sts,) = named(overlay, "StatefulSet").values()
    service = named(overlay, "Service")[sts["spec"]["serviceName"]]
    assert service["spec"]["clusterIP"] == "None" and service["spec"]["publishNotReadyAddresses"] is True
    assert sts["spec"]["replicas"] == len(PODS)
    assert [f"{sts['metadata']['name']}-{i}.{sts['spec']['serviceName']}" for i in range(len(PODS))] == PODS
    pod = sts["spec"]["template"]
    assert sts["spec"]["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()
    assert service["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    (container,) = pod["spec"]["containers"]
    assert container["command"] == ["sh", "/etc/roundhouse-redis/redis-node.sh"]
    env = {e["name"]: e for e in container["env"]}
    assert env["REDIS_ANNOUNCE_HOSTNAME"]["value"] == f"$(POD_NAME).{sts['spec']['serviceName']}"
    assert env["ROUNDHOUSE_REDIS_PASSWORD"]["valueFrom"]["secretKeyRef"] == {"name": "roundhouse-redis", "key": "password"}
    assert [t["metadata"]["name"] for t in sts["spec"]["volumeClaimTemplates"]] == ["data"]
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    assert mounts == {"data": "/data", "scripts": "/etc/roundhouse-redis"}
    # The generated ConfigMap holds the very files compose mounts.
    (scripts_volume,) = [v for v in pod["spec"]["volumes"] if v["name"] == "scripts"]
    generated = named(overlay, "ConfigMap")[scripts_volume["configMap"]["name"]]
    assert generated["data"] == {name: (SCRIPTS / name).read_text()
                                 for name in ("redis-cluster.conf", "redis-node.sh", "redis-create.sh")}

    (job,) = named(overlay, "Job").values()
    (create,) = job["spec"]["template"]["spec"]["containers"]
    assert create["command"] == ["sh", "/etc/roundhouse-redis/redis-create.sh"]
    assert create["args"] == [f"{p}:6379" for p in PODS]


@pytest.mark.parametrize("service,ready", [("game", "/api/ready"), ("projection", "/live/ready"), ("bot", None)])
def test_every_service_reaches_the_cluster_and_is_ready_only_when_it_is(overlay: list[dict[str, Any]], service: str,
                                                                         ready: str | None) -> None:
    deployment = named(overlay, "Deployment")[f"roundhouse-{service}"]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert parse_command(container["args"]).command == service
    env = {e["name"]: e for e in container["env"]}
    assert set(env) <= config_env_vars() | {"ROUNDHOUSE_REDIS_PASSWORD"}
    url = env["REDIS_URL"]["value"]
    assert url.startswith("redis-cluster://:$(ROUNDHOUSE_REDIS_PASSWORD)@")
    assert [f"{h}:{p}" for h, p in seed_nodes(url)] == [f"{p}:6379" for p in PODS[:3]]
    # $(VAR) expands only from a variable defined before it in the same list.
    names = [e["name"] for e in container["env"]]
    assert names.index("ROUNDHOUSE_REDIS_PASSWORD") < names.index("REDIS_URL")
    assert env["ROUNDHOUSE_REDIS_WAIT_REPLICAS"]["value"] == "1"
    if ready is None:
        assert "readinessProbe" not in container  # no HTTP: it retries until Redis and game are back
        config = named(overlay, "ConfigMap")["roundhouse-config"]["data"]
        assert urlsplit(config["ROUNDHOUSE_GAME_URL"]).hostname in named(overlay, "Service")
        return
    probe = container["readinessProbe"]
    assert probe["httpGet"] == {"path": ready, "port": "http"} and ready in route_paths(service)
    assert probe["timeoutSeconds"] >= 3  # above the check's own 2 s bound
