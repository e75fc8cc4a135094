"""A finished game's page in headless Chromium: it opens at the end (the result, the history
bar at the last move), steps back move by move to the set-up showing exactly the engine's
view of each seq, and replays forward to the end. Nim (a test title, the generic page) plays
a whole game in a handful of moves; the chat opener reaches the chat on a phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.dev.devproc import http
from tests.web.conftest import Stack
from tests.web.pages import LIVE, PHONE, tab
from tests.web.test_table_life import check_drawn, play


def test_a_finished_game_opens_at_its_end_and_steps_back_move_by_move(web_stack: Stack, chromium: Any,
                                                                      screenshots: Path) -> None:
    status, created = http("POST", f"{web_stack.url}/api/tables", {
        "title": "nim", "seed": 0, "options": {"pile": 9, "max_take": 2},
        "seats": [{"name": "Ada"}, {"name": "Brunel"}]})
    assert status == 201, created
    played = play(web_stack.url, created, moves=40, seed=3)
    last = max(played.views)
    status, detail = http("GET", f"{web_stack.url}/api/tables/{created['table']}")
    assert detail["status"] == "finished" and last >= 5
    for viewport, views, url in ((None, played.views, created["seats"][0]["invite_url"]),
                                 (PHONE, played.spectator, f"{web_stack.url}/#table={created['table']}")):
        with tab(chromium, viewport or {"width": 1366, "height": 900}) as page:
            page.goto(url)
            page.wait(LIVE)
            page.wait("document.body.dataset.over === 'true'")
            check_drawn(page, views, last, last)  # opens at the end, the result shown
            assert page.page.is_visible("[data-testid=result]")
            for seq in range(last - 1, -1, -1):
                page.page.click("[data-act=history-prev]")
                check_drawn(page, views, seq, last)
            page.page.click("[data-act=history-replay]")
            # The replay runs to the end by itself, a move every 0.9 s.
            page.wait(f"document.body.dataset.viewSeq === '{last}'", timeout_ms=last * 900 + 10_000)
            check_drawn(page, views, last, last)
            if viewport is PHONE:
                # On a phone the chat sits under the board: the header's button brings it up.
                page.page.click("[data-testid=chat-open]")
                page.wait("document.activeElement === document.querySelector('[data-testid=chat-input]')")
                page.wait("(() => { const r = document.querySelector('[data-testid=chat]').getBoundingClientRect();"
                          " return r.top >= 0 && r.bottom <= innerHeight + 1; })()")
                page.shot(screenshots / "chat-opened-phone.png", full_page=False)
            assert page.errors == []
