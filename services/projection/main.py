"""`roundhouse projection --host --port`: the projection service alone (config from env vars)."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from shared.config import Config, check_secret

from services.runner import run_app

from .app import create_app
from .settings import ProjectionSettings


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
    try:
        cfg = Config.from_env()
    except ValueError as exc:
        print(f"roundhouse projection: {exc}", file=sys.stderr)
        return 1
    return run_app(create_app(cfg, settings=settings), args.host, args.port, name="projection")
