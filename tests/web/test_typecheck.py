"""The web client's strict type-check (`tsc -p services/web/jsconfig.json`: JSDoc types of the
SDK and the app, `--strict`), when TypeScript is installed; skipped with the reason otherwise.
`ROUNDHOUSE_TSC` names a tsc binary that is not on PATH."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.dev.devproc import REPO


def test_the_web_client_type_checks_strictly() -> None:
    tsc = os.environ.get("ROUNDHOUSE_TSC") or shutil.which("tsc")
    if not tsc:
        pytest.skip("no TypeScript compiler (`tsc` on PATH or ROUNDHOUSE_TSC): npm install -g typescript to run the type-check")
    done = subprocess.run([tsc, "-p", str(REPO / "services" / "web" / "jsconfig.json")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
