"""A controllable clock for the services a test runs (shared/timesource.py): the time is a
number in a file every process reads, so a test moves time on instead of sleeping."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared import timesource

START_MS = 1_900_000_000_000


class TestTime:
    __test__ = False  # not a test class

    def __init__(self, path: Path, start_ms: int = START_MS) -> None:
        self.path = path
        self.set(start_ms)

    @property
    def env(self) -> dict[str, str]:
        return {timesource.ENV: str(self.path)}

    def set(self, ms: int) -> None:
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(str(ms))
        tmp.replace(self.path)  # atomic: a reader never sees a half-written number
        self.ms = ms

    def advance(self, ms: int) -> int:
        self.set(self.ms + ms)
        return self.ms


def use_test_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> TestTime:
    """A TestTime the services started after this call read (through the environment)."""
    time = TestTime(tmp_path / "now")
    for name, value in time.env.items():
        monkeypatch.setenv(name, value)
    return time
