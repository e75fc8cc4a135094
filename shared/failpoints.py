"""Test-only crash points: a way for end-to-end tests to kill a service at one exact line.

`ROUNDHOUSE_FAILPOINT=<name>[,<name>...]` arms named points when the process starts; an
armed point ends the process at once with `os._exit(137)` (no cleanup, no reply written:
what `kill -9` at that line looks like). Never set it outside tests; unset, a point costs
one set lookup.

Points in the code base:
- `crash_after_append` (game service, submit): the Lua append succeeded, the reply is not
  written yet. Used by tests/e2e to show a retry with the same idempotency key gets the
  original outcome.
"""

from __future__ import annotations

import os

ENV = "ROUNDHOUSE_FAILPOINT"
EXIT_CODE = 137  # what a shell reports for a process killed by SIGKILL

_armed = frozenset(name.strip() for name in os.environ.get(ENV, "").split(",") if name.strip())


def crash_point(name: str) -> None:
    """Die here, like kill -9, if `name` is armed (tests only)."""
    if name in _armed:
        os._exit(EXIT_CODE)
