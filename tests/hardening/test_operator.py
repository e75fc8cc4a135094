"""The operator's side: secrets too short are refused, `roundhouse dev` keeps its data
private and its Redis behind a password. (Invite links: test_input.py; metrics: test_limits.py.)"""

from __future__ import annotations

import re
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import redis

from shared.redis_server import RedisServer

from tests.dev.devproc import REPO, DevProcess, dev_env, free_port


@pytest.mark.parametrize("service", ["game", "projection"])
@pytest.mark.parametrize("secret,message", [
    ("", "set ROUNDHOUSE_SECRET"),
    ("x", "ROUNDHOUSE_SECRET is 1 bytes; use at least 32"),
    ("k" * 31, "ROUNDHOUSE_SECRET is 31 bytes; use at least 32"),
])
def test_services_refuse_a_missing_or_short_secret(redis_url, service, secret, message):
    env = dev_env(redis_url, ROUNDHOUSE_SECRET=secret)
    proc = subprocess.run([sys.executable, "-m", "services.cli", service, "--host", "127.0.0.1", "--port", "0"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith(f"roundhouse {service}: ") and message in line, line


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _redis_port(data_dir: Path) -> int:
    log = (data_dir / "redis" / "redis.log").read_text()
    return int(re.findall(r"port=(\d+)", log)[-1])


def test_dev_keeps_its_data_private_and_its_redis_behind_a_password(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    (data / "stale-file").write_text("from an older version")
    (data / "stale-file").chmod(0o644)
    with DevProcess(data, free_port(), dev_env()) as dev:
        dev.wait_ready()
        assert _mode(data) == 0o700 and _mode(data / "stale-file") == 0o600
        for name in ("secret", "redis-password"):
            assert _mode(data / name) == 0o600, name
        aof = [p for p in (data / "redis").iterdir() if p.name.startswith("appendonly")]
        assert aof and all(_mode(p) & 0o077 == 0 for p in aof), [(p.name, oct(_mode(p))) for p in aof]
        assert _mode(data / "redis") & 0o077 == 0
        port = _redis_port(data)
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=port).ping()
        password = (data / "redis-password").read_text().strip()
        client = redis.Redis(port=port, password=password)
        assert len(password) >= 32 and client.ping()
        # A memory cap: when it is reached writes are refused, never evicted.
        assert client.config_get("maxmemory")["maxmemory"] == str(1024**3)
        assert client.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"
        client.close()
        assert password not in "\n".join(dev.stdout)  # the banner shows where it is, not what it is


def test_the_embedded_redis_asks_for_its_password_from_its_first_connection(tmp_path):
    """No window between start and protection: every connection that gets an answer while
    redis-server starts is asked for the password; the password is in a 0600 file, not on the
    command line, and the unix socket is the owner's only."""
    password = "p" * 48
    server = RedisServer(tmp_path / "r", password=password, settings={"maxmemory": "64mb"})
    starting = threading.Thread(target=server.start)
    starting.start()
    answers: list[bytes] = []
    try:
        while starting.is_alive() or not answers:
            try:
                with socket.create_connection(("127.0.0.1", server.port), timeout=1) as conn:
                    conn.sendall(b"CONFIG GET requirepass\r\n")
                    answers.append(conn.recv(256))
            except OSError:
                continue  # not listening yet
        starting.join()
        assert answers and all(a.startswith(b"-NOAUTH") for a in answers), answers
        # Started from a thread that has ended: Redis lives on (Linux's parent-death signal
        # follows the spawning thread, so it must not be asked for from this one).
        assert server.process is not None
        with pytest.raises(subprocess.TimeoutExpired):
            server.process.wait(timeout=1)
        assert _mode(tmp_path / "r" / "redis.conf") == 0o600
        assert _mode(server.socket_path) & 0o077 == 0
        assert server.process is not None
        assert password.encode() not in Path(f"/proc/{server.process.pid}/cmdline").read_bytes()
        client = redis.Redis(unix_socket_path=str(server.socket_path), password=password)
        assert client.config_get("maxmemory")["maxmemory"] == str(64 * 1024**2)
        client.close()
    finally:
        starting.join()
        server.stop()


@pytest.mark.parametrize("service", ["game", "projection"])
def test_a_malformed_limit_setting_is_one_line(redis_url, service):
    env = dev_env(redis_url, ROUNDHOUSE_SECRET="s" * 32, ROUNDHOUSE_LIMIT_CREATE="fast")
    proc = subprocess.run([sys.executable, "-m", "services.cli", service, "--host", "127.0.0.1", "--port", "0"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith(f"roundhouse {service}: ROUNDHOUSE_LIMIT_CREATE must be"), line
