"""`roundhouse lint`: ruff and mypy over the checked part of the tree. Both read their rules
and their scope from pyproject.toml, so running either by hand checks the same thing."""

from __future__ import annotations

import argparse
import subprocess
import sys

LINTERS = (("ruff", "check", "--no-cache"), ("mypy",))


def main(_args: argparse.Namespace) -> int:
    # Both run, so one report shows everything; the worse status is the command's.
    codes = [subprocess.call([sys.executable, "-m", tool, *more]) for tool, *more in LINTERS]
    return max(codes)
