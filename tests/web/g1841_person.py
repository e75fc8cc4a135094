"""A scripted person playing a 1841 seat through the 18xx page only: it reads the buttons and
texts the page draws (never the engine's data or the API) and taps them.

Its habits: in the concession auction it nominates or raises until it holds one concession of
a corporation, Tuscan ones first (their homes lie a 2-train's run from Firenze, Pisa or
Livorno), never Bayard's (income only) nor Piedmont's SFTC and SFTN (Cuneo and Torino need
several tile lays before a 2-train has two stops), never above L.150, and not one on which its
bid stood alone (no one else could afford to bid), then drops out or passes. In stock rounds,
holding no concession, it buys one left unsold; it founds the corporation of its concession at
a par it picks (the offered par nearest L.100), else passes; operating its
corporation it lays a tile on the first hex the page lists, turned once when more than one
rotation is legal (checking the preview on the map), places stations by tapping their slot,
runs the run the page previews, pays out, and buys a train when offered. Whatever else the page
asks (an event's question, a founding's station purchase), it takes the first button.

`check` is called at every decision of the person's (the test compares the page's turn line
with the API's /legal there)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from tests.web.pages import Tab
from tests.web.person18xx import ACTIONS, TURN_OR_OVER, PagePerson

MAX_BID = 150
PAR_WANTED = 100
KEEP_FOR_PAR = 4 * PAR_WANTED   # up to 40 % of a corporation at the par it wants
TUSCAN = ("SFLP", "SSFL", "SFMA")
FAR = {"Bayard", "SFTC", "SFTN"}    # concessions it never takes (see above)


class Person(PagePerson):
    def __init__(self, page: Tab, check: Callable[[], None] = lambda: None,
                 snap: Callable[[str], None] = lambda _name: None) -> None:
        self.page = page
        self.check = check
        self.snap = snap
        self.did: Counter[str] = Counter()
        self.refused: set[tuple[int, str]] = set()
        self.last = ""
        self.concession = False
        self.hopeless: set[str] = set(FAR)     # concessions it will not bid on
        self.founded: str | None = None
        self.chosen: dict[str, object] = {}


    def play_until(self, goals: set[str], max_moves: int = 400, timeout_ms: int = 120_000) -> Counter[str]:
        """Play until the person has done each of `goals` (the names `move` returns) or the game ends."""
        for _ in range(max_moves):
            if goals <= set(self.did):
                return self.did
            self.page.wait(TURN_OR_OVER, timeout_ms=timeout_ms)
            if self.over():
                return self.did
            self.check()
            self.take_turn(timeout_ms)
        return self.did

    # --- reading and tapping --------------------------------------------------------------

    def first(self, pattern: str) -> int | None:
        return next((i for text, i in self.buttons() if re.search(pattern, text)), None)

    # --- one decision -----------------------------------------------------------------------

    def move(self) -> str:
        p = self.page.page
        prompt = p.inner_text(f"{ACTIONS} [data-testid=prompt]") if p.locator(f"{ACTIONS} [data-testid=prompt]").count() else ""
        if self.has(f"{ACTIONS} [data-testid=routes]"):
            p.wait_for_function("(() => { const v = document.querySelector('[data-testid=run-verdict]');"
                                " return v && !v.textContent.startsWith('Checking'); })()")
            if p.get_attribute("[data-testid=run-verdict]", "data-legal") == "true" and \
                    p.locator(f"{ACTIONS} [data-testid=routes] button[data-act=run_routes]").is_enabled():
                self.snap("run")
                self.tap(f"{ACTIONS} [data-testid=routes] button[data-act=run_routes]")
                return "run"
        if self.has(f"{ACTIONS} [data-testid=lay] [data-act=pick-hex]"):
            return self.lay()
        if self.has(f"{ACTIONS} [data-testid=token] [data-act=place_token]"):
            target = p.locator("svg circle.target[data-target*='#']").first
            self.snap("token")
            if target.count():
                self.last = "token target"
                target.evaluate("el => el.scrollIntoView({block: 'center', inline: 'center'})")
                target.click()
            else:
                self.tap(f"{ACTIONS} [data-testid=token] [data-act=place_token]")
            return "home-token" if "home station" in prompt else "token"
        if re.search(r"Concession auction|concession is up for auction|Auction of the \S+ concession", prompt):
            return self.auction(prompt)
        pay = self.first(r"^Pay out")
        if pay is not None:
            self.snap("dividend")
            self.press(pay)
            return "dividend"
        train = self.first(r"^Buy a \S+ train")
        if train is not None:
            self.snap("train")
            self.press(train)
            return "train"
        if not self.founded and not self.holds_concession():
            buy = next((i for text, i in self.buttons()
                        if (c := re.match(r"^Buy the (\S+) concession", text)) and c.group(1) not in FAR), None)
            if buy is not None:
                self.press(buy)
                return "concession"
        if not self.founded:
            par = self.pick_par()
            if par is not None:
                text, index = par
                self.snap("par")
                self.chosen["par"] = text
                self.founded = re.search(r"Start (\S+)", text).group(1)   # type: ignore[union-attr]
                self.press(index)
                return "par"
        for pattern in (r"^Pass$", r"^Lay no", r"^Place no", r"^Buy no", r"^Trade no", r"^Do not", r"^Run no trains",
                        r"^Withhold"):
            i = self.first(pattern)
            if i is not None:
                self.press(i)
                return "pass"
        buttons = self.buttons()
        if not buttons:
            raise AssertionError(f"the page offers no move: {p.inner_text(ACTIONS)}")
        self.snap("other")
        self.press(buttons[0][1])
        return "other"

    def auction(self, prompt: str) -> str:
        p = self.page.page
        self.concession = self.holds_concession()
        # Asked again while the only bid on the concession up is mine: no one else can afford a
        # bid, so raising my own bid only costs me; I pass (it stays unsold) and leave it be.
        alone = re.search(r"No one else can afford to bid on (\S+)[:,]", prompt)
        if alone:
            self.hopeless.add(alone.group(1))
        bids = sorted(((on.group(1) not in TUSCAN, text, i) for text, i in self.buttons()
                       if (on := re.search(r"L\.\d+ on the (\S+) concession", text)) and on.group(1) not in self.hopeless))
        if not self.concession and not alone and bids:
            _, text, index = bids[0]
            price = int(re.search(r"L\.(\d+)", text).group(1))   # type: ignore[union-attr]
            # A Tuscan concession is worth more to a person who holds none: random bots bid up
            # to all their cash and may buy every concession first, leaving nothing to found.
            # It keeps enough for its president's certificate at the par it wants.
            cash = re.search(r"You have L\.(\d+)", prompt)
            limit = MAX_BID if bids[0][0] or not cash else max(MAX_BID, int(cash.group(1)) - KEEP_FOR_PAR)
            if price <= limit:
                self.snap("auction")
                self.chosen.setdefault("bid", text)
                self.press(index)
                return "bid"
        i = self.first(r"^Pass$|^Pass: withdraw|^Drop out")
        assert i is not None, p.inner_text(ACTIONS)
        self.press(i)
        return "pass"

    def holds_concession(self) -> bool:
        # my row of the players' table lists the concessions I hold (Bayard's pays income only)
        held = self.page.page.locator("[data-testid=players] tr.me .holding.private").all_inner_texts()
        return any(c != "Bayard" for c in held)

    def pick_par(self) -> tuple[str, int] | None:
        """The 'Start X at L.p a share' button for the person's own founding nearest L.100."""
        pars = [(text, i) for text, i in self.buttons() if re.match(r"^Start \S+ at L\.\d+ a share", text)]
        if not pars:
            return None
        return min(pars, key=lambda t: abs(int(re.search(r"L\.(\d+)", t[0]).group(1)) - PAR_WANTED))  # type: ignore[union-attr]

    def lay(self) -> str:
        p = self.page.page
        # Each hex offered by its place name with its coordinate beside it, "Firenze (Q11)", or
        # (a hex without a name) its coordinate first, "Q12 (south of Firenze)".
        offered = p.eval_on_selector_all(f"{ACTIONS} [data-testid=lay] [data-act=pick-hex]",
                                         "els => els.map(e => [e.dataset.testid.slice(4), e.textContent])")
        for hex_id, text in offered:
            assert re.fullmatch(rf"[^()]+ \({hex_id}\)|{hex_id} \([^()]+\)", text), (hex_id, text)
        self.tap(f"{ACTIONS} [data-testid=lay] [data-act=pick-hex]")
        if not self.has(f"{ACTIONS} [data-testid=lay] [data-act=pick-tile]"):
            self.tap(f"{ACTIONS} [data-act=cancel-lay]")
            i = self.first(r"^Lay no")
            assert i is not None
            self.press(i)
            return "pass"
        self.tap(f"{ACTIONS} [data-testid=lay] [data-act=pick-tile]")
        p.wait_for_selector(f"{ACTIONS} [data-testid=lay] [data-act=lay_tile]")
        label = p.inner_text("[data-testid=rotation]")
        legal = int(re.search(r"of (\d+)", label).group(1))   # type: ignore[union-attr]
        if legal > 1:
            p.click(f"{ACTIONS} [data-testid=lay] [data-act=rotate]")
            assert p.inner_text("[data-testid=rotation]").startswith("rotation 2 of")
        hex_id = p.evaluate("() => document.querySelector('[data-testid=map] circle.target.picked')?.dataset.target ?? null")
        preview = p.evaluate(f"""() => [...document.querySelectorAll('[data-testid=map] g.hex.preview[data-hex="{hex_id}"] path.track')].length""")
        assert preview, "the chosen tile is drawn on the map before it is sent"
        self.snap("lay-preview")
        self.tap(f"{ACTIONS} [data-testid=lay] [data-act=lay_tile]")
        if legal > 1:
            self.chosen["rotated_lay"] = hex_id
            return "lay-rotated"
        return "lay"
