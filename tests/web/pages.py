"""Opening the web client in a browser context and reading it, for the browser tests."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from tests.dev.devproc import http

DESKTOP = {"width": 1366, "height": 900}
# Connected, and the title's page module has drawn the view.
LIVE = "document.body.dataset.connection === 'live' && document.body.dataset.drawn === 'true'"
PHONE = {"width": 390, "height": 844}
EXPECTED_REFUSAL = re.compile(r"^Failed to load resource: the server responded with a status of (409|422) ")


class Tab:
    """One page in its own browser context (own storage, like another person's browser)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}; stack: {getattr(exc, 'stack', '')}"))
        page.on("console", self._console)

    def _console(self, msg: Any) -> None:
        # The browser logs every 4xx; refusals the app expects and shows (409 stale seq, 422
        # rule refused) are not errors of the page.
        if msg.type != "error" or EXPECTED_REFUSAL.search(msg.text):
            return
        self.errors.append(f"console {msg.type}: {msg.text} ({msg.location.get('url', '')})")

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def dataset(self, key: str) -> str | None:
        return self.page.evaluate(f"document.body.dataset.{key} ?? null")

    def seq(self) -> int:
        return int(self.page.evaluate("document.body.dataset.seq ?? -1"))

    def wait(self, js_condition: str, timeout_ms: int = 10_000) -> None:
        self.page.wait_for_function(f"() => {js_condition}", timeout=timeout_ms)

    def wait_seq(self, seq: int, timeout_ms: int = 10_000) -> None:
        self.wait(f"Number(document.body.dataset.seq) >= {seq} && document.body.dataset.drawn === 'true'", timeout_ms)

    def log_lines(self) -> list[str]:
        return self.page.eval_on_selector_all("[data-testid=log] li", "els => els.map(e => e.textContent)")

    def action_buttons(self) -> list[str]:
        """The enabled buttons of the action panel (what this seat may click now)."""
        return self.page.eval_on_selector_all(
            "[data-testid=actions] button[data-act]:not([disabled])", "els => els.map(e => e.dataset.act)"
        )

    def table_and_token(self) -> tuple[str, str | None]:
        params = parse_qs(urlsplit(self.page.url).fragment)
        return params["table"][0], (params.get("token") or [None])[0]

    def shot(self, path: Path, full_page: bool = True) -> Path:
        self.page.screenshot(path=str(path), full_page=full_page)
        print(f"screenshot: {path}")
        return path


@contextmanager
def tab(browser: Any, viewport: dict[str, int] = DESKTOP) -> Iterator[Tab]:
    context = browser.new_context(viewport=viewport)
    try:
        yield Tab(context.new_page())
    finally:
        context.close()


def create_table(base: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    status, body = http("POST", f"{base}/api/tables", {"title": "chicago-express", "seats": seats})
    assert status == 201, body
    return body


def invite(created: dict[str, Any], seat: int) -> str:
    url = created["seats"][seat]["invite_url"]
    assert url, f"seat {seat} has no invite link"
    return url


def table_detail(base: str, table: str) -> dict[str, Any]:
    status, body = http("GET", f"{base}/api/tables/{table}")
    assert status == 200, body
    return body
