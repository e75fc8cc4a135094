"""The web client in headless Chromium against a real `roundhouse dev`: a person plays whole
games against bots through the lobby and the table page, two people see each other's moves
live, a reload resumes, a refusal shows the engine's message, and a phone-sized screen works.

Screenshots go to test-artifacts/screenshots/ (their paths are printed).
"""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.dev.test_dev_command import play_first_legal
from tests.web.bot_seats import BotSeats
from tests.web.conftest import Stack
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, create_table, invite, tab, table_detail
from tests.web.person import Person

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}


def create_through_lobby(page: Tab, base: str) -> dict[str, Any]:
    """Lobby: 4 players, seat 1 a person, seats 2-4 bots; returns what the page shows."""
    page.goto(f"{base}/")
    page.wait("document.body.dataset.titles !== undefined")
    page.page.select_option("#title", "chicago-express")
    page.page.select_option("#players", "4")
    page.page.fill("[data-testid=seat-name-0]", "Ada")
    for seat in (1, 2, 3):
        page.page.select_option(f"[data-testid=seat-kind-{seat}]", "bot")
        page.page.select_option(f"[data-testid=seat-level-{seat}]", "random")
    page.page.click("[data-testid=create]")
    page.page.wait_for_selector("[data-testid=play-0]")
    created = page.page.locator("[data-testid=created]").inner_text()
    return {"text": created, "play": page.page.get_attribute("[data-testid=play-0]", "href")}


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_person_plays_a_whole_game_against_three_bots(
    size: str, web_stack: Stack, chromium: Any, bot_seats: BotSeats, screenshots: Path
) -> None:
    with tab(chromium, VIEWPORTS[size]) as page:
        lobby = create_through_lobby(page, web_stack.url)
        assert lobby["text"].count("bot · random") == 3
        assert lobby["play"] and "#table=" in lobby["play"] and "token=" in lobby["play"]
        page.page.click("[data-testid=play-0]")
        page.wait(f"document.body.dataset.page === 'table' && {LIVE}")
        table, token = page.table_and_token()
        assert token
        bot_seats.play(table, seed=3)
        print(f"bot seats played by {bot_seats.who}")

        person = Person(page.page, seed=5)
        shot_taken = False
        while person.wait_my_turn():
            # The table screenshot: mid-game, with hexes to click on the map.
            if not shot_taken and person.moves >= 8 and person.targets():
                page.shot(screenshots / f"table-{size}.png", full_page=False)  # what the screen shows
                page.shot(screenshots / f"table-{size}-full.png")
                shot_taken = True
                # A hex that is not highlighted does nothing when clicked.
                idle = next(h for h in ("A2", "A3", "S5", "C7") if h not in person.targets())
                seq = page.seq()
                page.page.locator(f'svg.map .hex[data-hex="{idle}"]').click()
                assert page.seq() == seq and page.dataset("ready") == "true"
                assert page.page.locator("[data-testid=refusal]").count() == 0
            person.take_turn()
        result_shot = page.shot(screenshots / f"result-{size}.png")

        detail = table_detail(web_stack.url, table)
        assert detail["status"] == "finished"
        assert not bot_seats.errors, bot_seats.errors
        assert person.moves >= 10, person.clicks
        assert person.clicks.get("hex", 0) > 0, f"no hex was clicked on the map: {person.clicks}"
        # The result screen: the ranking the server decided, and a chart with a line per player.
        result = detail["result"]
        ranking = page.page.eval_on_selector_all(
            "[data-testid=result] .ranking li", "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.rank)])"
        )
        assert sorted(ranking) == [[seat, rank] for seat, rank in enumerate(result["ranks"])]
        scores_shown = [int(m) for m in re.findall(r"\$(\d+)", page.page.inner_text("[data-testid=result] .ranking"))]
        assert sorted(scores_shown, reverse=True) == sorted(result["scores"], reverse=True)
        assert page.page.locator("[data-testid=cash-chart] path.cash-line").count() == 4
        assert int(page.page.get_attribute("[data-testid=cash-chart]", "data-points") or 0) > 10
        assert page.dataset("myTurn") == "false"
        assert page.action_buttons() == [], "nothing to click once the game is over"
        assert page.page.locator("[data-testid=latest-move]").is_hidden(), "the result tells the end, not the move bar"
        assert shot_taken and result_shot.exists()
        assert page.errors == []


