"""How the offline tools fail: one line on stderr, a non-zero exit status, never a traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from shared.engine import Engine, RuleError
from shared.games import get_engine


class OfflineError(Exception):
    """A problem reported as `line` on stderr with exit status `exit_code` (2: bad input, 1: bad action)."""

    def __init__(self, line: str, exit_code: int) -> None:
        super().__init__(line)
        self.line = line
        self.exit_code = exit_code


def engine_for(title: str, where: str) -> Engine[Any]:
    try:
        return get_engine(title)
    except RuleError as exc:
        raise OfflineError(f"{where}: {exc.code}: {exc.message}", 2) from None


def internal_error(where: str, exc: Exception) -> OfflineError:
    """An exception the contract does not allow (an engine bug), still reported in one line."""
    return OfflineError(f"{where}: internal_error: {type(exc).__name__}: {exc}", 3)


def run_reporting(body: Callable[[], int]) -> int:
    """Run a tool's body; turn any failure into one line on stderr and an exit status."""
    try:
        return body()
    except OfflineError as exc:
        line, code = exc.line, exc.exit_code
    except KeyboardInterrupt:
        line, code = "interrupted", 130
    except Exception as exc:  # noqa: BLE001 - the one place that keeps tracebacks from users
        err = internal_error("roundhouse", exc)
        line, code = err.line, err.exit_code
    print(line.replace("\n", " "), file=sys.stderr)
    return code
