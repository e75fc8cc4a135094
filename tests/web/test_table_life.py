"""Table life on every title's page, in headless Chromium against a real `roundhouse dev`:
the chat between seats (text only, never HTML; mutes), and history stepping that shows
exactly the engine's view of each seq (first, previous round, previous and next move,
since my last move, now, `?seq=N` links, replay), for a real game of every title."""

from __future__ import annotations

import asyncio
import random
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from services.projection.history import view_round_label
from tests.dev.devproc import http
from tests.dev.test_dev_command import welcome
from tests.web.conftest import Stack
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, invite, tab

SCRIPT = "<script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\"> <b>bold?</b>"


def create(base: str, title: str, names: list[str]) -> dict[str, Any]:
    status, body = http("POST", f"{base}/api/tables", {"title": title, "seats": [{"name": n} for n in names]})
    assert status == 201, body
    return body


def chat_lines(page: Tab) -> list[tuple[str, str]]:
    return [tuple(pair) for pair in page.page.eval_on_selector_all(
        "[data-testid=chat-lines] li[data-seat]",
        "els => els.map(e => [e.querySelector('.chat-who').textContent, e.querySelector('.chat-text').textContent])")]


def say(page: Tab, text: str) -> None:
    page.page.fill("[data-testid=chat-input]", text)
    page.page.click("[data-testid=chat-send]")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_chat_reaches_the_other_seat_as_text(size: str, web_stack: Stack, chromium: Any, screenshots: Path) -> None:
    viewport = DESKTOP if size == "desktop" else PHONE
    created = create(web_stack.url, "chicago-express", ["Ada", "Brunel", "Crewe"])
    with tab(chromium, viewport) as ada, tab(chromium, viewport) as brunel, tab(chromium, viewport) as watcher:
        for page, url in ((ada, invite(created, 0)), (brunel, invite(created, 1))):
            page.goto(url)
            page.wait(LIVE)
        watcher.goto(f"{web_stack.url}/#table={created['table']}")
        watcher.wait(LIVE)
        say(ada, SCRIPT)
        brunel.wait("document.querySelectorAll('[data-testid=chat-lines] li[data-seat]').length === 1")
        assert chat_lines(brunel) == [("Ada", SCRIPT)]
        # Shown as text: no element came out of it, nothing ran.
        assert brunel.page.evaluate("document.querySelectorAll('[data-testid=chat] script, [data-testid=chat] img, [data-testid=chat] b').length") == 0
        assert brunel.page.evaluate("window.__pwned ?? null") is None
        assert ada.page.evaluate("window.__pwned ?? null") is None
        say(brunel, "Hello Ada, shall we build west?")
        ada.wait("document.querySelectorAll('[data-testid=chat-lines] li[data-seat]').length === 2")
        assert chat_lines(ada) == [("Ada", SCRIPT), ("Brunel", "Hello Ada, shall we build west?")]
        # A spectator speaks under the name it gives.
        watcher.page.fill("[data-testid=chat-name]", "Kibitzer")
        say(watcher, "nice opening")
        ada.wait("document.querySelectorAll('[data-testid=chat-lines] li[data-seat]').length === 3")
        assert chat_lines(ada)[-1] == ("Kibitzer (watching)", "nice opening")
        # Brunel mutes Ada: her earlier line goes, her next one never shows for him, Crewe's do.
        brunel.page.click("[data-testid=chat-mutes] summary")
        brunel.page.click("[data-testid=mute-0]")
        brunel.wait("document.querySelector('[data-testid=chat-mutes] summary').textContent === 'Muted: Ada'")
        assert [who for who, _ in chat_lines(brunel)] == ["Brunel", "Kibitzer (watching)"]
        say(ada, "you cannot hear me")
        say(watcher, "after Ada")
        brunel.wait("[...document.querySelectorAll('[data-testid=chat-lines] .chat-text')].some(e => e.textContent === 'after Ada')")
        assert "you cannot hear me" not in [text for _, text in chat_lines(brunel)]
        ada.wait("[...document.querySelectorAll('[data-testid=chat-lines] .chat-text')].some(e => e.textContent === 'after Ada')")
        assert ("Ada", "you cannot hear me") in chat_lines(ada)
        # Too long is refused in words (the field stops at 500; the server checks too).
        ada.page.evaluate("document.querySelector('[data-testid=chat-input]').removeAttribute('maxlength')")
        say(ada, "x" * 501)
        ada.wait("!document.querySelector('[data-testid=chat-note]').hidden")
        assert "at most 500 characters" in ada.page.inner_text("[data-testid=chat-note]")
        for name, page in (("ada", ada), ("brunel", brunel)):
            page.page.locator("[data-testid=chat]").scroll_into_view_if_needed()
            page.shot(screenshots / f"chat-{name}-{size}.png", full_page=False)
        for page in (ada, brunel, watcher):
            assert page.errors == []


# --- history -------------------------------------------------------------------------------------


def views_of(base: str, table: str, token: str | None) -> dict[str, Any]:
    with ThreadPoolExecutor(1) as pool:
        frame = pool.submit(asyncio.run, welcome(base.rstrip("/") + "/", table, token)).result(timeout=30)
    assert frame["type"] == "welcome", frame
    return frame


