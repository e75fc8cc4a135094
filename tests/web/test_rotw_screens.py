"""Screenshots of every state of the England & Wales page, at 1366×900 and 390×844, into
test-artifacts/rotw/ — to be looked at as a player would. Each state is also checked for
what a player must be able to read there (names, not hex ids; who acts; what to do)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.dev.devproc import REPO, http
from tests.web.bot_seats import BotSeats
from tests.web.conftest import Stack
from tests.web.driving import drive, first_of
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, tab
from tests.web.rotw_route import choose_route, option_hexes, tap

OUT = REPO / "test-artifacts" / "rotw"
SIZES = {"desktop": DESKTOP, "phone": PHONE}
HEX_ID = re.compile(r"\b\d{1,2},\d{1,2}\b")


def shot(t: Tab, name: str, size: str) -> Path:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}-{size}.png"
    t.page.screenshot(path=str(path), full_page=False)
    print(f"screenshot: {path}")
    return path


def readable(t: Tab) -> str:
    """The action panel's text: it names places, never hex ids."""
    text = t.page.inner_text("[data-testid=actions]")
    assert not HEX_ID.search(text), text
    return text


def table(base: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"title": "rotw-england-wales", "seats": seats}
    if options:
        body["options"] = options
    status, created = http("POST", f"{base}/api/tables", body)
    assert status == 201, created
    return created


def until(phase: str, seat0: bool = True):
    def policy(seat: int, actions: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any] | None:
        if view["phase"] == phase and (seat == 0 or not seat0):
            return None
        return first_of(actions, "choose_baron", "pass")
    return policy


