"""Fixtures for the web client's tests: one real `roundhouse dev` (embedded Redis, its own
data dir) serving the client, and headless Debian Chromium driven by Python Playwright.

Where Chromium or Playwright is missing the browser tests are skipped with the reason in
the pytest summary; they never vanish silently. No test downloads a browser.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dev.devproc import REPO, DevProcess, dev_env, free_port
from tests.web.bot_seats import BotSeats

CHROMIUM = Path(os.environ.get("ROUNDHOUSE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
# The secret the stack signs seat tokens with; known here so BotSeats can act for bot seats
# when no bot worker runs.
SECRET = "web-tests-secret"


class Stack:
    def __init__(self, dev: DevProcess, url: str) -> None:
        self.dev = dev
        self.url = url.rstrip("/")
        self.secret = SECRET.encode()


@pytest.fixture(scope="session")
def web_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    data = tmp_path_factory.mktemp("web-dev")
    with DevProcess(data, free_port(), dev_env(ROUNDHOUSE_SECRET=SECRET)) as dev:
        url = dev.wait_ready()
        yield Stack(dev, url)
        dev.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's `chromium` package (apt-get install -y chromium) "
                    "to run the browser tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Python `playwright` is not installed (pip install playwright; never `playwright install`)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def bot_seats(web_stack: Stack) -> Iterator[BotSeats]:
    seats = BotSeats(web_stack.url, web_stack.secret)
    try:
        yield seats
    finally:
        seats.stop()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def node_binary() -> str | None:
    return shutil.which("node")
