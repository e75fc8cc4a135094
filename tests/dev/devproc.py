"""Run `roundhouse dev` as a real subprocess, the way a user does, and watch it."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
READY = re.compile(r"^Roundhouse running at (http://\S+/)$")
START_TIMEOUT = 20.0


def dev_env(redis_url: str | None = None, **extra: str) -> dict[str, str]:
    """The caller's environment without REDIS_URL (embedded Redis) unless one is given."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "ROUNDHOUSE_SECRET")}
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DevProcess:
    """`python3 -m services.cli dev ...` with its stdout lines collected by a thread."""

    def __init__(self, data_dir: Path, port: int, env: dict[str, str], extra_args: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.port = port
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "services.cli", "dev", "--port", str(port), "--data-dir", str(data_dir), *extra_args],
            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stdout: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.url = ""

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait_ready(self, timeout: float = START_TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            self.stdout.append(line)
            if match := READY.match(line):
                self.url = match.group(1)
                # The data line follows the URL line.
                following = self.lines.get(timeout=5)
                if following is not None:
                    self.stdout.append(following)
                return self.url
        self.stop(signal.SIGKILL)
        raise AssertionError(f"no ready line; stdout={self.stdout} stderr={self.stderr()}")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(timeout=timeout)

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return "<running>"
        assert self.proc.stderr is not None
        return self.proc.stderr.read()

    def __enter__(self) -> DevProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:  # the test did not stop it: shut down as an operator would
            try:
                self.stop(signal.SIGTERM)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        # A test that failed half-way must not leave its redis-server behind.
        embedded = redis_pid(self.data_dir)
        if embedded is not None and alive(embedded) and _comm(embedded).startswith("redis-server"):
            os.kill(embedded, signal.SIGKILL)


def redis_pid(data_dir: Path) -> int | None:
    """The pid of the last redis-server started on this data dir, from its own log.

    (redis-server rewrites its process title, so its command line cannot be searched.)
    """
    log = data_dir / "redis" / "redis.log"
    if not log.exists():
        return None
    pids = re.findall(r"pid=(\d+), just started", log.read_text())
    return int(pids[-1]) if pids else None


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text()
    except FileNotFoundError:
        return ""


def http(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """One HTTP request; returns (status, decoded JSON or text)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, raw, ctype = response.status, response.read(), response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as err:
        status, raw, ctype = err.code, err.read(), err.headers.get("Content-Type", "")
    text = raw.decode()
    return status, (json.loads(text) if "json" in ctype else text)
