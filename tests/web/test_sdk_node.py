"""The JS SDK's own tests (`services/web/sdk/tests/*.test.mjs`, Node's built-in test runner)
against the real stack, and the web app's browser-free module tests
(`services/web/app/tests/*.test.mjs`), one pytest item per file so they count in the suite's
summary."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.dev.devproc import REPO
from tests.web.conftest import Stack, node_binary

WEB = REPO / "services" / "web"
# The SDK's tests, and the app's modules that need no browser (app/tests).
SDK_TESTS = sorted((WEB / "sdk" / "tests").glob("*.test.mjs")) + sorted((WEB / "app" / "tests").glob("*.test.mjs"))


def websocket_flags(node: str) -> list[str]:
    """Node 22+ has a global WebSocket; Node 20 needs --experimental-websocket."""
    probe = [node, "-e", "process.exit(typeof WebSocket === 'function' ? 0 : 1)"]
    if subprocess.run(probe, capture_output=True).returncode == 0:
        return []
    if subprocess.run([node, "--experimental-websocket", *probe[1:]], capture_output=True).returncode == 0:
        return ["--experimental-websocket"]
    pytest.skip(f"{node} has no WebSocket (needs Node 20 with --experimental-websocket, or Node 22+)")


def declared_tests(path: Path) -> int:
    return len(re.findall(r"^test\(", path.read_text(), flags=re.M))


@pytest.mark.parametrize("path", SDK_TESTS, ids=[p.name.removesuffix(".test.mjs") for p in SDK_TESTS])
def test_sdk(path: Path, web_stack: Stack) -> None:
    node = node_binary()
    if node is None:
        pytest.skip("no `node` on PATH: the SDK's Node tests need Node 20+")
    cmd = [node, *websocket_flags(node), "--test", "--test-reporter=tap", str(path)]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=180,
                          # PYTHON: what the Node tests spawn is this run's interpreter, not PATH's python3.
                          env={**os.environ, "ROUNDHOUSE_URL": web_stack.url, "PYTHON": sys.executable})
    out = done.stdout + done.stderr
    passed = int(m.group(1)) if (m := re.search(r"^# pass (\d+)$", out, flags=re.M)) else 0
    failed = int(m.group(1)) if (m := re.search(r"^# fail (\d+)$", out, flags=re.M)) else -1
    print(f"{path.name}: {passed} passed, {failed} failed")
    assert done.returncode == 0 and failed == 0, out
    # Every test the file declares ran and passed: none skipped or lost.
    assert passed == declared_tests(path) > 0, out
