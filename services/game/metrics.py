"""Prometheus text-format metrics, hand-rolled: a handful of counters and one histogram do not
justify a dependency, and the hot path only pays a dict update."""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict


def _labels(names: tuple[str, ...], values: tuple[str, ...]) -> str:
    if not names:
        return ""
    pairs = ",".join(f'{n}="{_escape(v)}"' for n, v in zip(names, values))
    return "{" + pairs + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


class Counter:
    def __init__(self, name: str, help: str, labels: tuple[str, ...] = ()) -> None:
        self.name, self.help, self.label_names = name, help, labels
        self.values: defaultdict[tuple[str, ...], float] = defaultdict(float)

    def inc(self, *labels: str, by: float = 1.0) -> None:
        self.values[labels] += by

    def value(self, *labels: str) -> float:
        return self.values.get(labels, 0.0)

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} counter"]
        if not self.label_names and not self.values:
            lines.append(f"{self.name} 0")
        for labels, v in sorted(self.values.items()):
            lines.append(f"{self.name}{_labels(self.label_names, labels)} {v:g}")
        return lines


class Gauge(Counter):
    def set(self, value: float, *labels: str) -> None:
        self.values[labels] = value

    def render(self) -> list[str]:
        lines = super().render()
        lines[1] = f"# TYPE {self.name} gauge"
        return lines


class Histogram:
    def __init__(self, name: str, help: str, buckets: tuple[float, ...]) -> None:
        self.name, self.help = name, help
        self.bounds = tuple(sorted(buckets))
        self.counts = [0] * (len(self.bounds) + 1)  # last one: above every bound (+Inf only)
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        running = 0
        for bound, n in zip(self.bounds, self.counts):
            running += n
            lines.append(f'{self.name}_bucket{{le="{bound:g}"}} {running}')
        lines.append(f'{self.name}_bucket{{le="+Inf"}} {self.count}')
        lines.append(f"{self.name}_sum {self.sum:.6f}")
        lines.append(f"{self.name}_count {self.count}")
        return lines


LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class GameMetrics:
    def __init__(self) -> None:
        self.requests = Counter("roundhouse_game_requests_total", "HTTP requests answered", ("route", "method", "status"))
        self.accepted = Counter("roundhouse_game_actions_accepted_total", "actions appended to a table log")
        self.replays = Counter("roundhouse_game_idempotent_replays_total", "submits answered from a stored reply")
        self.conflicts = Counter("roundhouse_game_conflicts_total", "submits refused as stale (409 stale_seq)")
        self.rule_errors = Counter("roundhouse_game_rule_errors_total", "submits the rules refused (422)", ("code",))
        self.tables_created = Counter("roundhouse_game_tables_created_total", "tables created")
        self.store_refusals = Counter("roundhouse_game_store_refusals_total",
                                      "tables refused by the store's budget (reserve; pending, held, botonly: _client or _all)",
                                      ("budget",))
        self.table_loads = Counter("roundhouse_game_table_loads_total", "cold table loads", ("source",))
        self.hot_tables = Gauge("roundhouse_game_hot_tables", "tables held in memory")
        self.append_seconds = Histogram(
            "roundhouse_game_append_seconds", "time of the atomic append (one Lua round trip to Redis)", LATENCY_BUCKETS
        )
        self.submit_seconds = Histogram(
            "roundhouse_game_submit_seconds", "time to answer a submit, from handler start to reply", LATENCY_BUCKETS
        )

    def render(self) -> str:
        parts = (
            self.requests, self.accepted, self.replays, self.conflicts, self.rule_errors,
            self.tables_created, self.table_loads, self.hot_tables, self.append_seconds, self.submit_seconds,
        )
        return "\n".join(line for metric in parts for line in metric.render()) + "\n"
