"""`roundhouse game --host --port`: the game service alone, configured from the environment."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from shared.config import Config

from services.game.app import create_app
from services.runner import run_app


def main(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=os.environ.get("ROUNDHOUSE_LOG_LEVEL", "WARNING").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not os.environ.get("ROUNDHOUSE_SECRET"):
        # Tokens signed with a throwaway key die with the process and mismatch other replicas.
        print("roundhouse game: ROUNDHOUSE_SECRET is not set; seat tokens last only until this process exits",
              file=sys.stderr)
    return run_app(create_app(Config.from_env()), args.host, args.port, name="game")
