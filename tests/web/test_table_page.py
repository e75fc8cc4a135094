"""The table page and lobby as a new player meets them (issue 12), and the title-pluggable
client (issue 9), in headless Chromium against a real `roundhouse dev`, at desktop and
phone sizes: the rules panel, the dividend summary, the bid button, facts beside the
decision, the map, finished tables with their results, rematch, handing a seat to a bot,
and a title without a page module of its own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.dev.devproc import http
from tests.web.conftest import Stack
from tests.web.driving import FAST_DIALS, drive, first_of, quick, seat_view
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, invite, tab, table_detail

SIZES = {"desktop": DESKTOP, "phone": PHONE}
READY = "document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'"


def create(base: str, names: list[str], options: dict[str, Any] | None = None, bots: dict[int, str] | None = None) -> dict[str, Any]:
    bots = bots or {}
    seats = [{"name": n, "kind": "bot", "level": bots[i]} if i in bots else {"name": n} for i, n in enumerate(names)]
    status, body = http("POST", f"{base}/api/tables", {"title": "chicago-express", "seats": seats, "options": options or {}})
    assert status == 201, body
    return body


def open_seat(page: Tab, created: dict[str, Any], seat: int) -> None:
    page.goto(invite(created, seat))
    page.wait(LIVE)


def buyers(by_company: dict[str, int]):
    """Opening auctions: the named seat buys each company's share at the minimum, the others pass;
    then choose the first dial and forgo it, until the first dividend phase is logged."""

    def policy(seat: int, actions: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any] | None:
        if any(e["event"] == "dividend_phase" for e in view["log"]):
            return None
        auction = view["auction"]
        if auction:
            if by_company.get(auction["company"]) == seat and auction["high_bid"] is None:
                return first_of(actions, "bid")
            return first_of(actions, "pass")
        return first_of(actions, "forgo", "choose")

    return policy


@pytest.mark.parametrize("size", list(SIZES))
def test_rules_panel_opens_and_explains(size: str, web_stack: Stack, chromium: Any, screenshots: Path) -> None:
    created = create(web_stack.url, ["Ada", "Brunel"])
    with tab(chromium, SIZES[size]) as page:
        open_seat(page, created, 0)
        page.wait(READY)
        rules = page.page.locator("[data-testid=rules]")
        assert rules.is_hidden()
        page.page.click("[data-testid=rules-toggle]")
        rules.wait_for(state="visible")
        text = rules.inner_text()
        for words in ("Goal", "Auction", "Build", "Develop", "Dividends", "on red", "rounded up", "Chicago", "Wabash", "End"):
            assert words in text, words
        # The table's own dial lengths, read from the view.
        assert "auction 3, build 5, develop 4" in text
        page.shot(screenshots / f"rules-{size}.png", full_page=False)
        page.page.click("[data-act=close-rules]")
        rules.wait_for(state="hidden")
        # At the decision: what the auction is, with the company's facts beside it.
        panel = page.page.inner_text("[data-testid=actions]")
        assert "Opening auction 1 of 4" in panel
        facts = page.page.inner_text("[data-testid=actions] [data-testid=facts]")
        assert "Income" in facts and "Per share after this sale" in facts and "Held by" in facts
        assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_the_bid_button_says_what_it_will_send(size: str, web_stack: Stack, chromium: Any, screenshots: Path) -> None:
    created = create(web_stack.url, ["Ada", "Brunel"])
    with tab(chromium, SIZES[size]) as page:
        open_seat(page, created, 0)
        page.wait(READY)
        bid = page.page.locator('[data-testid=actions] button[data-act="bid"]')
        assert bid.inner_text() == "Bid $7"
        page.page.fill("[data-testid=amount]", "999")
        assert bid.inner_text() == "Bid $999"
        page.page.fill("[data-testid=amount]", "")
        assert bid.inner_text().startswith("Enter a whole amount") and bid.is_disabled()
        page.page.fill("[data-testid=amount]", "11")
        assert bid.inner_text() == "Bid $11" and bid.is_enabled()
        page.shot(screenshots / f"bid-{size}.png", full_page=False)
        page.page.click('[data-testid=actions] button[data-act="more"]')
        assert bid.inner_text() == "Bid $12"
        bid.click()
        page.wait_seq(1)
        assert "Ada bids $12 for PRR" in page.log_lines()
        assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_a_dividend_summary_shows_what_was_paid(size: str, web_stack: Stack, chromium: Any, screenshots: Path) -> None:
    created = create(web_stack.url, ["Ada", "Brunel"], FAST_DIALS)
    drive(web_stack.url, created, buyers({"PRR": 0, "CO": 0, "BO": 1, "NYC": 1}))
    view = seat_view(web_stack.url, created["table"], created["seats"][0]["token"])
    at = next(i for i, e in enumerate(view["log"]) if e["event"] == "dividend_phase")
    paid = [e for e in view["log"][at:] if e["event"] == "dividend"]
    assert len(paid) == 4, paid
    with tab(chromium, SIZES[size]) as page:
        open_seat(page, created, 0)
        news = page.page.locator("[data-testid=dividend-news]")
        news.wait_for()
        assert "Dividends paid · end of round 1" in news.inner_text()
        rows = page.page.eval_on_selector_all(
            "[data-testid=dividend-news] tbody tr",
            "els => els.map(e => [e.dataset.company, Number(e.dataset.income), Number(e.dataset.perShare), e.querySelector('.paid-to').textContent])",
        )
        names = ["Ada", "Brunel"]
        expected = [
            [e["company"], e["income"], e["per_share"], ", ".join(f"{names[s]} ${p}" for s, p in enumerate(e["payouts"]) if p)] for e in paid
        ]
        assert rows == expected
        mine = sum(e["payouts"][0] for e in paid)
        assert mine > 0
        received = page.page.locator("[data-testid=you-received]")
        assert received.get_attribute("data-amount") == str(mine)
        assert received.inner_text() == f"You received ${mine}."
        page.shot(screenshots / f"dividends-{size}.png", full_page=False)
        page.page.click("[data-testid=dismiss-news]")
        news.wait_for(state="detached")
        # Closed, it is still in the history beside the board.
        assert page.page.inner_text("[data-testid=payout-history] li").startswith(f"Round 1: you received ${mine}")
        assert page.errors == []


def test_the_map_shows_its_targets_and_names_above_the_hexes_on_a_phone(web_stack: Stack, chromium: Any, screenshots: Path) -> None:
    created = create(web_stack.url, ["Ada", "Brunel"])

    def to_build(seat: int, actions: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any] | None:
        if view["phase"] == "build":
            return None
        if view["auction"]:
            return first_of(actions, "bid") if seat == 0 and view["auction"]["high_bid"] is None else first_of(actions, "pass")
        return next(dict(e["action"]) for e in actions if e["action"] == {"type": "choose", "action": "build"})

    drive(web_stack.url, created, to_build)
    with tab(chromium, PHONE) as page:
        open_seat(page, created, 0)
        page.wait(READY)
        page.page.wait_for_selector("[data-testid=actions] button[data-act=build-company]")
        page.page.click("[data-testid=actions] button[data-act=build-company][data-company=PRR]")
        page.page.wait_for_selector("svg.map .hex.target")
        # The page brought a clickable hex into sight: inside the screen and the map's scrolling box.
        page.wait("""(() => {
          const r = document.querySelector('svg.map .hex.target').getBoundingClientRect();
          const box = document.querySelector('.map-scroll').getBoundingClientRect();
          return r.top >= 0 && r.bottom <= innerHeight && r.top >= box.top && r.bottom <= box.bottom
            && r.left >= box.left && r.right <= box.right;
        })()""")
        # Outlines, names and locomotives are drawn over every hex (never half hidden by a neighbour).
        layers = page.page.eval_on_selector("svg.map g.board", "g => [...g.children].slice(-3).map(g => g.getAttribute('class'))")
        assert layers == ["layer locos", "layer names", "layer outlines"]
        # Only the latest move's ring (which takes no clicks either) lies above them.
        above = page.page.eval_on_selector("svg.map", "svg => [...svg.children].map(g => g.getAttribute('class'))")
        assert above in (["board"], ["board", "layer move-mark"]), above
        targets = page.page.eval_on_selector_all("svg.map .hex.target", "els => els.length")
        assert page.page.eval_on_selector_all("svg.map .outlines .target-outline", "els => els.length") == targets > 0
        assert "Philadelphia" in page.page.eval_on_selector_all("svg.map .names text", "els => els.map(e => e.textContent)")
        # City names read at 9 px or more on the phone's screen (the SVG is scaled to the zoomed map).
        size = page.page.eval_on_selector("svg.map .names text", """e => parseFloat(getComputedStyle(e).fontSize)
          * e.ownerSVGElement.getBoundingClientRect().width / e.ownerSVGElement.viewBox.baseVal.width""")
        assert size >= 9, size
        # A company's locomotives carry its name, not only its colour.
        chips = page.page.eval_on_selector_all("svg.map .loco", "els => els.map(e => [e.dataset.company, e.textContent])")
        assert ["PRR", "PRR"] in chips and ["BO", "B&O"] in chips
        page.shot(screenshots / "build-phone.png", full_page=False)
        assert page.errors == []


def test_a_finished_table_is_listed_with_its_winner_and_a_rematch_has_the_same_seats(
    web_stack: Stack, chromium: Any, screenshots: Path
) -> None:
    created = create(web_stack.url, ["Ada", "Brunel"], FAST_DIALS)
    drive(web_stack.url, created, quick)
    detail = table_detail(web_stack.url, created["table"])
    assert detail["status"] == "finished", detail
    result = detail["result"]
    names = [s["name"] for s in detail["seats"]]
    winners = " and ".join(names[s] for s in result["winners"])
    with tab(chromium, DESKTOP) as page:
        page.goto(f"{web_stack.url}/")
        item = page.page.locator(f'[data-testid=finished-tables] li[data-table="{created["table"]}"]')
        item.wait_for()
        outcome = item.locator("[data-testid=outcome]")
        outcome.wait_for()
        assert outcome.locator(".winners").inner_text() == f"{winners} {'win' if len(result['winners']) > 1 else 'wins'}"
        for seat, name in enumerate(names):
            assert f"{name} {result['scores'][seat]}" in outcome.inner_text()
        page.shot(screenshots / "lobby-finished-desktop.png")

        # Rematch from the lobby: a new table, same title, options and seats.
        item.locator("[data-testid=rematch]").click()
        made = item.locator("[data-testid=rematch-made] ul.invites")
        made.wait_for()
        new_table = made.get_attribute("data-table")
        assert new_table and new_table != created["table"]
        again = table_detail(web_stack.url, new_table)
        assert again["title"] == detail["title"] and again["options"] == detail["options"]
        assert [(s["name"], s["kind"], s["level"]) for s in again["seats"]] == [(s["name"], s["kind"], s["level"]) for s in detail["seats"]]
        assert again["status"] == "open" and again["last_seq"] == 0

        # The final position, and a rematch from the table page too.
        item.locator("[data-testid=final-position]").click()
        page.wait(LIVE)
        page.page.wait_for_selector("[data-testid=result]")
        assert winners in page.page.inner_text("[data-testid=result] .winner")
        assert page.page.locator("[data-testid=actions]").is_hidden(), "no action panel over the map once the game is over"
        page.page.click("[data-testid=rematch]")
        page.page.wait_for_selector("[data-testid=rematch-box] ul.invites")
        third = page.page.get_attribute("[data-testid=rematch-box] ul.invites", "data-table")
        assert third not in (None, created["table"], new_table)
        seats3 = table_detail(web_stack.url, third)["seats"]
        assert [(s["name"], s["kind"]) for s in seats3] == [(s["name"], s["kind"]) for s in detail["seats"]]
        # The rematch's seat links play those seats.
        page.page.click("[data-testid=rematch-box] [data-testid=play-0]")
        page.wait(f"{LIVE} && document.body.dataset.seat === '0' && document.body.dataset.seq === '0'")
        assert page.errors == []


def test_a_person_hands_their_seat_to_a_bot_and_takes_it_back(web_stack: Stack, chromium: Any) -> None:
    created = create(web_stack.url, ["Ada", "Brunel"])
    table = created["table"]
    with tab(chromium, PHONE) as page:
        open_seat(page, created, 0)
        page.wait(READY)
        page.page.select_option("[data-testid=handover-level]", "random")
        # A move (an update) while the level is picked does not reset the pick.
        page.page.click('[data-testid=actions] button[data-act="bid"]')
        page.wait_seq(1)
        assert page.page.input_value("[data-testid=handover-level]") == "random"
        page.page.click("[data-testid=handover]")
        page.page.wait_for_selector("[data-testid=take-back]")
        seat = table_detail(web_stack.url, table)["seats"][0]
        assert (seat["kind"], seat["level"]) == ("bot", "random")
        # Brunel passes: Ada won the PRR share and opens the next auction, so her bot plays on.
        headers = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
        status, reply = http("POST", f"{web_stack.url}/api/tables/{table}/actions",
                             {"expected_seq": 1, "idempotency_key": "brunel-pass", "action": {"type": "pass"}}, headers)
        assert status == 201, reply
        # The bot worker plays Ada's turn; the page shows it and offers nothing to click.
        page.wait_seq(3, timeout_ms=20_000)
        assert re.match(r"Ada (bids \$\d+ for|passes on) B&O", page.log_lines()[-1]), page.log_lines()
        assert "A bot (random) is playing" in page.page.inner_text("[data-testid=seat-box]")
        assert page.action_buttons() == []
        page.page.click("[data-testid=take-back]")
        page.page.wait_for_selector("[data-testid=handover]")
        assert table_detail(web_stack.url, table)["seats"][0]["kind"] == "human"
        assert page.errors == []


CHICAGO_WITHOUT_PAGE = {
    "id": "chicago-express", "name": "Chicago Express", "min_players": 2, "max_players": 6, "rules_version": "1",
    "summary": "A title served without a page module", "options": [], "bot_levels": ["random"], "web_module": None,
}
MADE_UP = {
    "id": "made-up", "name": "Made-up Title", "min_players": 3, "max_players": 5, "rules_version": "1",
    "summary": "Every kind of option",
    "options": [
        {"name": "rounds", "type": "int", "default": 7, "label": "Rounds", "help": "How many rounds", "min": 2, "max": 9},
        {"name": "fast", "type": "bool", "default": True, "label": "Fast start", "help": "Skip the opening"},
        {"name": "map", "type": "choice", "default": "south", "label": "Map", "choices": ["north", "south"]},
        {"name": "motto", "type": "str", "default": "steam", "label": "Motto"},
        {"name": "dials", "type": "object", "default": None, "label": "Dials",
         "fields": [{"name": "a", "type": "int", "default": 3, "label": "A", "min": 1, "max": 5}]},
    ],
    "bot_levels": ["easy", "hard"], "web_module": None,
}


def serve_titles(page: Tab, titles: list[dict[str, Any]]) -> None:
    """What GET /api/titles answers in this tab (the contract's shape)."""
    page.page.route(re.compile(r"/api/titles$"), lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps({"titles": titles})))


