"""Railways of England and Wales's table page (services/web/app/rotw/), in real Chromium.

A scripted person reads only what the page shows (buttons, the hex list, the map's city
marks, the route buttons' words) and clicks: baron, auction, building on the map, deliveries,
shares. The bot seat is played by the real bot worker of `roundhouse dev` (or, without it,
by tests/web/bot_seats.py, which says so). A RotW game runs to hundreds of decisions: the
person plays its first 30 moves through the page (a whole game through the page, and the
result screen, are not tested yet).
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from shared.games.rotw_england_wales import hexgrid
from tests.dev.devproc import REPO, http
from tests.web.bot_seats import BotSeats
from tests.web.conftest import Stack
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, tab

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
TITLE = "rotw-england-wales"
READY = "document.body.dataset.ready === 'true' || document.body.dataset.over === 'true'"
EDGES = ["east", "north-west", "north-east", "west", "south-west", "south-east"]
MAP_JSON = REPO / "shared" / "games" / "rotw_england_wales" / "map.json"
MAP_JS = REPO / "services" / "web" / "app" / "rotw" / "mapdata.js"


def terrain_rows() -> list[str]:
    m = json.loads(MAP_JSON.read_text())
    code = {"plain": "p", "mountain": "m", "water": "w", "mountain_water": "x", "sea": "s"}
    cols = max(h["col"] for h in m["hexes"]) + 1
    rows = max(h["row"] for h in m["hexes"]) + 1
    grid = [["s"] * cols for _ in range(rows)]
    for h in m["hexes"]:
        grid[h["row"]][h["col"]] = code[h["terrain"]]
    return ["".join(r) for r in grid]


def test_map_data_matches_map_json() -> None:
    """The page draws terrain and barriers from mapdata.js (the view does not carry them)."""
    text = MAP_JS.read_text()
    terrain = json.loads(re.search(r"export const TERRAIN = (\[.*?\]);", text, re.S).group(1))  # type: ignore[union-attr]
    assert terrain == terrain_rows()
    barriers = json.loads(re.search(r"export const BARRIERS = (\[.*?\]);\n", text, re.S).group(1))  # type: ignore[union-attr]
    m = json.loads(MAP_JSON.read_text())
    assert barriers == [x["between"] for x in m["barriers"]]
    assert json.loads(re.search(r"export const LAYOUT = (\".*?\");", text).group(1)) == m["layout"]  # type: ignore[union-attr]


def create(base: str, names: list[str], bots: dict[int, str]) -> dict[str, Any]:
    seats = [{"name": n, "kind": "bot", "level": bots[i]} if i in bots else {"name": n} for i, n in enumerate(names)]
    status, body = http("POST", f"{base}/api/tables", {"title": TITLE, "seats": seats})
    assert status == 201, body
    return body


def cell(hex_id: str) -> tuple[int, int]:
    c, r = hex_id.split(",")
    return int(c), int(r)


class RotwPerson:
    """Plays one seat by reading the page: its buttons, lists and the map's marks."""

    def __init__(self, page: Tab, seed: int) -> None:
        self.tab = page
        self.page = page.page
        self.rng = random.Random(seed)
        self.moves = 0
        self.clicks: dict[str, int] = {}

    def _click(self, selector: str, kind: str) -> None:
        self.page.locator(selector).first.click()
        self.clicks[kind] = self.clicks.get(kind, 0) + 1

    def wait_my_turn(self, timeout_ms: int = 60_000) -> bool:
        """True when it is this seat's turn and the panel is ready; False once the game is over."""
        # Ready, and the panel drawn from this seq's legal actions (a button other than undo).
        self.tab.wait(f"({READY} && document.body.dataset.myTurn === 'true' && document.querySelector("
                      "'[data-testid=actions] button[data-act]:not([disabled]):not([data-act=undo])') !== null)"
                      " || document.body.dataset.over === 'true'", timeout_ms)
        return self.tab.dataset("over") != "true"

    def buttons(self) -> list[str]:
        return self.tab.action_buttons()

    def cities(self) -> set[tuple[int, int]]:
        return {cell(h) for h in self.page.eval_on_selector_all("svg.map [data-city]", "els => els.map(e => e.dataset.city)")}

    def my_cash(self) -> int:
        text = self.page.inner_text("[data-testid=player].me td:nth-child(2)")
        return int(re.sub(r"[^\d]", "", text) or 0)

    def targets(self) -> list[str]:
        return self.page.eval_on_selector_all("svg.map .hex.target", "els => els.map(e => e.dataset.hex)")

    def act(self) -> None:
        seq = self.tab.seq()
        if not self.buttons() or self.tab.dataset("myTurn") != "true":
            # Redrawn since the wait (an update arrived while this seat's move was on its way).
            return
        self._decide()
        self.moves += 1
        # The move lands (a new seq) or is refused (shown, the page ready again).
        self.tab.wait(f"Number(document.body.dataset.seq) > {seq} || document.querySelector('[data-testid=refusal]') !== null", 20_000)

    def _decide(self) -> None:
        acts = self.buttons()
        phase = self.tab.dataset("phase")
        if "choose_baron" in acts:
            return self._click("[data-testid=actions] button[data-act=choose_baron]", "baron")
        if phase == "inspect" and "allow" in acts:
            return self._click("[data-testid=actions] button[data-act=allow]", "allow")
        if phase == "auction":
            return self._click("[data-testid=actions] button[data-act=pass]", "pass")
        if self.page.locator("[data-testid=pick-deliver]").count():
            return self._deliver()
        if self.page.locator("[data-testid=pick-lay_track]").count():
            if self.my_cash() < 6000 and "issue_share" in acts and phase == "action":
                return self._click("[data-testid=actions] button[data-act=issue_share]", "share")
            if phase == "build" and self.page.locator("[data-testid=player].me").count() and self._built_enough():
                return self._click("[data-testid=actions] button[data-act=end_build]", "end_build")
            return self._build()
        if "end_build" in acts:
            return self._click("[data-testid=actions] button[data-act=end_build]", "end_build")
        if "issue_share" in acts and phase == "action" and self.my_cash() < 6000:
            return self._click("[data-testid=actions] button[data-act=issue_share]", "share")
        for kind in ("upgrade_engine", "pass"):
            if kind in acts:
                return self._click(f"[data-testid=actions] button[data-act={kind}]", kind)
        raise AssertionError(f"nothing the person knows to click: {acts} in {phase}: {self.page.inner_text('[data-testid=actions]')}")

    def _built_enough(self) -> bool:
        # A build stops once a link was completed this build (the prompt counts tiles).
        text = self.page.inner_text("[data-testid=actions] .prompt")
        m = re.search(r"\((\d) of 4 tiles", text)
        return bool(m and int(m.group(1)) >= 3 and self.rng.random() < 0.5)

    def _pick_hex(self, hex_id: str) -> None:
        """Click the hex on the map (the page scrolls and zooms; Playwright scrolls it into view)."""
        # By keyboard (each highlighted hex is focusable; Enter picks it, as a click does).
        hexel = self.page.locator(f'svg.map .hex.target[data-hex="{hex_id}"]').first
        hexel.focus()
        hexel.press("Enter")
        self.clicks["hex"] = self.clicks.get("hex", 0) + 1
        self.tab.wait(f"document.querySelector('svg.map .hex.picked[data-hex=\"{hex_id}\"]') !== null", 5_000)

    def _deliver(self) -> None:
        options = self.page.eval_on_selector_all("[data-testid=pick-deliver] option:not([disabled])", "els => els.map(e => e.textContent)")
        first = re.search(r"\((\d+,\d+)\)$", options[0]).group(1)  # type: ignore[union-attr]
        self._pick_hex(first)
        self._click("[data-testid=deliveries] button[data-act=deliver]", "deliver")

    def _build(self) -> None:
        cities = self.cities()
        targets = [cell(h) for h in self.targets()]
        layable = {cell(re.search(r"\((\d+,\d+)\)$", t).group(1)) for t in  # type: ignore[union-attr]
                   self.page.eval_on_selector_all("[data-testid=pick-lay_track] option:not([disabled])", "els => els.map(e => e.textContent)")}
        targets = [t for t in targets if t in layable]

        def near(h: tuple[int, int]) -> int:
            return sum(1 for n in hexgrid.neighbours("pointy-odd-r", *h) if n in cities)

        # A hex between two cities can finish a link; else continue open track; else start anew.
        best = [t for t in targets if near(t) >= 2] or [t for t in targets if near(t) == 0] or targets
        hex_id = "%d,%d" % self.rng.choice(best)
        self._pick_hex(hex_id)
        routes = self.page.eval_on_selector_all("[data-testid=routes] button", "els => els.map(e => e.textContent)")
        assert routes, f"no route offered at {hex_id}"
        here = cell(hex_id)
        nbrs = hexgrid.neighbours("pointy-odd-r", *here)

        def score(text: str) -> float:
            m = re.match(r"In from the (.+), out to the (.+)$", text)
            assert m, text
            entry, exit_ = EDGES.index(m.group(1)), EDGES.index(m.group(2))
            out = nbrs[exit_]
            if out in cities and nbrs[entry] not in cities or (out in cities and nbrs[entry] != out):
                return -100 + self.rng.random()
            return min((hexgrid.distance("pointy-odd-r", out, c) for c in cities if c != nbrs[entry]), default=99) + self.rng.random()

        pick = min(range(len(routes)), key=lambda i: score(routes[i]))
        self.page.locator("[data-testid=routes] button").nth(pick).click()
        self.clicks["lay"] = self.clicks.get("lay", 0) + 1


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_person_plays_rotw_against_a_bot_through_the_page(
    size: str, web_stack: Stack, chromium: Any, bot_seats: BotSeats, screenshots: Path
) -> None:
    created = create(web_stack.url, ["Ada", "Robo"], {1: "heuristic"})
    table = created["table"]
    bot_seats.play(table, seed=11)
    print(f"bot seat played by {bot_seats.who}")
    with tab(chromium, VIEWPORTS[size]) as page, tab(chromium, VIEWPORTS[size]) as spectator:
        page.goto(created["seats"][0]["invite_url"])
        page.wait(LIVE)
        assert page.dataset("pageModule") == "rotw/page.js", "the page module did not load"
        spectator.goto(f"{web_stack.url}/#table={table}")
        spectator.wait(LIVE)
        # The map: every city with its colour, and goods cubes drawn in them.
        view_cities = page.page.eval_on_selector_all("svg.map [data-city]", "els => els.length")
        assert view_cities >= 30, view_cities
        assert page.page.locator("svg.map [data-city] rect.cube").count() >= 30
        assert page.page.locator("svg.map .hex.t-m").count() > 0 and page.page.locator("svg.map line.barrier").count() > 0

        person = RotwPerson(page, seed=5 if size == "desktop" else 6)
        # The baron: two to choose from, shown to this seat only.
        assert person.wait_my_turn()
        draw = page.page.inner_text("[data-testid=baron-draw]")
        assert "keep one" in draw
        while page.page.locator("[data-testid=baron]").count() == 0:
            person.act()
            try:
                page.wait("document.querySelector('[data-testid=baron]') !== null || document.body.dataset.myTurn === 'true'", 30_000)
            except Exception:
                page.shot(screenshots / "rotw-debug.png")
                raise AssertionError(page.page.inner_text("main") if page.page.locator("main").count() else page.page.inner_text("body")[:3000])
        baron = page.page.get_attribute("[data-testid=baron]", "data-baron")
        assert baron
        assert "Spectators do not see" in spectator.page.inner_text(".baron-box")
        assert spectator.page.locator("[data-baron]").count() == 0
        spectator_view = spectator.page.evaluate("document.querySelector('.baron-box').textContent")
        assert "Baron" not in spectator_view and "baron" not in spectator_view.replace("any baron card", "")

        shot = False
        deadline = time.monotonic() + 120  # a share of the game through the page, not all of it
        while person.moves < 30 and time.monotonic() < deadline and person.wait_my_turn():
            if not shot and person.moves >= 10 and person.targets():
                page.shot(screenshots / f"rotw-table-{size}.png", full_page=False)
                spectator.shot(screenshots / f"rotw-spectator-{size}.png", full_page=False)
                shot = True
            person.act()
        print(f"person moves through the page: {person.moves} {person.clicks}")
        assert person.moves >= 25, person.clicks
        # Map picks led to track laid or goods delivered (which, depends on how the game goes).
        assert person.clicks.get("hex", 0) >= 5, person.clicks
        assert person.clicks.get("lay", 0) + person.clicks.get("deliver", 0) >= 3, person.clicks
        assert page.page.locator("svg.map path.track").count() > 0, "the track built is drawn"
        assert not bot_seats.errors, bot_seats.errors
        assert page.errors == [] and spectator.errors == []