class Played:
    """A game played over the API: every seq's view of seat 0 and of a spectator, each as the
    projection's live feed sent it in a welcome right after that move (never through
    history), and the seat that made each move."""

    def __init__(self) -> None:
        self.views: dict[int, Any] = {}
        self.spectator: dict[int, Any] = {}
        self.seats: dict[int, int] = {}

    def record(self, base: str, table: str, token: str) -> int:
        frame = views_of(base, table, token)
        self.views[frame["seq"]] = frame["view"]
        watched = views_of(base, table, None)
        assert watched["seq"] == frame["seq"]
        self.spectator[frame["seq"]] = watched["view"]
        return frame["seq"]


def concrete(entry: dict[str, Any]) -> dict[str, Any]:
    """A legal action made concrete: a range at its minimum, a choice trie along its first values."""
    action = dict(entry["action"])
    if entry.get("range"):
        action[entry["range"]["field"]] = entry["range"]["min"]
    node = entry.get("choices")
    while node:
        action[node["field"]] = node["values"][0]
        then = node.get("then")
        node = then[0] if then else None
    return action


def play(base: str, created: dict[str, Any], moves: int, seed: int) -> Played:
    """Play `moves` seeded random legal moves (programs left alone)."""
    rng = random.Random(seed)
    table = created["table"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    played = Played()
    played.record(base, table, tokens[0])
    for _ in range(moves):
        status, detail = http("GET", f"{base}/api/tables/{table}")
        assert status == 200
        if detail["status"] == "finished":
            break
        seat = detail["active_seats"][0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        status, legal = http("GET", f"{base}/api/tables/{table}/legal", headers=headers)
        assert status == 200, legal
        choices = [e for e in legal["actions"] if not e["action"]["type"].startswith("program_")]
        action = concrete(rng.choice(choices))
        body = {"expected_seq": legal["seq"], "idempotency_key": uuid.uuid4().hex, "action": action}
        status, reply = http("POST", f"{base}/api/tables/{table}/actions", body, headers)
        assert status == 201, (action, reply)
        played.seats[reply["seq"]] = seat
        assert played.record(base, table, tokens[0]) == reply["seq"]
    return played


def drawn(page: Tab) -> Any:
    return page.page.evaluate("window.roundhouseDrawn.view")


def at(page: Tab, seq: int, last: int) -> None:
    past = "true" if seq < last else "false"
    page.wait(f"document.body.dataset.viewSeq === '{seq}' && document.body.dataset.history === '{past}' "
              "&& document.body.dataset.drawn === 'true'")


def check_drawn(page: Tab, views: dict[int, Any], seq: int, last: int) -> None:
    at(page, seq, last)
    assert drawn(page) == views[seq], f"the page drew another view than the engine's at seq {seq}"
    if seq < last:
        assert page.page.inner_text("[data-testid=history-where]").startswith(f"Looking back: move {seq} of {last}")
        assert page.page.inner_text("[data-testid=turn]").startswith(f"Move {seq}:")
    log = views[seq].get("log")
    if isinstance(log, list):
        assert len(page.log_lines()) == len(log)


TITLES = {"chicago-express": (["Ada", "Brunel", "Crewe"], 40), "rotw-england-wales": (["Ada", "Brunel", "Crewe"], 30),
          "18ireland": (["Ada", "Brunel", "Crewe"], 30), "1841": (["Ada", "Brunel", "Crewe"], 150)}


@pytest.mark.parametrize("title", list(TITLES))
def test_history_steps_through_the_engines_views(title: str, web_stack: Stack, chromium: Any, screenshots: Path) -> None:
    names, moves = TITLES[title]
    created = create(web_stack.url, title, names)
    played = play(web_stack.url, created, moves, seed=len(title))
    views = played.views
    last = max(views)
    assert last >= 10
    with tab(chromium) as page:
        page.goto(invite(created, 0))
        page.wait(LIVE)
        check_drawn(page, views, last, last)
        page.page.click("[data-act=history-prev]")
        check_drawn(page, views, last - 1, last)
        assert page.action_buttons() == ["history-back"]
        page.page.click("[data-act=history-prev]")
        check_drawn(page, views, last - 2, last)
        page.page.click("[data-act=history-next]")
        check_drawn(page, views, last - 1, last)
        page.page.click("[data-act=history-first]")
        check_drawn(page, views, 0, last)
        page.page.click("[data-act=history-next]")
        check_drawn(page, views, 1, last)
        page.page.keyboard.press("ArrowRight")
        check_drawn(page, views, 2, last)
        page.page.keyboard.press("ArrowLeft")
        check_drawn(page, views, 1, last)
        page.page.click("[data-act=history-last]")
        check_drawn(page, views, last, last)
        assert page.dataset("history") == "false"
        # Since my last move: the position right after seat 0's latest move.
        mine = max(seq for seq, seat in played.seats.items() if seat == 0)
        page.page.click("[data-act=history-mine]")
        check_drawn(page, views, mine, last)
        page.shot(screenshots / f"history-{title}-desktop.png", full_page=False)
        # The previous round: back to where this round began (the round label of the
        # spectator's view changes right there), or to the round before from its first move.
        labels = {seq: view_round_label(v) for seq, v in played.spectator.items()}
        assert len(set(labels.values())) > 1, labels
        begins = sorted(seq for seq in labels if seq == 0 or labels[seq - 1] != labels[seq])
        if mine < last:
            page.page.click("[data-act=history-last]")
            at(page, last, last)
        here = last
        for _ in range(2):
            page.page.click("[data-act=history-round]")
            expected = max(b for b in begins if b < here) if here in begins else max(b for b in begins if b <= here)
            check_drawn(page, views, expected, last)
            here = expected
            if here == 0:
                break
        # Replay: the moves one by one from the set-up, until paused.
        page.page.click("[data-act=history-first]")
        at(page, 0, last)
        page.page.click("[data-act=history-replay]")
        page.wait("Number(document.body.dataset.viewSeq) >= 2")
        page.page.click("[data-act=history-replay]")
        assert page.page.inner_text("[data-act=history-replay]") == "Replay ▶"
        paused = int(page.dataset("viewSeq") or -1)
        check_drawn(page, views, paused, last)
        page.page.click("[data-act=history-last]")
        at(page, last, last)
        assert page.errors == []
    # A link opens that position, for a spectator too, who sees the spectator's view of then.
    mid = last // 2
    with tab(chromium, PHONE) as page:
        page.goto(f"{web_stack.url}/?seq={mid}#table={created['table']}")
        page.wait(LIVE)
        check_drawn(page, played.spectator, mid, last)
        assert page.page.is_hidden("[data-act=history-mine]")  # a spectator has no moves of its own
        page.page.click("[data-act=history-next]")
        check_drawn(page, played.spectator, mid + 1, last)
        page.shot(screenshots / f"history-{title}-phone.png", full_page=False)
        assert page.errors == []


# --- turn notices in the page -------------------------------------------------------------------

# Makes the tab's visibility settable by the test (a headless tab is always "visible") and
# notes every notification the page raises, through the browser's real Notification API.
HIDDEN_TAB = """
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => !!window.__hidden });
Object.defineProperty(Document.prototype, "visibilityState", { configurable: true,
  get: () => (window.__hidden ? "hidden" : "visible") });
window.__notes = [];
const RealNotification = window.Notification;
window.Notification = class extends RealNotification {
  constructor(title, options) { super(title, options); window.__notes.push({ title, body: options?.body ?? "" }); }
};
"""


def act_first_legal(base: str, created: dict[str, Any], seat: int) -> int:
    token = created["seats"][seat]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    status, legal = http("GET", f"{base}/api/tables/{created['table']}/legal", headers=headers)
    assert status == 200 and legal["active"], legal
    body = {"expected_seq": legal["seq"], "idempotency_key": uuid.uuid4().hex, "action": concrete(legal["actions"][-1])}
    status, reply = http("POST", f"{base}/api/tables/{created['table']}/actions", body, headers)
    assert status == 201, reply
    return reply["seq"]


def test_a_hidden_tab_gets_a_notice_on_its_turn(web_stack: Stack, chromium: Any) -> None:
    created = create(web_stack.url, "chicago-express", ["Ada", "Brunel"])
    context = chromium.new_context(viewport=DESKTOP, permissions=["notifications"])
    try:
        context.add_init_script(HIDDEN_TAB)
        page = Tab(context.new_page())
        page.goto(invite(created, 0))
        page.wait(LIVE)
        assert "Turn notices on" in page.page.inner_text("[data-testid=notify]")
        seq = act_first_legal(web_stack.url, created, 0)  # Ada acts while looking: Brunel's turn
        page.wait_seq(seq)
        page.page.evaluate("window.__hidden = true")
        while True:  # Brunel plays until it is Ada's turn again
            status, detail = http("GET", f"{web_stack.url}/api/tables/{created['table']}")
            if 0 in detail["active_seats"]:
                break
            seq = act_first_legal(web_stack.url, created, detail["active_seats"][0])
        page.wait(f"document.body.dataset.notifiedSeq === '{seq}'")
        assert page.page.evaluate("window.__notes") == [{"title": "Your turn — Chicago Express", "body": "It is your move at the table."}]
        assert page.page.title().startswith("(Your turn)")
        # Looking at the page, the next turn brings no notice (the tab title still says it).
        page.page.evaluate("window.__hidden = false")
        seq = act_first_legal(web_stack.url, created, 0)
        while True:
            status, detail = http("GET", f"{web_stack.url}/api/tables/{created['table']}")
            if 0 in detail["active_seats"]:
                break
            seq = act_first_legal(web_stack.url, created, detail["active_seats"][0])
        page.wait(f"document.body.dataset.seq === '{seq}' && document.body.dataset.myTurn === 'true'")
        assert len(page.page.evaluate("window.__notes")) == 1
        assert page.errors == []
    finally:
        context.close()
