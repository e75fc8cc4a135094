"""A person at the table page: looks at what the page offers and clicks it, like a player.

It reads only what is on screen (the action panel's enabled buttons, the highlighted hexes
of the map, the page's `data-*` state) and acts by clicking; choices come from a seeded RNG
so a failing game can be replayed.
"""

from __future__ import annotations

import random
import time
from typing import Any

TURN_OR_END = """() => !!document.querySelector('[data-testid=result]')
  || (document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true')"""
OFFERED = """els => els.map(e => ({act: e.dataset.act, company: e.dataset.company || null}))"""


class Person:
    def __init__(self, page: Any, seed: int, turn_timeout_ms: int = 30_000) -> None:
        self.page = page
        self.rng = random.Random(seed)
        self.turn_timeout_ms = turn_timeout_ms
        self.moves = 0
        self.clicks: dict[str, int] = {}

    # --- reading the page -------------------------------------------------------------------
    def seq(self) -> int:
        return int(self.page.evaluate("document.body.dataset.seq"))

    def offered(self) -> list[dict[str, Any]]:
        return self.page.eval_on_selector_all("[data-testid=actions] button[data-act]:not([disabled])", OFFERED)

    def targets(self) -> list[str]:
        return self.page.eval_on_selector_all("svg.map .hex.target", "els => els.map(e => e.dataset.hex)")

    def game_over(self) -> bool:
        return self.page.locator("[data-testid=result]").count() > 0

    def wait_my_turn(self) -> bool:
        """True when it is this seat's turn (and the page ready for it), False once the game is over."""
        self.page.wait_for_function(TURN_OR_END, timeout=self.turn_timeout_ms)
        return not self.game_over()

    # --- acting -----------------------------------------------------------------------------
    def click(self, act: str, company: str | None = None) -> None:
        selector = f'[data-testid=actions] button[data-act="{act}"]'
        if company:
            selector += f'[data-company="{company}"]'
        self.page.locator(selector).first.click()
        self.clicks[act] = self.clicks.get(act, 0) + 1

    def click_hex(self, hex_id: str) -> None:
        self.page.locator(f'svg.map .hex.target[data-hex="{hex_id}"]').click()
        self.clicks["hex"] = self.clicks.get("hex", 0) + 1

    def take_turn(self) -> None:
        """One decision: clicks until an action was sent and the table moved on (or was refused)."""
        before = self.seq()
        for _ in range(6):  # picking a company first is a click that sends nothing
            if self._decide():
                break
        else:
            raise AssertionError(f"no action could be sent at seq {before}: offered {self.offered()}")
        self.page.wait_for_function(
            f"() => Number(document.body.dataset.seq) > {before} || !!document.querySelector('[data-testid=refusal]')",
            timeout=self.turn_timeout_ms,
        )
        self.moves += 1

    def _decide(self) -> bool:
        """Click one thing; True when that click sent an action."""
        offered = self.offered()
        acts = {o["act"] for o in offered}
        rng = self.rng
        if "bid" in acts:
            if rng.random() < 0.35:
                if "more" in acts and rng.random() < 0.5:
                    self.click("more")
                self.click("bid")
            else:
                self.click("pass")
            return True
        chooses = [a for a in acts if a.startswith("choose-")]
        if chooses:
            weights = {"choose-build": 5, "choose-develop": 3, "choose-auction": 2}
            pick = rng.choices(sorted(chooses), weights=[weights.get(c, 1) for c in sorted(chooses)])[0]
            self.click(pick)
            return True
        if "offer-pass" in acts and ("offer" not in acts or rng.random() < 0.2):
            self.click("offer-pass")  # put the share up without bidding
            return True
        if "offer" in acts:
            self.click("offer")
            return True
        if "offer-company" in acts:
            if rng.random() < 0.25 and "forgo" in acts:
                self.click("forgo")
                return True
            companies = [o["company"] for o in offered if o["act"] == "offer-company"]
            self.click("offer-company", rng.choice(companies))
            return False
        targets = self.targets()
        if "build-company" in acts and not targets:
            companies = [o["company"] for o in offered if o["act"] == "build-company"]
            self.click("build-company", rng.choice(companies))
            return False
        if "done" in acts and (not targets or rng.random() < 0.3):
            self.click("done")
            return True
        if targets:
            self.click_hex(rng.choice(sorted(targets)))
            return True
        for act in ("forgo", "pass", "done"):
            if act in acts:
                self.click(act)
                return True
        return False

    def play_to_end(self, max_moves: int = 400, deadline_s: float = 240.0) -> None:
        started = time.monotonic()
        while self.wait_my_turn():
            assert self.moves < max_moves, f"still playing after {self.moves} moves"
            assert time.monotonic() - started < deadline_s, f"game not over after {deadline_s} s"
            self.take_turn()
