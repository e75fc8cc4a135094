"""The Chicago Express table page as a new player meets it, in real Chromium at both sizes:
every move (a bot's too) shown as it lands, with a line in sight and a ring on its hex drawn
where the engine's hex is; undo offered exactly when the server takes it; a choice that can
do nothing saying why before it is made; hexes called by what the map prints.

Screenshots go to test-artifacts/chicago/.
"""

from __future__ import annotations

import math
import re
import uuid
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the `chromium` fixture then skips these tests with the reason
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]

from shared.games.chicago_express.board import BOARD

from tests.dev.devproc import REPO, http
from tests.web.bot_seats import BotSeats
from tests.web.conftest import Stack
from tests.web.driving import drive, first_of, seat_view
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, create_table, invite, tab, table_detail
from tests.web.person import Person

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
ARTIFACTS = REPO / "test-artifacts" / "chicago"
HEX_ID = re.compile(r"\b[A-S]\d{1,2}\b")

# Records every move the feed shows: the entry, the bar's place on screen, the ring's.
RECORDER = """() => {
  window.__shown = [];
  const bar = document.querySelector('[data-testid=latest-move]');
  const note = () => {
    const ring = document.querySelector('svg.map .move-ring');
    const scroll = document.querySelector('[data-scroll=map]').getBoundingClientRect();
    const r = bar.getBoundingClientRect();
    const item = {index: Number(bar.dataset.index), hex: bar.dataset.hex || null, text: bar.querySelector('.move-text').textContent,
      at: Date.now(), barTop: r.top, barBottom: r.bottom, height: window.innerHeight, ring: null};
    if (ring) {
      const pts = ring.getAttribute('points').trim().split(/\\s+/).map(p => p.split(',').map(Number));
      const cell = document.querySelector(`svg.map .hex[data-hex="${ring.dataset.hex}"] polygon.cell`);
      const box = ring.getBoundingClientRect();
      // On screen: below a sticky action panel, above the bar.
      const panel = document.querySelector('[data-testid=actions]');
      const under = getComputedStyle(panel).position === 'sticky' ? Math.max(0, panel.getBoundingClientRect().bottom) : 0;
      item.ring = {hex: ring.dataset.hex, points: pts, cell: cell ? cell.getAttribute('points') : null,
        watching: document.body.dataset.myTurn !== 'true', sticky: under > 0,
        inSight: box.top >= under - 1 && box.bottom <= r.top + 1 && box.left >= 0 && box.right <= window.innerWidth,
        inBox: box.left >= scroll.left - 1 && box.right <= scroll.right + 1 && box.top >= scroll.top - 1 && box.bottom <= scroll.bottom + 1};
    }
    window.__shown.push(item);
  };
  new MutationObserver(note).observe(bar, {attributes: true, attributeFilter: ['data-index']});
}"""


# The feed has shown the last log entry (nothing waits).
DRAINED = """document.querySelector('[data-testid=latest-move] .move-more').textContent === ''
  && Number(document.querySelector('[data-testid=latest-move]').dataset.index) === document.querySelectorAll('[data-testid=log] li').length - 1"""
# A bot's move on a hex is being shown.
BOT_ON_A_HEX = """() => !!document.querySelector('svg.map .move-ring')
  && /^(Robo|Tesla) /.test(document.querySelector('[data-testid=latest-move] .move-text').textContent)"""


@pytest.fixture(scope="module")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def shoot_a_bot_move(page: Tab, path: Path) -> bool:
    """Screenshot a bot's move on a hex as it is shown; False when no bot moved on a hex this
    time round."""
    try:
        page.page.wait_for_function(BOT_ON_A_HEX, timeout=2500)
    except PlaywrightTimeout:
        return False
    page.shot(path, full_page=False)
    return True


def hex_centre(hex_id: str, view_box_width: float) -> tuple[float, float]:
    """Where the engine's hex lies in the map's SVG: board.json's layout (odd-q offset grid of
    flat-top hexes, columns A.. west to east, rows from 0 north, odd columns half a hex down),
    its size taken from the drawing's width (2 radii plus 1.5 radii per further column)."""
    cols = max(ord(h[0]) - 65 for h in BOARD.hex_ids) + 1
    radius = view_box_width / (2 + 1.5 * (cols - 1))
    half = math.sqrt(3) / 2 * radius
    col, row = ord(hex_id[0]) - 65, int(hex_id[1:])
    return radius + 1.5 * radius * col, half + 2 * half * row + (half if col % 2 else 0)


