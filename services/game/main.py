"""`roundhouse game --host --port`: the game service alone, configured from the environment."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from shared.config import Config, check_secret

from services.game.app import create_app
from services.runner import run_app


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=os.environ.get("ROUNDHOUSE_LOG_LEVEL", "WARNING").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # Tokens signed with a throwaway or short key die with the process, mismatch other
    # replicas, or can be guessed offline from one token: refuse to start (`roundhouse dev`
    # is the place for a quick local run).
    refused = check_secret("game")
    if refused:
        print(refused, file=sys.stderr)
        return 1
    try:
        cfg = Config.from_env()
    except ValueError as exc:
        print(f"roundhouse game: {exc}", file=sys.stderr)
        return 1
    return run_app(create_app(cfg), args.host, args.port, name="game")
