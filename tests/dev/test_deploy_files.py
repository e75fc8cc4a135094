"""docker-compose.yml, deploy/Dockerfile, deploy/redis.conf and deploy/k8s agree with the code.

No Docker engine runs here, so each file is parsed and every fact it states about
Roundhouse (commands, ports, health paths, env vars) is checked against the real CLI,
the real apps' routes and the real Config; redis.conf is loaded by a real redis-server.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import time
from importlib import import_module
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
import yaml

from shared.config import Config
from shared.redis_server import free_port, redis_server_binary

from services.cli import build_parser
from tests.dev.devproc import REPO

DEPLOY = REPO / "deploy"
APP_MODULES = {"game": "services.game.app", "projection": "services.projection.app"}


def config_env_vars() -> set[str]:
    """Every REDIS_*/ROUNDHOUSE_* variable some service or shared module reads."""
    names: set[str] = set()
    for package in ("services", "shared"):
        for path in (REPO / package).rglob("*.py"):
            names.update(re.findall(r'(?:get|_env_int)\(\s*(?:[\w.]+,\s*)?"((?:REDIS|ROUNDHOUSE)_[A-Z_]+)"', path.read_text()))
    return names


def parse_command(argv: list[str]) -> Any:
    """The argv after the image's ENTRYPOINT `roundhouse`, parsed by the real CLI."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:
        pytest.fail(f"`roundhouse {shlex.join(argv)}` is not a roundhouse command")
    assert callable(getattr(import_module(args.module), "main", None)), f"{args.module} has no main(args)"
    return args


def route_paths(service: str) -> set[str]:
    app = import_module(APP_MODULES[service]).create_app(Config(redis_url="redis://127.0.0.1:1/0", secret=b"k"))
    return {route.resource.canonical for route in app.router.routes() if route.resource is not None}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


@pytest.fixture(scope="module")
def k8s() -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        docs.extend(doc for doc in yaml.safe_load_all(path.read_text()) if doc)
    return docs


