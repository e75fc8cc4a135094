"""`roundhouse lint` as part of the suite: ruff and mypy over the whole tree, with the rules and
scope pyproject.toml gives them (both come with the test extras). Any finding fails the test,
with the findings as its message."""

from __future__ import annotations

import subprocess
import sys

import pytest

from services.lint import LINTERS
from tests.dev.devproc import REPO


@pytest.mark.parametrize("command", LINTERS, ids=[tool for tool, *_ in LINTERS])
def test_the_tree_has_no_lint_or_type_findings(command: tuple[str, ...]) -> None:
    done = subprocess.run([sys.executable, "-m", *command], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
