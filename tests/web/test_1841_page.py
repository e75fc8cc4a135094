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
