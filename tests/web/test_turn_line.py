"""Whose turn the table page says, for every title, from the same source as the API's `/legal`
(issue 18): the projection adds the engine's `active_seats` and result to every seat's view.

The reported case: an 18Ireland table with two bots first in order and the person third. The
bots make their moves, then the page must say "Your turn" and offer the person's legal actions
(it said "Waiting for" with no name, as 18Ireland's own view carries no `active_seats`).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.dev.devproc import http
from tests.web.conftest import Stack
from tests.web.pages import DESKTOP, LIVE, PHONE, tab

SIZES = {"desktop": DESKTOP, "phone": PHONE}
READY = "document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'"


def create(base: str, title: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    status, body = http("POST", f"{base}/api/tables", {"title": title, "seats": seats})
    assert status == 201, body
    return body


def legal(base: str, table: str, token: str) -> dict[str, Any]:
    status, body = http("GET", f"{base}/api/tables/{table}/legal", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, body
    return body


@pytest.mark.parametrize("size", list(SIZES))
def test_the_person_third_in_order_gets_the_turn_after_two_bot_moves(size: str, web_stack: Stack, chromium: Any) -> None:
    created = create(web_stack.url, "18ireland", [{"name": "Bot A", "kind": "bot", "level": "heuristic"},
                                                  {"name": "Bot B", "kind": "bot", "level": "heuristic"}, {"name": "Ada"}])
    table, token = created["table"], created["seats"][2]["token"]
    with tab(chromium, SIZES[size]) as page:
        page.goto(created["seats"][2]["invite_url"])
        page.wait(LIVE)
        page.wait(READY, timeout_ms=20_000)
        answer = legal(web_stack.url, table, token)
        assert answer["active"] and answer["seq"] == page.seq() >= 2
        assert page.page.inner_text("[data-testid=turn]").startswith("Your turn")
        # The seat's legal actions are offered (a bid on a private, pass).
        kinds = {a["action"]["type"] for a in answer["actions"]}
        assert "pass" in kinds and "bid" in kinds
        panel = page.page.locator("[data-testid=actions]")
        assert panel.locator("button[data-act]:not([disabled])").count() > 0
        assert page.errors == []

    # A spectator is told who must act, by name, as GET /api/tables/{t} has it.
    status, detail = http("GET", f"{web_stack.url}/api/tables/{table}")
    assert status == 200 and detail["active_seats"] == [2]
    with tab(chromium, SIZES[size]) as page:
        page.goto(f"{web_stack.url}/#table={table}")
        page.wait(LIVE)
        page.wait("document.querySelector('[data-testid=turn]').textContent.includes('to act')")
        assert page.page.inner_text("[data-testid=turn]").startswith("Ada to act")
        assert page.errors == []


def test_every_view_the_page_gets_carries_the_turn_of_legal(web_stack: Stack) -> None:
    """The welcome view of each seat holds `active_seats` and `result` equal to the API's answers."""
    from tests.web.driving import seat_view

    created = create(web_stack.url, "18ireland", [{"name": "Ada"}, {"name": "Brunel"}, {"name": "Crewe"}])
    table = created["table"]
    status, detail = http("GET", f"{web_stack.url}/api/tables/{table}")
    assert status == 200
    for seat in created["seats"]:
        view = seat_view(web_stack.url, table, seat["token"])
        assert view["active_seats"] == detail["active_seats"]
        assert view["result"] is None
        assert legal(web_stack.url, table, seat["token"])["active"] == (seat["seat"] in view["active_seats"])