def test_compose_runs_redis_with_the_aof_config_and_a_ping_healthcheck(compose: dict[str, Any]) -> None:
    redis_svc = compose["services"]["redis"]
    assert redis_svc["image"] == "redis:6.2"
    mounts = dict(v.rsplit(":", 1)[0].split(":", 1) for v in redis_svc["volumes"] if v.startswith("./"))
    assert mounts == {"./deploy/redis.conf": redis_svc["command"][1]}
    assert any(v.split(":")[0] in compose["volumes"] and v.endswith(":/data") for v in redis_svc["volumes"])
    assert redis_svc["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]


@pytest.mark.parametrize("service,health", [("game", "/api/ready"), ("projection", "/live/ready")])
def test_compose_service_command_port_health_and_env(compose: dict[str, Any], service: str, health: str) -> None:
    svc = compose["services"][service]
    assert svc["build"] == {"context": ".", "dockerfile": "deploy/Dockerfile"}
    args = parse_command(svc["command"])
    assert args.command == service
    assert svc["depends_on"] == {"redis": {"condition": "service_healthy"}}

    published = {p.rsplit(":", 1)[1] for p in svc["ports"]}
    assert published == {str(args.port)}

    probe = svc["healthcheck"]["test"]
    assert probe[:3] == ["CMD", "python", "-c"]
    url = urlsplit(probe[3].split("'")[1])
    assert (url.port, url.path) == (args.port, health)
    assert health in route_paths(service)

    env = svc["environment"]
    assert set(env) <= config_env_vars()
    assert urlsplit(env["REDIS_URL"]).hostname == "redis"
    # One secret for all: compose must refuse to start without it rather than invent one.
    assert env["ROUNDHOUSE_SECRET"].startswith("${ROUNDHOUSE_SECRET:?")


def test_compose_services_share_one_environment(compose: dict[str, Any]) -> None:
    assert compose["services"]["game"]["environment"] == compose["services"]["projection"]["environment"]


def test_dockerfile_one_nonroot_image_with_roundhouse_entrypoint() -> None:
    lines = [line.strip() for line in (DEPLOY / "Dockerfile").read_text().splitlines()]
    instructions = [line for line in lines if line and not line.startswith("#")]
    assert instructions[0] == "FROM python:3.11-slim"
    entrypoints = [line for line in instructions if line.startswith("ENTRYPOINT")]
    assert entrypoints and json.loads(entrypoints[-1].split(" ", 1)[1]) == ["roundhouse"]
    user = [line for line in instructions if line.startswith("USER")][-1].split()[1]
    assert user.split(":")[0] not in ("root", "0")
    for line in instructions:
        if line.startswith("COPY"):
            for source in line.split()[1:-1]:
                assert (REPO / source).exists(), f"Dockerfile copies missing {source}"
    exposed = {int(p) for line in instructions if line.startswith("EXPOSE") for p in line.split()[1:]}
    assert exposed == {build_parser().parse_args([s]).port for s in APP_MODULES}


def test_redis_conf_is_loaded_by_a_real_redis_server(tmp_path: Path) -> None:
    port = free_port()
    # The compose service runs redis-server in /data with this file; here a temp dir.
    proc = subprocess.Popen(
        [redis_server_binary(), str(DEPLOY / "redis.conf"), "--port", str(port), "--bind", "127.0.0.1",
         "--logfile", str(tmp_path / "redis.log")],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        client = redis.Redis(port=port)
        for _ in range(200):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert proc.poll() is None, (tmp_path / "redis.log").read_text()
                time.sleep(0.02)
        got = {key: client.config_get(key)[key] for key in ("appendonly", "appendfsync", "maxmemory-policy", "save")}
        assert got == {"appendonly": "yes", "appendfsync": "always", "maxmemory-policy": "noeviction", "save": ""}
        client.xadd("rh:{t}:log", {"a": "1"})
        assert (tmp_path / "appendonly.aof").read_bytes().count(b"XADD") == 1
        client.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def by_kind(docs: list[dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {doc["metadata"]["name"]: doc for doc in docs if doc["kind"] == kind}


def test_k8s_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((DEPLOY / "k8s" / "kustomization.yaml").read_text())
    manifests = {p.name for p in (DEPLOY / "k8s").glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == manifests


def test_k8s_config_and_secret_hold_only_settings_the_services_read(k8s: list[dict[str, Any]]) -> None:
    (config,) = by_kind(k8s, "ConfigMap").values()
    (secret,) = by_kind(k8s, "Secret").values()
    assert set(config["data"]) <= config_env_vars()
    assert {"REDIS_URL", "ROUNDHOUSE_SECRET", "ROUNDHOUSE_PORT"} <= config_env_vars()
    assert "REDIS_URL" in config["data"]
    assert set(secret["stringData"]) == {"ROUNDHOUSE_SECRET"}


@pytest.mark.parametrize("service,ready,live", [("game", "/api/ready", "/api/health"), ("projection", "/live/ready", "/live/health")])
def test_k8s_deployment_and_service(k8s: list[dict[str, Any]], service: str, ready: str, live: str) -> None:
    name = f"roundhouse-{service}"
    deployment = by_kind(k8s, "Deployment")[name]
    svc = by_kind(k8s, "Service")[name]
    pod = deployment["spec"]["template"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()
    assert svc["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    assert pod["spec"]["securityContext"]["runAsNonRoot"] is True

    (container,) = pod["spec"]["containers"]
    args = parse_command(container["args"])
    assert args.command == service
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": args.port}
    assert [p["targetPort"] for p in svc["spec"]["ports"]] == ["http"]

    routes = route_paths(service)
    for probe, path in (("readinessProbe", ready), ("livenessProbe", live)):
        get = container[probe]["httpGet"]
        assert (get["path"], get["port"]) == (path, "http")
        assert path in routes

    refs = {next(iter(ref)): next(iter(ref.values()))["name"] for ref in container["envFrom"]}
    assert refs == {"configMapRef": "roundhouse-config", "secretRef": "roundhouse-secret"}
    assert set(by_kind(k8s, "ConfigMap")) == {"roundhouse-config"}
    assert set(by_kind(k8s, "Secret")) == {"roundhouse-secret"}
