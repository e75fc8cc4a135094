"""1841 on the 18xx page (`services/web/app/core18xx/`), in real headless Chromium against a real
`roundhouse dev` (issues 18 and 21).

- The page's 1841 data is generated from the title's entities.json.
- Geometry: for the tiles, tokens and standing region borders of a real imported game, what the
  page draws is where the engine's board says, computed here from the map's hex layout and axes
  (`core18xx.board.hexgrid`), independently of the page's code.
- A person (tests/web/g1841_person.py) plays a seat against two bots through the page only: a
  concession bid, a corporation founded at a par it picks, a tile laid in a rotation it turned
  to, a station, a run and a dividend, a train bought; at every one of its decisions the page's
  turn line agrees with the API's /legal; at both sizes, with screenshots in test-artifacts/1841/.
"""

from __future__ import annotations

import json
import math
import time
import uuid
from typing import Any

import pytest

from shared.engine import served_view
from shared.games.core18xx.board import hexgrid

from services.offline.import_18xx import import_export
from tests.dev.devproc import REPO, http
from tests.exports import export_paths
from tests.web.entities18xx import entities_js, path
from tests.web.geometry18xx import check_tokens, check_tracks
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, tab
from tests.web.test_18xx_page import Stack18, detail, drawn, invite, stack, table_at  # noqa: F401  (stack: a fixture)

# `stack` is that module's fixture: pytest passes it to the tests below by name (hence noqa F811).

EXPORTS = export_paths("1841")
SIZES = {"desktop": DESKTOP, "phone": PHONE}
SHOTS = REPO / "test-artifacts" / "1841"
ROOT3 = math.sqrt(3)


