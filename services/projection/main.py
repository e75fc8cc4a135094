"""`roundhouse projection --host --port`: the projection service alone (config from env vars)."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys

from services.runner import run_app
from shared.config import Config, check_secret

from .app import create_app
from .settings import ProjectionSettings

# Each feed keeps its watched seats' current views (thousands of dicts and lists each) as the
# base of the next update's patches. With Python's gen-0 threshold of 700 allocations every
# new view outlives two young collections, lands in the oldest generation, and the full
# collections this triggers walk every table's views: measured over 200 tables that was
# ~110 us of GC per action; with 50 000 the views die young and it is ~7 us.
GC_GEN0_THRESHOLD = 50_000


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=os.environ.get("ROUNDHOUSE_LOG_LEVEL", "WARNING").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not os.environ.get("ROUNDHOUSE_SECRET"):
        # Tokens come from the game service; without its secret no seat token could verify.
        print("roundhouse projection: set ROUNDHOUSE_SECRET (the game service's seat-token secret)", file=sys.stderr)
        return 1
    short = check_secret("projection")
    if short:
        print(short, file=sys.stderr)
        return 1
    try:
        settings = ProjectionSettings.from_env()
    except ValueError as exc:
        print(f"roundhouse projection: {exc}", file=sys.stderr)
        return 1
    gc.set_threshold(GC_GEN0_THRESHOLD, *gc.get_threshold()[1:])
    try:
        cfg = Config.from_env()
    except ValueError as exc:
        print(f"roundhouse projection: {exc}", file=sys.stderr)
        return 1
    return run_app(create_app(cfg, settings=settings), args.host, args.port, name="projection")
