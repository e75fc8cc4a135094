"""Run `roundhouse game` / `roundhouse projection` as real child processes on loopback.

Used by `roundhouse bench live` and by the end-to-end tests (tests/e2e/stack.py), which kill
-9 and restart them. Each child writes stdout and stderr to one log file; it is ready when
the runner's `roundhouse <name> listening on <url>` line appears there. Children die with
their owner (PR_SET_PDEATHSIG), so a crashed test run leaves no service behind. Start them
from the main thread: Linux delivers that signal when the *thread* that forked exits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from shared.redis_server import _die_with_parent, free_port

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("game", "projection")


class ServiceFailed(RuntimeError):
    """A service process exited or did not become ready; the message ends with its log tail."""


class ServiceProcess:
    """One service process with a fixed port, so a restart comes back at the same URL."""

    def __init__(self, kind: str, env: dict[str, str], log_dir: Path, port: int | None = None, name: str | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        self.kind = kind
        self.env = dict(env)
        self.port = port or free_port()
        self.name = name or f"{kind}-{self.port}"
        self.log_path = Path(log_dir) / f"{self.name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 30.0, **env: str | None) -> ServiceProcess:
        """Start (or restart) the process; `env` adds variables for this start only (None removes one)."""
        if self.alive():
            raise RuntimeError(f"{self.name} is already running")
        child_env = {**os.environ, **self.env, "PYTHONPATH": str(ROOT)}
        for key, value in env.items():
            if value is None:
                child_env.pop(key, None)
            else:
                child_env[key] = value
        self.starts += 1
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {self.starts} ---\n".encode())
            offset += len(f"--- start {self.starts} ---\n")
            self.process = subprocess.Popen(
                [sys.executable, "-m", "services.cli", self.kind, "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=ROOT,
                env=child_env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=_die_with_parent,
            )
        self._wait_ready(offset, timeout)
        return self

    def _wait_ready(self, offset: int, timeout: float) -> None:
        marker = f"roundhouse {self.kind} listening on".encode()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                if marker in log.read():
                    return
            if not self.alive():
                code = self.process.returncode if self.process else "?"
                raise ServiceFailed(f"{self.name} exited with {code}: {self.log_tail()}")
            time.sleep(0.02)
        self.kill()
        raise ServiceFailed(f"{self.name} not ready within {timeout}s: {self.log_tail()}")

    def log_tail(self, chars: int = 2000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:] if self.log_path.exists() else ""

    def wait_exit(self, timeout: float = 10.0) -> int:
        """Wait for the process to end by itself (e.g. at a failpoint); its exit code."""
        assert self.process is not None
        return self.process.wait(timeout)

    def kill(self) -> None:
        """kill -9: no shutdown hooks, no goodbye to clients."""
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (graceful), then SIGKILL if it takes longer than `timeout`."""
        if not self.alive():
            return
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()

