"""The services' wall clock in ms: what log entries, clock events and deadlines are stamped with.

`ROUNDHOUSE_TEST_TIME_FILE=<path>` (tests only, like shared/failpoints.py) makes every
process that has it read the time from that file (a whole number of ms) instead, so a test
moves time forward for the game service, its restarts and its replicas at once, rather
than sleeping while a clock runs down. Never set it outside tests.
"""

from __future__ import annotations

import os
import time

ENV = "ROUNDHOUSE_TEST_TIME_FILE"


def now_ms() -> int:
    path = os.environ.get(ENV)
    if path:
        with open(path, encoding="ascii") as f:
            return int(f.read().strip())
    return time.time_ns() // 1_000_000
