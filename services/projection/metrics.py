"""Counters of one projection process, rendered in the Prometheus text format."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

_PREFIX = "roundhouse_projection_"

# name -> help; all counters (monotonic).
_COUNTERS = {
    "sockets_opened_total": "WebSocket connections accepted",
    "welcomes_total": "fresh welcomes sent (full view)",
    "resumes_total": "hellos answered by a replay from the client's last_seq",
    "updates_folded_total": "log entries folded into table state",
    "fold_errors_total": "log entries the engine rejected while folding (state left unchanged)",
    "views_computed_total": "engine.view calls (one per watching seat per update)",
    "frames_sent_total": "frames written to sockets",
    "bytes_sent_total": "bytes of frames written to sockets",
    "slow_clients_dropped_total": "sockets dropped for not reading fast enough",
    "cold_replays_total": "replays that re-folded the log because memory history did not reach back",
    "tables_ended_total": "tables this process saw end outside the rules (a clock ran out, on_timeout=abandon)",
    "reader_errors_total": "failed stream reads (retried with backoff)",
    "reader_rearms_total": "blocking reads cancelled and re-issued because the table set changed",
}


class Metrics:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()  # error frames by code
        self.gauges: dict[str, tuple[str, Callable[[], float]]] = {}

    def inc(self, name: str, by: int = 1) -> None:
        self.counts[name] += by

    def error(self, code: str) -> None:
        self.errors[code] += 1

    def gauge(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        self.gauges[name] = (help_text, read)

    def render(self) -> str:
        lines: list[str] = []
        for name, (help_text, read) in sorted(self.gauges.items()):
            lines += [f"# HELP {_PREFIX}{name} {help_text}", f"# TYPE {_PREFIX}{name} gauge", f"{_PREFIX}{name} {read()}"]
        for name, help_text in _COUNTERS.items():
            lines += [
                f"# HELP {_PREFIX}{name} {help_text}",
                f"# TYPE {_PREFIX}{name} counter",
                f"{_PREFIX}{name} {self.counts[name]}",
            ]
        lines += [f"# HELP {_PREFIX}errors_total error frames sent, by code", f"# TYPE {_PREFIX}errors_total counter"]
        lines += [f'{_PREFIX}errors_total{{code="{code}"}} {n}' for code, n in sorted(self.errors.items())]
        return "\n".join(lines) + "\n"