def test_the_lobby_builds_its_form_from_the_titles_the_server_plays(web_stack: Stack, chromium: Any) -> None:
    with tab(chromium, DESKTOP) as page:
        serve_titles(page, [CHICAGO_WITHOUT_PAGE, MADE_UP])
        sent: list[dict[str, Any]] = []
        page.page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.method == "POST" and r.url.endswith("/api/tables") else None)
        page.goto(f"{web_stack.url}/")
        page.wait("document.body.dataset.titles === '2'")
        page.page.select_option("#title", "made-up")
        assert page.page.inner_text("[data-testid=title-summary]") == "Every kind of option"
        assert page.page.eval_on_selector_all("#players option", "els => els.map(e => e.value)") == ["3", "4", "5"]
        assert page.page.input_value("#players") == "4", "the count chosen before stays when the new title allows it"
        page.page.select_option("[data-testid=seat-kind-0]", "bot")
        assert page.page.eval_on_selector_all("[data-testid=seat-level-0] option", "els => els.map(e => e.value)") == ["easy", "hard"]
        page.page.click("[data-testid=options] summary")
        assert page.page.input_value("[data-testid=option-rounds]") == "7"
        assert page.page.is_checked("[data-testid=option-fast]")
        assert page.page.eval_on_selector("[data-testid=option-map]", "s => s.selectedOptions[0].textContent") == "south"
        assert page.page.input_value("[data-testid=option-motto]") == "steam"
        assert page.page.input_value("[data-testid=option-dials-a]") == "3"
        assert "How many rounds" in page.page.inner_text("[data-testid=options]")
        page.page.fill("[data-testid=option-rounds]", "12")
        page.page.click("[data-testid=create]")
        # Out of the option's range: the browser holds the form back (the field's min and max).
        assert page.page.eval_on_selector("[data-testid=option-rounds]", "e => e.validity.rangeOverflow") is True
        assert sent == []
        page.page.fill("[data-testid=option-rounds]", "4")
        page.page.uncheck("[data-testid=option-fast]")
        page.page.select_option("[data-testid=option-map]", label="north")
        page.page.fill("[data-testid=option-dials-a]", "5")
        page.page.click("[data-testid=create]")
        # This server does not play the made-up title: it says so, and the form sent the options typed.
        page.wait("!document.querySelector('.create .refusal').hidden && document.querySelector('.create .refusal').textContent.includes('made-up')")
        assert sent[-1]["title"] == "made-up"
        assert sent[-1]["options"] == {"rounds": 4, "fast": False, "map": "north", "motto": "steam", "dials": {"a": 5}}
        assert len(sent[-1]["seats"]) == 4 and sent[-1]["seats"][0] == {"name": "Bot 1", "kind": "bot", "level": "easy"}
        assert page.errors == []


def test_a_title_without_a_page_module_gets_the_generic_page(web_stack: Stack, chromium: Any) -> None:
    created = create(web_stack.url, ["Ada", "Brunel"])
    with tab(chromium, DESKTOP) as page:
        serve_titles(page, [CHICAGO_WITHOUT_PAGE])
        open_seat(page, created, 0)
        page.wait(READY)
        assert page.dataset("pageModule") == "generic"
        assert '"title": "chicago-express"' in page.page.inner_text("[data-testid=raw-view]")
        # The legal actions as a form: the bid family's amount, and pass.
        send = page.page.locator('[data-testid=actions] .family[data-type=bid] button[data-act="bid"]')
        assert send.inner_text() == "Send: bid amount=7"
        page.page.fill("[data-testid=actions] .family[data-type=bid] [data-testid=amount]", "9")
        assert send.inner_text() == "Send: bid amount=9"
        send.click()
        page.wait_seq(1)
        assert page.page.locator('[data-testid=actions] button[data-act="bid"]').count() == 0
        assert page.errors == []

