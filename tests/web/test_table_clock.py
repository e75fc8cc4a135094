"""Table clocks and turn notices on the page, in headless Chromium against a real `roundhouse dev` whose time
the test moves (ROUNDHOUSE_TEST_TIME_FILE): the running seat's time counts down, a real-time
clock runs out and a bot takes the seat (and the player takes it back), and an async
deadline that passes ends the table with its standings shown as the result on the seat's
and a spectator's page as it happens; a seat sets up
a webhook from the page and a local receiver gets the notice."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.dev.devproc import DevProcess, dev_env, free_port, http
from tests.table_life.clocks import TestTime
from tests.waiting import until
from tests.web.conftest import SECRET, Stack
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, invite, tab


@pytest.fixture(scope="module")
def clock_time(tmp_path_factory: pytest.TempPathFactory) -> TestTime:
    return TestTime(tmp_path_factory.mktemp("clock-time") / "now")


@pytest.fixture(scope="module")
def clock_stack(tmp_path_factory: pytest.TempPathFactory, clock_time: TestTime) -> Iterator[Stack]:
    data = tmp_path_factory.mktemp("clock-dev")
    env = dev_env(ROUNDHOUSE_SECRET=SECRET, ROUNDHOUSE_CLOCK_POLL="0.05", ROUNDHOUSE_NOTIFY_POLL="0.05",
                  ROUNDHOUSE_NOTIFY_PRIVATE_HOSTS="1", **clock_time.env)
    with DevProcess(data, free_port(), env) as dev:
        yield Stack(dev, dev.wait_ready())
        dev.stop()


def create(base: str, clock: dict[str, Any]) -> dict[str, Any]:
    seats = [{"name": "Ada"}, {"name": "Brunel"}, {"name": "Crewe"}]
    status, body = http("POST", f"{base}/api/tables", {"title": "chicago-express", "seats": seats, "seed": 7, "clock": clock})
    assert status == 201, body
    return body


def clock_text(page: Tab, seat: int) -> str:
    return page.page.inner_text(f"[data-testid=clock-time-{seat}]")


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_realtime_clock_runs_down_and_a_bot_takes_the_seat(size: str, clock_stack: Stack, clock_time: TestTime,
                                                           chromium: Any, screenshots: Path) -> None:
    created = create(clock_stack.url, {"kind": "realtime", "bank_s": 90, "increment_s": 5, "bot_level": "random"})
    first = created["active_seats"][0]
    with tab(chromium, DESKTOP if size == "desktop" else PHONE) as page:
        page.goto(invite(created, first))
        page.wait(LIVE)
        page.wait(f"document.querySelector('[data-testid=clock-{first}]')?.dataset.running === 'true'")
        start = seconds(clock_text(page, first))
        assert 85 <= start <= 90
        # It counts down on the page between the server's answers (real time passes here).
        page.wait(f"(() => {{ const [m, s] = document.querySelector('[data-testid=clock-time-{first}]').textContent.split(':');"
                  f" return Number(m) * 60 + Number(s) < {start}; }})()")
        others = [s for s in range(3) if s != first]
        assert [seconds(clock_text(page, s)) for s in others] == [90, 90]
        page.page.locator("[data-testid=clock]").scroll_into_view_if_needed()
        page.shot(screenshots / f"clock-running-{size}.png", full_page=False)
        # The bank runs out (server time): the clock watch hands the seat to a bot, whose move
        # the page sees; the seat box says why and offers the seat back.
        clock_time.advance(91_000)
        page.wait(f"document.querySelector('[data-testid=clock-time-{first}]').textContent.startsWith('out of time')",
                  timeout_ms=20_000)
        page.wait("!!document.querySelector('[data-testid=take-back]')")
        assert "Your time ran out." in page.page.inner_text("[data-testid=seat-box]")
        page.page.locator("[data-testid=clock]").scroll_into_view_if_needed()
        page.shot(screenshots / f"clock-out-of-time-{size}.png", full_page=False)
        page.page.click("[data-testid=take-back]")
        page.wait(f"!document.querySelector('[data-testid=clock-time-{first}]').textContent.startsWith('out of time')")
        # Back with a tenth of the bank (9 s), or more with the increments the bot's moves earned.
        assert seconds(clock_text(page, first)) <= 14
        assert page.errors == []


def test_async_deadline_ends_the_table_with_its_standings(clock_stack: Stack, clock_time: TestTime, chromium: Any,
                                                          screenshots: Path) -> None:
    """Without a reload: the seat's page and a spectator's both turn into a finished game
    when the deadline passes, from the `ended` frame their sockets get (the standings in
    the view's result, nobody to act)."""
    created = create(clock_stack.url, {"kind": "async", "turn_hours": 48, "on_timeout": "abandon"})
    first = created["active_seats"][0]
    name = ["Ada", "Brunel", "Crewe"][first]
    with tab(chromium) as page, tab(chromium, PHONE) as spectator:
        page.goto(invite(created, first))
        page.wait(LIVE)
        page.wait(f"document.querySelector('[data-testid=clock-time-{first}]')?.textContent === '2 d 0 h'")
        spectator.goto(f"{clock_stack.url}/#table={created['table']}")
        spectator.wait(LIVE)
        seq = page.page.evaluate("document.body.dataset.seq")
        clock_time.advance(48 * 3600_000 + 1)
        for p in (page, spectator):
            p.wait("document.body.dataset.over === 'true'", timeout_ms=20_000)
            assert f"abandoned: {name} ran out of time" in p.page.inner_text("[data-testid=turn]")
            p.wait("!!document.querySelector('[data-testid=result]')")
            assert p.page.evaluate("document.body.dataset.seq") == seq  # no move: the end came by itself
        status, detail = http("GET", f"{clock_stack.url}/api/tables/{created['table']}")
        assert status == 200 and detail["status"] == "finished"
        ranked = [line for line in page.page.eval_on_selector_all("[data-testid=result] li", "els => els.map(e => e.textContent)")
                  if line.startswith("#")]
        scores = detail["result"]["scores"]
        assert sorted(ranked) == sorted(f"#{rank} {n} ${score}" for n, rank, score in
                                        zip(["Ada", "Brunel", "Crewe"], detail["result"]["ranks"], scores, strict=True))
        assert not page.page.is_visible("[data-testid=take-back]")
        page.shot(screenshots / "clock-abandoned-desktop.png", full_page=False)
        spectator.shot(screenshots / "clock-abandoned-spectator-phone.png", full_page=False)
        assert page.errors == [] and spectator.errors == []


class _Hook(BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        _Hook.received.append((dict(self.headers), body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def test_a_seat_sets_up_a_webhook_from_the_page(clock_stack: Stack, chromium: Any, screenshots: Path) -> None:
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        created = create(clock_stack.url, {"kind": "none"})
        first = created["active_seats"][0]
        with tab(chromium, PHONE) as page:
            page.goto(invite(created, first))
            page.wait(LIVE)
            page.page.click("[data-testid=notify-form] summary")
            page.wait("document.querySelector('[data-testid=notify-form]').dataset.loaded === 'true'")
            page.page.fill("[data-testid=notify-minutes]", "0")
            page.page.fill("[data-testid=notify-url]", f"http://127.0.0.1:{server.server_port}/hook")
            page.page.select_option("[data-testid=notify-format]", "slack")
            page.page.click("[data-testid=notify-save]")
            page.wait("document.querySelector('[data-testid=notify-status]').textContent === 'Saved.'")
            page.page.locator("[data-testid=notify-form]").scroll_into_view_if_needed()
            page.shot(screenshots / "notify-form-phone.png", full_page=False)
            with ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, until(lambda: _Hook.received, "the Slack notice")).result(timeout=30)
            headers, body = _Hook.received[0]
            assert headers["X-Roundhouse-Delivery"] == f"{created['table']}:{first}:0"
            assert "it is your turn" in json.loads(body)["text"]
            assert page.errors == []
    finally:
        server.shutdown()