def shot(page: Tab, name: str, size: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.shot(SHOTS / f"{name}-{size}.png", full_page=False)


def test_the_pages_1841_data_is_generated_from_entities_json() -> None:
    assert path("g1841").read_text() == entities_js("g1841"), "run `python -m tests.web.entities18xx` to regenerate it"


# --- geometry ---------------------------------------------------------------------------------

def centre(coord: str, axes: str, size: float) -> tuple[float, float]:
    """A flat-topped hex's centre from its coordinate (columns 1.5 R apart, rows √3 R)."""
    x, y = hexgrid.xy(coord, axes)
    return x * 1.5 * size, y * ROOT3 / 2 * size


def edge_mid(coord: str, edge: int, size: float, axes: str) -> tuple[float, float]:
    """Half-way to the neighbour across the edge, by the engine's grid."""
    (ax, ay), (bx, by) = centre(coord, axes, size), centre(hexgrid.neighbour(coord, edge, "flat", axes), axes, size)  # type: ignore[arg-type]
    return (ax + bx) / 2, (ay + by) / 2


def borders_drawn(page: Tab) -> list[dict[str, Any]]:
    return page.page.eval_on_selector_all("[data-testid=map] line.border.region", """els => els.map(e => ({hex: e.dataset.hex,
        edge: Number(e.dataset.edge), x1: Number(e.getAttribute('x1')), y1: Number(e.getAttribute('y1')),
        x2: Number(e.getAttribute('x2')), y2: Number(e.getAttribute('y2'))}))""")


def check_geometry(board: dict[str, Any], seen: dict[str, Any], borders: list[dict[str, Any]]) -> tuple[int, int, int]:
    size, axes = seen["size"], board["axes"]
    assert seen["layout"] == board["layout"] == "flat" and axes == "number-x"
    ends = check_tracks(board, seen["tracks"], lambda hx: centre(hx["hex"], axes, size),
                        lambda hx, edge: edge_mid(hx["hex"], edge, size, axes), size)
    tokens = check_tokens(board, seen["tokens"], lambda hx: centre(hx["hex"], axes, size), size)
    # Each standing border is drawn on the side the two hexes share: its ends are the two
    # corners common to both (each a hex radius from both centres).
    want_borders = {(c, int(e)) for c, e in board.get("closed", [])}
    assert {(b["hex"], b["edge"]) for b in borders} == want_borders
    for b in borders:
        a = centre(b["hex"], axes, size)
        other = centre(hexgrid.neighbour(b["hex"], b["edge"], "flat", axes), axes, size)
        for px, py in ((b["x1"], b["y1"]), (b["x2"], b["y2"])):
            for qx, qy in (a, other):
                assert abs(math.hypot(px - qx, py - qy) - size) < 0.05, b
    return ends, tokens, len(borders)


@pytest.mark.skipif(not EXPORTS, reason="1841 exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("position", ["end", "mid"])
def test_track_tokens_and_borders_are_drawn_where_the_engines_board_has_them(position: str, stack: Stack18, chromium: Any) -> None:  # noqa: F811
    run = import_export(json.loads(max(EXPORTS, key=lambda p: p.stat().st_size).read_text()))
    entries = len(run.entries) if position == "end" else len(run.entries) // 3
    at = table_at(stack, run, entries)
    board = served_view(at["engine"], at["state"], None)["board"]
    with tab(chromium, DESKTOP) as page:
        page.goto(invite(stack, at["table"], None))
        page.wait(LIVE, timeout_ms=20_000)
        ends, tokens, borders = check_geometry(board, drawn(page), borders_drawn(page))
        # (borders open as the phases go on: late in the game only a few still stand)
        assert ends > 50 and tokens > 5 and borders > 0, (ends, tokens, borders)
        shot(page, f"imported-{position}", "desktop")
        assert page.errors == []


# --- a person plays 1841 against bots through the page ---------------------------------------

GOALS = {"bid", "par", "lay-rotated", "run", "dividend", "train"}


def legal_of(site: Stack18, table: str, token: str) -> dict[str, Any]:
    status, body = http("GET", f"{site.url}/api/tables/{table}/legal", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, body
    return body


@pytest.mark.parametrize("size", list(SIZES))
def test_a_person_plays_1841_against_bots_through_the_page(size: str, stack: Stack18, chromium: Any) -> None:  # noqa: F811
    from tests.web.g1841_person import Person

    status, created = http("POST", f"{stack.url}/api/tables", {"title": "1841", "seats": [
        {"name": "Ada"}, {"name": "Bot A", "kind": "bot", "level": "random"},
        {"name": "Bot B", "kind": "bot", "level": "random"}]})
    assert status == 201, created
    table, token = created["table"], created["seats"][0]["token"]
    with tab(chromium, SIZES[size]) as page:
        agreed = 0

        def check() -> None:
            # The page says it is my turn exactly when the API's /legal does, at this seq.
            nonlocal agreed
            legal = legal_of(stack, table, token)
            if legal["seq"] != page.seq():
                return    # a bot moved meanwhile: the next decision checks again
            assert legal["active"] and legal["actions"], legal
            assert page.page.inner_text("[data-testid=turn]").startswith("Your turn"), page.page.inner_text("[data-testid=turn]")
            agreed += 1

        shots: set[str] = set()

        def snap(name: str) -> None:
            if name not in shots:
                shots.add(name)
                shot(page, name, size)

        started = time.perf_counter()
        page.goto(created["seats"][0]["invite_url"])
        page.wait(LIVE, timeout_ms=20_000)
        person = Person(page, check, snap)
        did = person.play_until(GOALS, max_moves=300)
        took = time.perf_counter() - started
        info = detail(stack, table)
        print(f"1841 through the page ({size}): {dict(did)} in {took:.0f}s, seq {info['last_seq']}, chose {person.chosen}, "
              f"turn line checked {agreed} times; last moves: {list(person.trail)}")
        assert GOALS <= set(did), (dict(did), person.chosen, list(person.trail))
        assert agreed >= 5
        # Waiting for a bot: the page names it, and /legal says this seat is not to act.
        legal = legal_of(stack, table, token)
        if not legal["active"] and legal["seq"] == page.seq():
            assert page.page.inner_text("[data-testid=actions]").startswith("Waiting for")
        shot(page, "after-goals", size)
        page.page.locator("[data-testid=charters]").scroll_into_view_if_needed()
        shot(page, "charters", size)
        page.page.locator("[data-testid=log]").scroll_into_view_if_needed()
        shot(page, "log", size)
        assert page.errors == []


# --- a lone bid, the bid's field, the map's key, the layout ---------------------------------------

READY = "document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'"
# The action panel's box and the map's scrolling box on screen: they must not overlap.
BOXES = """() => { const r = (q) => { const b = document.querySelector(q).getBoundingClientRect();
  return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height}; };
  return {actions: r('[data-testid=actions]'), map: r('.m18xx [data-scroll=map]')}; }"""


def api_act(stack: Stack18, table: str, token: str, pick: Any) -> None:  # noqa: F811
    """Send, as the seat of `token`, the action `pick` makes of its legal entries."""
    legal = legal_of(stack, table, token)
    assert legal["active"], legal
    action = pick(legal["actions"])
    body = {"expected_seq": legal["seq"], "idempotency_key": uuid.uuid4().hex, "action": action}
    status, reply = http("POST", f"{stack.url}/api/tables/{table}/actions", body, {"Authorization": f"Bearer {token}"})
    assert status == 201, reply


def passing(actions: list[dict[str, Any]]) -> dict[str, Any]:
    return next(dict(e["action"]) for e in actions if e["action"]["type"] == "pass")


def bidding(concession: str, price: int) -> Any:
    return lambda actions: next({**e["action"], "price": price} for e in actions
                                if e["action"]["type"] == "bid" and e["action"]["company"] == concession)


def overlap(boxes: dict[str, Any]) -> float:
    a, m = boxes["actions"], boxes["map"]
    return max(0.0, min(a["bottom"], m["bottom"]) - max(a["top"], m["top"])) if a["left"] < m["right"] and m["left"] < a["right"] else 0.0


@pytest.mark.parametrize("size", list(SIZES))
def test_a_lone_bid_is_explained_the_bid_field_is_tappable_and_the_map_has_a_key(size: str, stack: Stack18, chromium: Any) -> None:  # noqa: F811
    """Ben and Cy spend most of their cash on Bayard and SFTC; Ada then nominates SFLP for L.200,
    which neither can outbid: the page says why she is asked again and what passing does, and
    her pass leaves SFLP unsold. The bid is typed in one field (large enough for a thumb on a
    phone, its range in money) and each button says the amount it bids; on a desktop the action
    panel never lies over the map; the map's key opens from the map's tool bar."""
    status, created = http("POST", f"{stack.url}/api/tables", {"title": "1841", "seats": [{"name": "Ada"}, {"name": "Ben"}, {"name": "Cy"}]})
    assert status == 201, created
    table, (ada, ben, cy) = created["table"], [s["token"] for s in created["seats"]]
    api_act(stack, table, ada, passing)
    api_act(stack, table, ben, bidding("Bayard", 1000))
    api_act(stack, table, cy, passing)       # drops out of Bayard
    api_act(stack, table, ada, passing)      # drops out: Ben buys Bayard for L.1000
    api_act(stack, table, cy, bidding("SFTC", 1000))
    api_act(stack, table, ada, passing)      # drops out: Cy buys SFTC (Ben cannot bid)
    with tab(chromium, SIZES[size]) as page:
        p = page.page
        page.goto(created["seats"][0]["invite_url"])
        page.wait(LIVE, timeout_ms=20_000)
        page.wait(READY)
        # One amount field for every concession, its range in money, each button saying the amount.
        assert p.locator("[data-testid=actions] [data-testid=amount]").count() == 1
        assert p.inner_text("[data-testid=bids] [data-testid=range]") == "min L.20 · max L.1120"
        field = p.locator("[data-testid=bids] [data-testid=amount]")
        field.fill("200")
        labels = p.eval_on_selector_all("[data-testid=bids] button[data-act=bid]", "els => els.map(e => e.textContent)")
        assert len(labels) == 6 and all(t.startswith("Bid L.200 on the ") for t in labels), labels
        if size == "phone":
            for q in ("[data-testid=bids] [data-testid=amount]", "[data-testid=bids] [data-act=more]", "[data-testid=bids] [data-act=bid]"):
                box = p.locator(q).first.bounding_box()
                assert box and box["height"] >= 44 and box["width"] >= 44, (q, box)
        shot(page, "nominate-field", size)
        seq = page.seq()
        p.locator("[data-testid=bids] button[data-act=bid]", has_text="on the SFLP concession").click()
        page.wait_seq(seq + 1)
        page.wait(READY)
        prompt = p.inner_text("[data-testid=prompt]")
        assert "No one else can afford to bid on SFLP: bid again to raise your own bid, or pass to withdraw it and leave SFLP unsold." in prompt, prompt
        assert "Auction of the SFLP concession: Ada L.200." in prompt, prompt
        assert p.inner_text("[data-testid=bids] [data-testid=range]") == "min L.205 · max L.1120"
        assert p.inner_text("[data-testid=bids] button[data-act=bid]").startswith("Bid L.205 on the SFLP concession")
        assert "No one else can afford to outbid Ada on SFLP" in p.inner_text("[data-testid=position]")
        p.locator("[data-testid=prompt]").scroll_into_view_if_needed()
        shot(page, "lone-bid", size)
        withdraw = p.locator("[data-testid=actions] button[data-act=pass]")
        assert withdraw.inner_text() == "Pass: withdraw my bid, SFLP stays unsold"
        withdraw.click()
        page.wait_seq(seq + 2)
        page.wait(READY)
        assert "SFLP" in p.inner_text("[data-testid=position]").split("still for sale")[0]
        assert "SFLP" not in p.inner_text("[data-testid=players] tr.me")
        # The map's key, from the map's own tool bar; on a phone (whose map is taller than its
        # screen) also from under the map, where the tool bar is out of sight.
        assert p.locator("[data-testid=map-key-toggle]").is_visible()
        opener = "[data-testid=map-key-below]" if size == "phone" else "[data-testid=map-key-toggle]"
        p.locator(opener).scroll_into_view_if_needed()
        if size == "phone":
            assert not p.locator("[data-testid=map-key-toggle]").evaluate("el => el.getBoundingClientRect().bottom > 0")
        p.click(opener)
        key = p.inner_text("[data-testid=map-key]")
        for words in ("Solid black line: track", "Red dashed hex side: a region border", "Thick dark hex side: impassable",
                      "▲ and an amount: a mountain", "a reserved home", "a mountain pass", "Firenze (Q11)"):
            assert words in key, (words, key)
        box = p.locator("[data-testid=map-key]").bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size]["height"] + 1, box   # wholly in sight
        shot(page, "map-key", size)
        p.click("[data-testid=map-key-close]")
        assert p.locator("[data-testid=map-key]").is_hidden()
        if size == "desktop":
            # The decision and the map side by side in one column: never one over the other,
            # however the page is scrolled.
            for y in (0, 300, 2000):
                p.evaluate(f"window.scrollTo(0, {y})")
                boxes = p.evaluate(BOXES)
                assert overlap(boxes) == 0 and boxes["map"]["height"] > 300, (y, boxes)
            shot(page, "layout", size)
        assert page.errors == []
