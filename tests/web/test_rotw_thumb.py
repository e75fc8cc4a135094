"""On a phone the England & Wales decision stays where the thumb is: in real Chromium at
390x844, a person plays through the page against a bot, scrolling the map as a player does
(a hex tapped is brought to the middle of the screen); every time the bot's move hands the
turn back (an action, or the Railway Inspector's question about its delivery), the
decision's buttons are on screen, in its lower part, without the person scrolling."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.bot_seats import BotSeats
from tests.web.conftest import Stack
from tests.web.pages import LIVE, PHONE, tab
from tests.web.rotw_person import RotwPerson
from tests.web.test_rotw_page import create

# The enabled decision buttons (not undo) and where they are on the screen.
CONTROLS = """() => {
  const panel = document.querySelector('[data-testid=actions]');
  const rect = panel.getBoundingClientRect();
  const buttons = [...panel.querySelectorAll('button[data-act]:not([disabled]):not([data-act=undo])')]
    .map(b => b.getBoundingClientRect()).filter(r => r.height > 0);
  const visible = buttons.filter(r => r.top >= 0 && r.bottom <= innerHeight);
  return {panelTop: rect.top, panelBottom: rect.bottom, height: innerHeight, buttons: buttons.length,
          visible: visible.length, firstTop: visible.length ? Math.min(...visible.map(r => r.top)) : null,
          scrollY: scrollY, phase: document.body.dataset.phase};
}"""


def test_phone_decision_stays_in_thumb_reach_when_a_bot_moves(
    web_stack: Stack, chromium: Any, bot_seats: BotSeats, screenshots: Path
) -> None:
    created = create(web_stack.url, ["Ada", "Robo"], {1: "heuristic"})
    bot_seats.play(created["table"], seed=4)
    with tab(chromium, PHONE) as page:
        page.goto(created["seats"][0]["invite_url"])
        page.wait(LIVE)
        person = RotwPerson(page, seed=8, name="Ada")
        checked = 0
        last_seq = -1
        while person.wait_my_turn() and person.moves < 40:
            seq = page.seq()
            if person.moves and seq > last_seq:
                # The bot moved since Ada's last decision: her buttons must be in sight, low on
                # the screen, where her thumb was.
                at = page.page.evaluate(CONTROLS)
                while not at["buttons"] and person.wait_my_turn():  # the panel redrawn meanwhile
                    at = page.page.evaluate(CONTROLS)
                if checked == 0 or at["phase"] == "inspect":
                    page.shot(screenshots / f"rotw-thumb-{at['phase']}-phone.png", full_page=False)
                assert at["buttons"] and at["visible"], f"no decision button on screen after the bot's move: {at}"
                assert at["panelBottom"] <= at["height"] + 1 and at["panelTop"] >= at["height"] * 0.3, \
                    f"the decision is not docked at the bottom of the screen: {at}"
                checked += 1
            person.act()
            last_seq = page.seq()
        print(f"{checked} turns after a bot move checked; person clicks {person.clicks}")
        assert checked >= 5, checked
        assert person.clicks.get("hex", 0) >= 3, "the person never scrolled the map to a hex"
        assert page.errors == [], page.errors
    assert not bot_seats.errors, bot_seats.errors