def test_two_people_see_each_others_moves_live(web_stack: Stack, chromium: Any, screenshots: Path) -> None:
    created = create_table(web_stack.url, [{"name": "Ada"}, {"name": "Brunel"}, {"name": "Robo", "kind": "bot", "level": "random"}])
    with tab(chromium) as ada, tab(chromium) as brunel, tab(chromium, PHONE) as watcher:
        ada.goto(invite(created, 0))
        brunel.goto(invite(created, 1))
        watcher.goto(f"{web_stack.url}/#table={created['table']}")
        for page in (ada, brunel, watcher):
            page.wait("document.body.dataset.connection === 'live' && document.body.dataset.seq === '0'")
        ada.wait("document.body.dataset.ready === 'true'")

        # Ada opens the bidding at $9; Brunel's page and the spectator's show it without a reload.
        assert "bid" in ada.action_buttons()
        assert brunel.action_buttons() == [], "not Brunel's turn: nothing to click"
        ada.page.fill("[data-testid=amount]", "9")
        ada.page.click('button[data-act="bid"]')
        for page in (brunel, watcher):
            page.wait_seq(1)
            assert "Ada bids $9 for PRR" in page.log_lines()
            # The panel redraws once the seat's legal actions for seq 1 have arrived.
            page.wait("document.querySelector('[data-testid=actions]').innerText.includes('high bid $9 by Ada')")

        # Brunel answers; Ada sees it live.
        brunel.wait("document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'")
        assert brunel.page.inner_text("[data-testid=range]").startswith("min $10")
        brunel.page.click('button[data-act="pass"]')
        ada.wait_seq(2)
        assert "Brunel passes on PRR" in ada.log_lines()
        assert watcher.dataset("seat") == "spectator"
        assert watcher.action_buttons() == []
        watcher.shot(screenshots / "spectator-phone.png")
        for page in (ada, brunel, watcher):
            assert page.errors == []


def test_a_refused_amount_shows_the_engines_message_then_bid_and_undo(web_stack: Stack, chromium: Any) -> None:
    created = create_table(web_stack.url, [{"name": "Ada"}, {"name": "Brunel"}])
    with tab(chromium) as ada:
        ada.goto(invite(created, 0))
        ada.wait("document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'")
        ada.page.fill("[data-testid=amount]", "999")
        ada.page.click('button[data-act="bid"]')
        ada.page.wait_for_selector("[data-testid=refusal]")
        # Ada has $60 in a 2-player game: the engine says so, and nothing was logged.
        assert "you have only $60; you cannot bid $999" in ada.page.inner_text("[data-testid=refusal]")
        assert table_detail(web_stack.url, created["table"])["last_seq"] == 0
        ada.wait("document.body.dataset.ready === 'true'")
        ada.page.fill("[data-testid=amount]", "12")
        ada.page.click('button[data-act="bid"]')
        ada.wait_seq(1)
        assert ada.page.locator("[data-testid=refusal]").count() == 0
        assert "Ada bids $12 for PRR" in ada.log_lines()

        # Taking it back: the undo is logged (seq 2), the bid leaves the log, the bid is offered again.
        ada.wait("document.body.dataset.ready === 'true'")
        ada.page.click('button[data-act="undo"]')
        ada.wait_seq(2)
        ada.wait("document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'")
        assert ada.log_lines() == ["Opening auction of a PRR share, opened by Ada (at least $7)"]
        assert "bid" in ada.action_buttons() and "undo" not in ada.action_buttons()
        assert ada.errors == []


def test_a_reload_mid_game_resumes_at_the_right_state(web_stack: Stack, chromium: Any, bot_seats: BotSeats) -> None:
    created = create_table(web_stack.url, [{"name": "Ada"}, {"name": "Brunel"}, {"name": "Robo", "kind": "bot", "level": "random"}])
    table = created["table"]
    brunel_token = created["seats"][1]["token"]
    bot_seats.play(table, seed=8)
    with tab(chromium) as ada, tab(chromium) as fresh:
        ada.goto(invite(created, 0))
        person = Person(ada.page, seed=2)

        def brunel_moves() -> None:
            """Brunel plays over HTTP whenever it is his turn, until it is Ada's again."""
            while True:
                detail = table_detail(web_stack.url, table)
                if 0 in detail["active_seats"] or detail["status"] == "finished":
                    return
                if 1 in detail["active_seats"]:
                    play_first_legal(web_stack.url + "/", table, brunel_token, detail["last_seq"], uuid.uuid4().hex)
                else:
                    time.sleep(0.02)  # the bot seat is moving

        for _ in range(12):
            brunel_moves()
            assert person.wait_my_turn()
            person.take_turn()
        brunel_moves()
        seq = table_detail(web_stack.url, table)["last_seq"]
        ada.wait_seq(seq)
        before = ada.log_lines()

        ada.page.reload()
        ada.wait(LIVE)
        assert ada.dataset("resumed") == "true", "the reload continued from the seq it held"
        assert ada.seq() == seq
        assert ada.log_lines() == before

        # Away from the page while others move, then back: the missed moves arrive, once each.
        ada.goto("about:blank")
        brunel_moves()
        ada.goto(invite(created, 0))
        ada.wait(LIVE)
        assert ada.dataset("resumed") == "true"
        now = table_detail(web_stack.url, table)["last_seq"]
        ada.wait_seq(now)
        assert ada.seq() == now
        # What Ada's page shows is what a browser that never saw the table before shows.
        fresh.goto(f"{web_stack.url}/#table={table}")
        fresh.wait_seq(now)
        assert ada.log_lines() == fresh.log_lines()
        for part in (".players", ".charters", ".dials", ".industry-box"):
            # The same but for the "you" tag on Ada's own row.
            assert re.sub(r"\s*\byou\b", "", ada.page.inner_text(part)) == fresh.page.inner_text(part), part
        # And the game goes on from there.
        if person.wait_my_turn():
            person.take_turn()
            assert ada.seq() > now
        assert ada.errors == [] and fresh.errors == []