@pytest.mark.parametrize("size", list(SIZES))
def test_standard_page_states(web_stack: Stack, chromium: Any, size: str) -> None:
    created = table(web_stack.url, [{"name": "Ada"}, {"name": "Bo"}])
    rng = random.Random(5)
    with tab(chromium, SIZES[size]) as t:
        t.goto(created["seats"][0]["invite_url"])
        t.wait(LIVE + " && document.body.dataset.ready === 'true'")
        assert "baron" in readable(t).lower()
        shot(t, "1-baron", size)
        t.page.locator("[data-testid=actions] button[data-act=choose_baron]").first.click()
        drive(web_stack.url, created, until("auction"))
        # Ada's own turn, not the page still a move behind the server (Bo to act, already 'ready').
        t.wait("document.body.dataset.phase === 'auction' && document.body.dataset.myTurn === 'true' "
               "&& document.body.dataset.ready === 'true'")
        text = readable(t)
        assert "undefined" not in text and "You cannot bid" in text, text
        shot(t, "2-auction", size)
        drive(web_stack.url, created, until("action"))
        # Ada's own turn, not the page still a move behind the server (Bo to act, already 'ready').
        t.wait("document.body.dataset.phase === 'action' && document.body.dataset.myTurn === 'true' "
               "&& document.body.dataset.ready === 'true'")
        text = readable(t)
        assert "Not possible now" in text and "Deliver" in text, text
        shot(t, "3-action", size)
        hexes = option_hexes(t.page, "pick-lay_track")
        hex_id = hexes[len(hexes) // 2]
        tap(t.page, hex_id, rng)
        t.wait("document.querySelector('[data-testid=route-head]') !== null")
        readable(t)
        shot(t, "4-hex-picked", size)
        choose_route(t.page, hex_id, lambda e, x: rng.random(), rng)
        readable(t)
        shot(t, "5-preview", size)
        seq = t.seq()
        t.page.locator("[data-testid=confirm-build]").click()
        t.wait_seq(seq + 1)
        t.wait("document.body.dataset.ready === 'true'")
        readable(t)
        shot(t, "6-building", size)
        assert not t.errors, t.errors


@pytest.mark.parametrize("size", list(SIZES))
def test_advanced_page_and_a_finished_game(web_stack: Stack, chromium: Any, size: str) -> None:
    created = table(web_stack.url, [{"name": "Ada"}, {"name": "Bo"}], {"game": "advanced"})
    with tab(chromium, SIZES[size]) as t:
        t.goto(created["seats"][0]["invite_url"])
        t.wait(LIVE)
        shot(t, "7-advanced-start", size)
    bots = BotSeats(web_stack.url, web_stack.secret)
    finished = table(web_stack.url, [{"name": "Robo", "kind": "bot", "level": "heuristic"},
                                     {"name": "Tin", "kind": "bot", "level": "heuristic"}])
    try:
        bots.play(finished["table"], seed=3)
        with tab(chromium, SIZES[size]) as t:
            t.goto(f"{web_stack.url}/#table={finished['table']}")
            # Watched live to the end, as a spectator would.
            t.wait(LIVE + " && document.body.dataset.over === 'true'", 600_000)
            t.page.locator("[data-testid=result]").scroll_into_view_if_needed()
            assert t.page.locator("[data-testid=result] .ranking li").count() == 2
            shot(t, "8-result", size)
            t.page.locator("svg.map").scroll_into_view_if_needed()
            shot(t, "9-final-map", size)
            assert not t.errors, t.errors
    finally:
        bots.stop()


def auction_of(actions: list[dict[str, Any]], index: int) -> dict[str, Any] | None:
    """Start the auction of the `index`-th company offered (its first box, at its price)."""
    entry = next((e for e in actions if e["action"]["type"] == "start_auction"), None)
    if entry is None:
        return None
    companies = entry["choices"]
    k = min(index, len(companies["values"]) - 1)
    source = companies["then"][k if len(companies["then"]) > 1 else 0]
    return {"type": "start_auction", "company": companies["values"][k], "source": source["values"][0],
            "amount": source["then"][0]["min"]}


def opening_then_ada_company(bought: set[int]):
    """Each seat auctions one share of a company of its own (the others drop out), then
    passes; Bo's turns are played through until one of Ada's companies is to act."""
    def policy(seat: int, actions: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any] | None:
        if view["phase"] == "company_turn" and seat == 0:
            return None
        if seat not in bought and (opening := auction_of(actions, seat)):
            bought.add(seat)
            return opening
        # Bo's companies may come first (the seed decides): their turns, dividends and the
        # rest are played through until one of Ada's is to act.
        return first_of(actions, "pass") or dict(actions[0]["action"])
    return policy


@pytest.mark.parametrize("size", list(SIZES))
def test_advanced_link_shows_its_cost_and_can_be_taken_back(web_stack: Stack, chromium: Any, size: str) -> None:
    """Issue 19: a started link said 'finish this link' with no way back. The first tile shows
    its cost; with the link open the panel says what finishing costs and raises and what
    taking back returns; 'Take back this link' leaves the company as it was."""
    from shared.games.rotw_england_wales.board import get_board, raw_neighbour

    board = get_board("england_wales")
    places = set(board.cities) | set(board.towns)
    created = table(web_stack.url, [{"name": "Ada"}, {"name": "Bo"}], {"game": "advanced"})
    drive(web_stack.url, created, opening_then_ada_company(set()))
    rng = random.Random(3)
    with tab(chromium, SIZES[size]) as t:
        t.goto(created["seats"][0]["invite_url"])
        t.wait(LIVE + " && document.body.dataset.phase === 'company_turn' && document.body.dataset.myTurn === 'true'"
               " && document.body.dataset.ready === 'true'")
        company = t.page.get_attribute("[data-testid=actions] .prompt [data-company]", "data-company")
        before = t.page.inner_text(f"[data-testid=company-{company}]")
        # A first tile that leads to open country, so the link stays open after it.
        hexes = option_hexes(t.page, "pick-lay_track")
        hex_id = next(h for h in hexes if any(raw_neighbour(board.layout, h, e) not in places | {None} for e in range(6)))
        tap(t.page, hex_id, rng)
        t.wait("document.querySelector('[data-testid=route-head]') !== null")
        choose_route(t.page, hex_id, lambda e, x: (raw_neighbour(board.layout, hex_id, x) in places) + rng.random(), rng)
        head = readable(t)
        assert re.search(r"A tile in .*: \$[\d,]+", head), head
        shot(t, "10-advanced-tile-preview", size)
        seq = t.seq()
        t.page.locator("[data-testid=confirm-build]").click()
        t.wait_seq(seq + 1)
        t.wait("document.body.dataset.ready === 'true'")
        text = readable(t)
        if t.page.locator("[data-testid=take-back-link]").count() == 0:
            pytest.fail(f"the link closed with its first tile, or no take-back is offered: {text}")
        assert re.search(r"Finish this link to a city: at least \$[\d,]+ more", text), text
        assert re.search(r"Or take it back: its tiles come off the map and \$[\d,]+ is refunded", text), text
        shot(t, "11-advanced-link-open", size)
        seq = t.seq()
        t.page.locator("[data-testid=take-back-link]").click()
        t.wait_seq(seq + 1)
        t.wait("document.body.dataset.ready === 'true' && document.body.dataset.phase === 'company_turn'")
        assert t.page.inner_text(f"[data-testid=company-{company}]") == before
        assert "takes back the unfinished link" in " ".join(t.log_lines())
        shot(t, "12-advanced-link-taken-back", size)
        assert not t.errors, t.errors