def act_http(base: str, table: str, token: str, seq: int, action: dict[str, Any]) -> tuple[int, Any]:
    body = {"expected_seq": seq, "idempotency_key": uuid.uuid4().hex, "action": action}
    return http("POST", f"{base}/api/tables/{table}/actions", body, {"Authorization": f"Bearer {token}"})


def legal_http(base: str, table: str, token: str) -> dict[str, Any]:
    status, body = http("GET", f"{base}/api/tables/{table}/legal", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, body
    return body


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_each_bot_move_is_shown_as_it_lands(size: str, web_stack: Stack, chromium: Any, bot_seats: BotSeats,
                                           artifacts: Path) -> None:
    created = create_table(web_stack.url, [{"name": "Ada"}, {"name": "Robo", "kind": "bot", "level": "heuristic"},
                                           {"name": "Tesla", "kind": "bot", "level": "random"}])
    table, token = created["table"], created["seats"][0]["token"]
    bot_seats.play(table, seed=11)
    with tab(chromium, VIEWPORTS[size]) as page:
        page.goto(invite(created, 0))
        page.wait(f"{LIVE} && !!document.querySelector('[data-testid=latest-move]')")
        person = Person(page.page, seed=4)

        def ada_moves() -> None:
            """One move of Ada's once the bots are done and the feed has shown their moves."""
            # Who must act comes from the same source as /legal.
            assert legal_http(web_stack.url, table, token)["active"] is True
            assert page.page.inner_text("[data-testid=turn]").startswith("Your turn")
            # Ada watches the bots' moves play out before she moves (her move would skip them).
            page.wait(DRAINED, timeout_ms=30_000)
            person.take_turn()

        # First a screenshot of a bot's move on a hex, watching the map (on a phone scrolled to it).
        ring_shot = False
        while not ring_shot and person.moves < 25 and person.wait_my_turn():
            ada_moves()
            page.page.locator(".map-box").scroll_into_view_if_needed()
            ring_shot = shoot_a_bot_move(page, artifacts / f"bot-move-{size}.png")
        # Then every move shown is recorded.
        assert person.wait_my_turn()
        page.wait(DRAINED, timeout_ms=30_000)
        page.page.evaluate(RECORDER)
        start, moves = page.seq(), person.moves
        while person.moves < moves + 10 and person.wait_my_turn():
            ada_moves()
        # Once the bots wait for Ada again (nothing moves), the feed shows everything that arrived.
        assert person.wait_my_turn()
        page.wait(DRAINED, timeout_ms=30_000)
        end = page.seq()
        log = page.log_lines()
        shown = page.page.evaluate("window.__shown")
        view_box = float(page.page.get_attribute("svg.map", "viewBox").split()[2])
        entries = entries_with_hexes(web_stack.url, table, token)

    assert end > start + 10, "the game moved on"
    assert ring_shot, "no move on a hex was seen"
    first = shown[0]["index"]
    assert [s["index"] for s in shown] == list(range(first, len(log))), "each entry once, in order"
    for prev, item in zip(shown, shown[1:]):
        # One after another, each long enough to be seen, however fast the bots answered.
        assert item["at"] - prev["at"] >= 250, (prev, item)
    followed = 0
    for item in shown:
        assert item["text"] == log[item["index"]]
        assert 0 <= item["barTop"] and item["barBottom"] <= item["height"], f"the line is off screen: {item}"
        assert not HEX_ID.search(item["text"]), f"a coordinate the map does not print: {item['text']}"
        hex_id = entries[item["index"]]
        assert item["hex"] == hex_id
        if hex_id is None:
            assert item["ring"] is None
            continue
        ring = item["ring"]
        assert ring and ring["hex"] == hex_id and ring["inBox"], item
        if ring["watching"]:
            # While Ada waits the page follows the move (nothing moves under her as she decides).
            assert ring["inSight"], f"the ring is not in sight: {item}"
            followed += 1
        # The ring's centre is the engine's hex, computed here from the layout.
        xs, ys = [p[0] for p in ring["points"]], [p[1] for p in ring["points"]]
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        ex, ey = hex_centre(hex_id, view_box)
        assert abs(cx - ex) < 0.5 and abs(cy - ey) < 0.5, (hex_id, (cx, cy), (ex, ey))
    assert any(e is not None for e in entries[first:]), "no move on a hex in the whole stretch"
    print(f"{followed} rings shown while Ada waited, each in sight")
    assert not [line for line in log if HEX_ID.search(line)], "log lines name hexes by what the map prints"


def entries_with_hexes(base: str, table: str, token: str) -> list[str | None]:
    """The hex each log entry happened on, from the seat's view as the projection sends it
    (None for entries not on a hex)."""
    view = seat_view(base, table, token)
    chicago = next(h["id"] for h in view["hexes"] if h["chicago"])
    out: list[str | None] = []
    for e in view["log"]:
        if e["event"] in ("built", "developed", "wabash_opened"):
            out.append(e["hex"])
        elif e["event"] == "chicago_reached":
            out.append(chicago)
        else:
            out.append(None)
    return out


READY = "document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'"


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_undo_is_offered_exactly_when_the_server_takes_it(size: str, web_stack: Stack, chromium: Any, bot_seats: BotSeats,
                                                         artifacts: Path) -> None:
    created = create_table(web_stack.url, [{"name": "Ada"}, {"name": "Robo", "kind": "bot", "level": "random"}])
    table, token = created["table"], created["seats"][0]["token"]
    bot_seats.play(table, seed=5)
    with tab(chromium, VIEWPORTS[size]) as page:
        page.goto(invite(created, 0))
        page.wait(LIVE)
        person = Person(page.page, seed=9)
        undone = refused = 0
        while person.moves < 30 and person.wait_my_turn():
            # Ada's turn: nobody else can move, so the server's answer holds until she acts.
            seq = page.seq()
            offered = "undo" in page.action_buttons()
            assert legal_http(web_stack.url, table, token)["undo"] is offered
            if not offered:
                status, body = act_http(web_stack.url, table, token, seq, {"type": "undo"})
                assert status == 422, body
                assert table_detail(web_stack.url, table)["last_seq"] == seq, "a refused undo changes nothing"
                refused += 1
            elif undone < 2:
                # Offered while Ada is still to act after her own move (mid-turn, or opening the
                # next auction after winning one): it succeeds.
                lines = page.log_lines()
                if undone == 0:
                    page.shot(artifacts / f"undo-offered-{size}.png", full_page=False)
                page.page.click('[data-testid=actions] button[data-act="undo"]')
                page.wait_seq(seq + 1)
                page.wait(READY)
                assert page.page.locator("[data-testid=refusal]").count() == 0
                after = page.log_lines()
                assert len(after) < len(lines) and lines[: len(after)] == after, "the undone move left the log"
                undone += 1
                continue
            person.take_turn()
            if page.dataset("myTurn") == "false":
                # A bot moves within a fraction of a second: an undo would come too late.
                assert "undo" not in page.action_buttons()
        assert page.errors == []
    assert undone == 2 and refused >= 5, (undone, refused)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_a_choice_that_can_do_nothing_says_why_before_it_is_made(size: str, web_stack: Stack, chromium: Any,
                                                                artifacts: Path) -> None:
    """Ada let Brunel buy every opening share: she holds none, so Build can build nothing.
    The rules still let her choose it (the dial moves, then she forgoes): the page says so
    before the choice and again before the forgo."""
    created = create_table(web_stack.url, [{"name": "Ada"}, {"name": "Brunel"}])

    def policy(seat: int, actions: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any] | None:
        if view["phase"] == "choose" and view["current_player"] == 0:
            return None
        if seat == 0:
            return first_of(actions, "pass", "forgo")
        if view["auction"]:
            return first_of(actions, "bid", "pass")
        return first_of(actions, "forgo") or {"type": "choose", "action": "develop"}

    drive(web_stack.url, created, policy)
    with tab(chromium, VIEWPORTS[size]) as page:
        page.goto(invite(created, 0))
        page.wait(f"{LIVE} && {READY}")
        why = page.page.locator("[data-testid=why-not-build]")
        assert "nothing to build: you hold no share of any company" in why.inner_text()
        assert "only moves its dial" in why.inner_text()
        box = why.bounding_box()
        assert box and box["y"] + box["height"] <= VIEWPORTS[size]["height"], "the reason is in sight before the choice"
        assert "dial only" in page.page.inner_text('[data-testid=actions] button[data-act="choose-build"]')
        assert "dial only" not in page.page.inner_text('[data-testid=actions] button[data-act="choose-auction"]')
        page.shot(artifacts / f"build-nothing-choice-{size}.png", full_page=False)

        seq = page.seq()
        page.page.click('[data-testid=actions] button[data-act="choose-build"]')
        page.wait_seq(seq + 1)
        page.wait(READY)
        assert page.dataset("phase") == "build"
        assert "Nothing can be built: you hold no share" in page.page.inner_text("[data-testid=why-not-build]")
        assert [b for b in page.action_buttons() if b != "undo"] == ["forgo"]
        page.shot(artifacts / f"build-nothing-forgo-{size}.png", full_page=False)
        page.page.click('[data-testid=actions] button[data-act="forgo"]')
        page.wait_seq(seq + 2)
        assert page.log_lines()[-2:] == ["Ada chooses build", "Ada forgoes the build"]
        assert page.errors == []
