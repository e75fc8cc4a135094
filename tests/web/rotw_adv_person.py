"""The scripted person the advanced-game page test builds on: reads only the page, builds and
delivers by what the map and the action panel offer (the standard game's person, as it was
when the advanced page test was written; `rotw_person.py` has grown standard-game tactics)."""

from __future__ import annotations

import random
import re

from shared.games.rotw_england_wales import hexgrid

from tests.web.pages import Tab
from tests.web.rotw_route import choose_route, confirm, option_hexes

READY = "document.body.dataset.ready === 'true' || document.body.dataset.over === 'true'"


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
        first = option_hexes(self.page, "pick-deliver")[0]
        self._pick_hex(first)
        self._click("[data-testid=deliveries] button[data-act=deliver]", "deliver")

    def _build(self) -> None:
        cities = self.cities()
        targets = [cell(h) for h in self.targets()]
        layable = {cell(h) for h in option_hexes(self.page, "pick-lay_track")}
        targets = [t for t in targets if t in layable]

        def near(h: tuple[int, int]) -> int:
            return sum(1 for n in hexgrid.neighbours("pointy-odd-r", *h) if n in cities)

        # A hex between two cities can finish a link; else continue open track; else start anew.
        best = [t for t in targets if near(t) >= 2] or [t for t in targets if near(t) == 0] or targets
        hex_id = "{},{}".format(*self.rng.choice(best))
        self._pick_hex(hex_id)
        here = cell(hex_id)
        nbrs = hexgrid.neighbours("pointy-odd-r", *here)

        def score(entry: int, exit_: int) -> float:
            out = nbrs[exit_]
            if out in cities and nbrs[entry] not in cities or (out in cities and nbrs[entry] != out):
                return -100 + self.rng.random()
            return min((hexgrid.distance("pointy-odd-r", out, c) for c in cities if c != nbrs[entry]), default=99) + self.rng.random()

        choose_route(self.page, hex_id, score, self.rng)
        confirm(self.page)
        self.clicks["lay"] = self.clicks.get("lay", 0) + 1
