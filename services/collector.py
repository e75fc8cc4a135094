"""The garbage collector's setting every Roundhouse process runs with (the services, the
`roundhouse` commands, the benchmarks): kept apart from the rest so that a command which loads
nothing else does not pay for aiohttp or redis to get it."""

from __future__ import annotations

import gc

# Folding a game allocates thousands of short-lived objects per decision (immutable states,
# legal-action lists, views). At CPython's default gen-0 threshold (700) a young collection
# runs every few decisions and promotes what is still alive (the current states, a feed's
# last views) into the old generations, whose full collections then rescan all of it; with
# 50 000 most of it dies young. Measured: an 18Ireland replay costs 13-15 % less CPU
# (benchmarks/import_bench.py), the projection's views ~7 instead of ~110 us of GC per action.
GC_GEN0_THRESHOLD = 50_000


def tune_gc() -> None:
    """The collector setting every Roundhouse process runs with (services, CLI, benchmarks)."""
    gc.set_threshold(GC_GEN0_THRESHOLD, *gc.get_threshold()[1:])
