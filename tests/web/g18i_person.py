"""A scripted person playing an 18Ireland seat through the 18xx page only: it reads the
buttons and texts the page draws (never the engine's data or the API) and taps them.

Its habits: in the private auction it buys or bids once, then passes; in stock rounds it
bids to start a minor when the page offers one at no more than £115 (a minor's opening bid
is £100: a bidding war would leave it no money for trains), else passes; operating its companies it lays the
first tile the page lists on the first hex it lists, places tokens, runs the run the page
previews (after the engine has counted it), pays out and buys one train when offered (not a
second in a row, which would empty the company for the next forced purchase); in mergers it
passes and votes for. Whatever else the page asks, it takes the first button.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from tests.web.pages import Tab
from tests.web.person18xx import ACTIONS, TURN_OR_OVER, PagePerson


class Person(PagePerson):
    def __init__(self, page: Tab) -> None:
        self.page = page
        self.did: Counter[str] = Counter()
        self.bid_once = False
        self.refused: set[tuple[int, str]] = set()
        self.last = ""

    def play(self, max_moves: int = 2000, timeout_ms: int = 120_000) -> Counter[str]:
        for _ in range(max_moves):
            self.page.wait(TURN_OR_OVER, timeout_ms=timeout_ms)
            if self.over():
                return self.did
            self.take_turn(timeout_ms)
        raise AssertionError(f"no end after {max_moves} moves of the person: {self.did}; the last: {list(self.trail)}")

    # --- one decision, through the page ------------------------------------------------------

    def move(self) -> str:
        p = self.page.page
        if self.has(f"{ACTIONS} [data-testid=routes]"):
            p.wait_for_function("(() => { const v = document.querySelector('[data-testid=run-verdict]');"
                                " return v && !v.textContent.startsWith('Checking'); })()")
            if p.get_attribute("[data-testid=run-verdict]", "data-legal") == "true":
                self.tap(f"{ACTIONS} [data-testid=routes] button[data-act=run_routes]")
                return "run"
        if self.has(f"{ACTIONS} [data-testid=lay] [data-act=pick-hex]") and not self.has(f"{ACTIONS} [data-act=buy_train]"):
            self.tap(f"{ACTIONS} [data-testid=lay] [data-act=pick-hex]")
            if self.has(f"{ACTIONS} [data-testid=lay] [data-act=pick-tile]"):
                self.tap(f"{ACTIONS} [data-testid=lay] [data-act=pick-tile]")
                p.wait_for_selector(f"{ACTIONS} [data-testid=lay] [data-act=lay_tile]")
                self.tap(f"{ACTIONS} [data-testid=lay] [data-act=lay_tile]")
                return "lay"
            self.tap(f"{ACTIONS} [data-act=cancel-lay]")
        if self.has(f"{ACTIONS} [data-testid=token] [data-act=place_token]"):
            self.tap(f"{ACTIONS} [data-testid=token] [data-act=place_token]")
            return "token"
        buttons = self.buttons()
        for pattern, what in PREFERENCES:
            if what == "bid-once" and self.bid_once:
                continue
            if what == "train" and self.previous == "train":
                continue
            for text, index in buttons:
                if re.search(pattern, text) and not (what == "minor" and money(text) > MINOR_TOP):
                    if what == "bid-once":
                        self.bid_once = True
                    self.press(index)
                    return what
        if not buttons:
            raise AssertionError(f"the page offers no move: {p.inner_text(ACTIONS)}")
        self.press(buttons[0][1])
        return "other"


MINOR_TOP = 115


def money(text: str) -> int:
    found = re.search(r"£(\d+)", text)
    if found is None:
        raise AssertionError(f"a bid button without its price: {text!r}")
    return int(found.group(1))


# What the person picks among the buttons, in this order (the first that matches).
PREFERENCES: list[tuple[str, str]] = [
    (r"^Pay out", "dividend"),
    (r"^Buy a \S+ train", "train"),
    (r"to start minor", "minor"),
    (r"^Vote for", "vote"),
    (r"^Buy [A-Z]+ for", "bid-once"),
    (r"^Bid .* on [A-Z]+ ·", "bid-once"),
    (r"^Done: put the merger", "merge-done"),
    (r"^Pass$", "pass"),
    (r"^Run no trains", "run"),
    (r"^Withhold", "dividend"),
]


def result_rows(page: Tab) -> list[Any]:
    return page.page.eval_on_selector_all("[data-testid=result] .ranking li",
                                          "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.rank), e.querySelector('strong').textContent])")