def test_lobby_creates_a_table_hands_out_links_and_lists_it(web_stack: Stack, chromium: Any, screenshots: Path) -> None:
    with tab(chromium) as page:
        page.goto(f"{web_stack.url}/")
        page.wait("document.body.dataset.titles !== undefined")
        page.page.select_option("#title", "chicago-express")
        page.page.select_option("#players", "3")
        for seat, name in enumerate(["Ada", "Brunel"]):
            page.page.select_option(f"[data-testid=seat-kind-{seat}]", "human")
            page.page.fill(f"[data-testid=seat-name-{seat}]", name)
        page.page.select_option("[data-testid=seat-kind-2]", "bot")
        page.page.select_option("[data-testid=seat-level-2]", "heuristic")
        page.page.fill("[data-testid=seat-name-2]", "Stephenson")
        page.page.click("[data-testid=create]")
        page.page.wait_for_selector("[data-testid=play-1]")
        created = page.page.inner_text("[data-testid=created]")
        assert "Stephenson" in created and "bot · heuristic" in created
        links = page.page.eval_on_selector_all(".invite-url", "els => els.map(e => e.value)")
        assert len(links) == 2 and all(u.startswith("http") and "#table=" in u and "&token=" in u for u in links)
        found = re.search(r"#table=(\w+)", links[0])
        assert found is not None, links
        table = found.group(1)

        # The open tables list offers this browser its seats and a spectator's view.
        item = page.page.locator(f'[data-testid=open-tables] li[data-table="{table}"]')
        item.wait_for()
        text = item.inner_text()
        assert "Play as Ada" in text and "Play as Brunel" in text and "Watch" in text
        assert "Stephenson (bot)" in text
        page.shot(screenshots / "lobby-desktop.png")
        item.get_by_text("Watch").click()
        page.wait(f"document.body.dataset.page === 'table' && {LIVE}")
        assert page.dataset("seat") == "spectator"
        page.wait("document.querySelector('[data-testid=actions]').innerText.includes('Watching as a spectator')")
        assert page.errors == []



def test_a_move_overtaken_by_another_tab_is_refused_and_the_page_catches_up(web_stack: Stack, chromium: Any) -> None:
    """Ada has the table open twice. The second tab's live feed is held back, so it still
    offers the opening bid after the first tab has bid: its click gets `stale_seq`, which
    the page explains, and once the feed flows again it shows the position as it is."""
    created = create_table(web_stack.url, [{"name": "Ada"}, {"name": "Brunel"}])
    with tab(chromium) as first, tab(chromium) as second:
        held: list[tuple[Any, Any]] = []
        holding = {"on": False}

        def relay(route: Any) -> None:
            server = route.connect_to_server()

            def from_server(message: Any) -> None:
                if holding["on"]:
                    held.append((route, message))
                else:
                    route.send(message)

            server.on_message(from_server)
            route.on_message(server.send)

        second.page.route_web_socket(re.compile(r"/ws$"), relay)
        for page in (first, second):
            page.goto(invite(created, 0))
            page.wait("document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'")

        holding["on"] = True
        first.page.click('button[data-act="bid"]')
        first.wait_seq(1)
        assert second.seq() == 0 and "pass" in second.action_buttons()
        second.page.click('button[data-act="pass"]')
        second.page.wait_for_selector("[data-testid=refusal]")
        assert "Someone else acted first" in second.page.inner_text("[data-testid=refusal]")
        assert table_detail(web_stack.url, created["table"])["last_seq"] == 1, "the overtaken pass was not logged"

        holding["on"] = False
        for route, message in held:
            route.send(message)
        second.wait_seq(1)
        second.wait("document.body.dataset.myTurn === 'false'")
        assert second.log_lines() == first.log_lines()
        assert second.log_lines()[1:] == ["Ada bids $7 for PRR"], "one action by Ada, and no pass"
        assert first.errors == [] and second.errors == []
