"""A person at the Railways of England and Wales table page, for the browser tests.

It reads only what the page shows (the action panel's buttons and lists, the map's
highlighted hexes and city marks, the route and delivery buttons' words, its own row of the
players table) and acts by clicking or by keyboard, as a player would. The policy is simple
and productive, so a game ends: deliver when a delivery is offered (through its own links
first), else build towards the nearest city, borrow when short, now and then take a card,
bid or upgrade. Choices come from a seeded RNG so a failing game can be replayed.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from shared.games.rotw_england_wales import hexgrid

from tests.web.pages import Tab
from tests.web.rotw_route import choose_route, confirm, option_hexes

READY = "document.body.dataset.ready === 'true' || document.body.dataset.over === 'true'"
ACTS = "[data-testid=actions]"
LAYOUT = "pointy-odd-r"


def cell(hex_id: str) -> tuple[int, int]:
    c, r = hex_id.split(",")
    return int(c), int(r)



class RotwPerson:
    """Plays one seat by reading the page: its buttons, lists and the map's marks."""

    def __init__(self, page: Tab, seed: int, name: str, path_shot: Path | None = None) -> None:
        self.path_shot = path_shot  # where to save a picture of the first deliveries drawn on the map
        self.tab = page
        self.page = page.page
        self.rng = random.Random(seed)
        self.name = name
        self.moves = 0
        self.clicks: dict[str, int] = {}

    # --- reading the page -------------------------------------------------------------------
    def wait_my_turn(self, timeout_ms: int = 60_000) -> bool:
        """True when it is this seat's turn and the panel is ready; False once the game is over."""
        # Ready, and the panel drawn from this seq's legal actions (a button other than undo).
        self.tab.wait(f"({READY} && document.body.dataset.myTurn === 'true' && document.querySelector("
                      f"'{ACTS} button[data-act]:not([disabled]):not([data-act=undo])') !== null)"
                      " || document.body.dataset.over === 'true'", timeout_ms)
        return self.tab.dataset("over") != "true"

    def buttons(self) -> list[str]:
        return self.tab.action_buttons()

    def texts(self, selector: str) -> list[str]:
        return self.page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")

    def cities(self) -> set[tuple[int, int]]:
        return {cell(h) for h in self.page.eval_on_selector_all("svg.map [data-city]", "els => els.map(e => e.dataset.city)")}

    def my_cash(self) -> int:
        text = self.page.inner_text("[data-testid=player].me td:nth-child(2)")
        return int(re.sub(r"[^\d]", "", text) or 0)

    def my_shares(self) -> int:
        return int(self.page.inner_text("[data-testid=player].me td:nth-child(3)") or 0)

    def my_engine(self) -> int:
        return int(self.page.inner_text("[data-testid=player].me td:nth-child(4)") or 0)

    def targets(self) -> list[str]:
        return self.page.eval_on_selector_all("svg.map .hex.target", "els => els.map(e => e.dataset.hex)")

    def barons_shown(self) -> list[str]:
        """Every baron card the page names (data-baron), wherever it is drawn."""
        return self.page.eval_on_selector_all("[data-baron]", "els => els.map(e => e.dataset.baron).filter(b => b)")

    # --- acting -----------------------------------------------------------------------------
    def _click(self, selector: str, kind: str, nth: int = 0) -> None:
        self.page.locator(selector).nth(nth).click()
        self.clicks[kind] = self.clicks.get(kind, 0) + 1

    def _act(self, kind: str) -> None:
        self._click(f"{ACTS} button[data-act={kind}]", kind)

    def act(self) -> None:
        """One decision; returns once the table moved on or the move was refused (shown)."""
        seq = self.tab.seq()
        acts = [a for a in self.buttons() if a != "undo"]
        if not acts or self.tab.dataset("myTurn") != "true" or self.tab.dataset("ready") != "true":
            return  # redrawn since the wait (the options reloading): the caller waits again
        # Decided on this one reading of the panel: a click waits for its button to be enabled.
        self._decide(acts)
        self.moves += 1
        self.tab.wait(f"Number(document.body.dataset.seq) > {seq} || document.querySelector('[data-testid=refusal]') !== null", 20_000)

    def _decide(self, acts: list[str]) -> None:
        phase = self.tab.dataset("phase")
        rng = self.rng
        if "choose_baron" in acts:
            n = self.page.locator(f"{ACTS} button[data-act=choose_baron]").count()
            return self._click(f"{ACTS} button[data-act=choose_baron]", "baron", rng.randrange(n))
        if phase == "inspect":
            return self._act("inspect" if "inspect" in acts and rng.random() < 0.5 else "allow")
        if phase == "auction":
            # Now and then the opening bid (the amount field starts at the minimum).
            return self._act("bid" if "bid" in acts and rng.random() < 0.25 else "pass")
        can_deliver = self.page.locator("[data-testid=pick-deliver]").count() > 0
        can_build = self.page.locator("[data-testid=pick-lay_track]").count() > 0
        if phase == "build":
            if can_build and not self._built_enough():
                return self._build()
            if "end_build" in acts:
                return self._act("end_build")
        best = self._best_delivery() if can_deliver else None
        if best and best[0] > 0:
            return self._deliver(best)  # moves this seat up the track
        can_take = "take_card" in acts or self.page.locator("[data-testid=pick-growth]").count() > 0
        if can_take and rng.random() < 0.15:
            return self._take_card()
        # A bigger engine reaches more cities: deliveries (and so the end) come sooner.
        if "upgrade_engine" in acts and rng.random() < (0.35 if self.my_engine() < 3 else 0.05):
            return self._act("upgrade_engine")
        # Shares pay for what cash does not (the page says how many); borrow a little only.
        if can_build and (self.my_cash() >= 4000 or self.my_shares() < 4) and (best is None or rng.random() < 0.5):
            return self._build()
        if best:
            return self._deliver(best)
        for kind in ("end_build", "upgrade_engine", "pass"):
            if kind in acts:
                return self._act(kind)
        raise AssertionError(f"nothing the person knows to click: {acts} in {phase}: {self.page.inner_text(ACTS)}")

    def _built_enough(self) -> bool:
        text = self.page.inner_text(f"{ACTS} .prompt")
        m = re.search(r"\((\d) of 4 tiles", text)
        return bool(m and int(m.group(1)) >= 3 and self.rng.random() < 0.5)

    def _pick_hex(self, hex_id: str) -> None:
        """Pick a highlighted hex: by a click on the map, or by keyboard (focus, Enter)."""
        hexel = self.page.locator(f'svg.map .hex.target[data-hex="{hex_id}"]').first
        if self.rng.random() < 0.5:
            # A person scrolls the hex to the middle of the screen (clear of the sticky action panel).
            hexel.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
            hexel.click()
        else:
            hexel.focus()
            hexel.press("Enter")
        self.clicks["hex"] = self.clicks.get("hex", 0) + 1
        self.tab.wait(f"document.querySelector('svg.map .hex.picked[data-hex=\"{hex_id}\"]') !== null", 5_000)

    def _best_delivery(self) -> tuple[int, str, int]:
        """Look at a few places' deliveries: (links of this seat used, place, button index) of the best."""
        places = option_hexes(self.page, "pick-deliver")
        best: tuple[int, str, int] | None = None
        for hex_id in self.rng.sample(places, min(3, len(places))):
            self._pick_hex(hex_id)
            options = self.texts("[data-testid=deliveries] button[data-act=deliver]")
            assert options, f"no delivery offered at {hex_id}"
            # Each delivery offered is drawn on the map as a path in its cube's colour.
            drawn = self.page.eval_on_selector_all("svg.map path.delivery-path", "els => els.map(e => e.dataset.color)")
            assert sorted(drawn) == sorted(o.split(" cube:")[0] for o in options), (drawn, options)
            if self.path_shot and len(options) > 1:
                self.page.locator("svg.map path.delivery-path").first.scroll_into_view_if_needed()
                self.tab.shot(self.path_shot, full_page=False)
                self.path_shot = None
            for i, text in enumerate(options):
                owners = re.search(r"\(([^()]*)\)$", text)
                mine = owners.group(1).split(", ").count(self.name) if owners else 0
                if best is None or mine > best[0]:
                    best = (mine, hex_id, i)
        assert best is not None
        return best

    def _deliver(self, best: tuple[int, str, int]) -> None:
        if self.page.locator(f'svg.map .hex.picked[data-hex="{best[1]}"]').count() == 0:
            self._pick_hex(best[1])
        self._click("[data-testid=deliveries] button[data-act=deliver]", "deliver", best[2])

    def _take_card(self) -> None:
        """A card from the display; City growth asks for its city first (then its button shows)."""
        growth = self.page.locator("[data-testid=pick-growth]")
        n = self.page.locator(f"{ACTS} button[data-act=take_card]").count()
        if growth.count() and (n == 0 or self.rng.random() < 0.5):
            values = growth.first.locator("option:not([disabled])").evaluate_all("els => els.map(e => e.value)")
            growth.first.select_option(self.rng.choice(values))
            self.clicks["growth"] = self.clicks.get("growth", 0) + 1
            button = f"{ACTS} button[data-act=take_card]:has-text('City growth')"
            self.tab.wait(f"[...document.querySelectorAll('{ACTS} button[data-act=take_card]')].some(b => b.textContent.includes('City growth'))", 5_000)
            return self._click(button, "take_card")
        return self._click(f"{ACTS} button[data-act=take_card]", "take_card", self.rng.randrange(n))

    def _build(self) -> None:
        cities = self.cities()
        layable = {cell(h) for h in option_hexes(self.page, "pick-lay_track")}
        targets = [cell(h) for h in self.targets() if cell(h) in layable]

        def near(h: tuple[int, int]) -> int:
            return sum(1 for n in hexgrid.neighbours(LAYOUT, *h) if n in cities)

        # A hex between two cities can finish a link; else continue open track; else start anew.
        best = [t for t in targets if near(t) >= 2] or [t for t in targets if near(t) == 0] or targets
        hex_id = "{},{}".format(*self.rng.choice(best))
        self._pick_hex(hex_id)
        nbrs = hexgrid.neighbours(LAYOUT, *cell(hex_id))

        def score(entry: int, exit_: int) -> float:
            out = nbrs[exit_]
            if out in cities and nbrs[entry] != out:
                return -100 + self.rng.random()  # completes a link
            return min((hexgrid.distance(LAYOUT, out, c) for c in cities if c != nbrs[entry]), default=99) + self.rng.random()

        choose_route(self.page, hex_id, score, self.rng)
        confirm(self.page)
        self.clicks["lay"] = self.clicks.get("lay", 0) + 1
