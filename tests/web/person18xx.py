"""What the scripted people of the 18xx pages share: taking one turn through the page."""

from __future__ import annotations

from collections import Counter, deque

from tests.web.pages import Tab

ACTIONS = "[data-testid=actions]"
TURN_OR_OVER = ("document.body.dataset.over === 'true' || "
                "(document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true')")
# Buttons that act on the panel, not the game: picking, rotating, the train being edited, an
# amount's steppers, undo.
NOT_MOVES = ("undo", "pick-hex", "pick-tile", "rotate", "rotate-back", "cancel-lay", "pick-train", "best-run",
             "clear-train", "stop", "close-rules", "less", "more")


class PagePerson:
    """A person at an 18xx page; a title's person supplies `move` (one decision through the
    page, returning its name) and sets `last` to what it clicked."""

    page: Tab
    did: Counter[str]
    refused: set[tuple[int, str]]
    last: str
    previous = ""  # the name of the person's last move
    # the last moves (what the panel said, what was pressed), for a failure's message
    trail: deque[str]

    def over(self) -> bool:
        return self.page.dataset("over") == "true"

    def move(self) -> str:
        raise NotImplementedError

    def has(self, selector: str) -> bool:
        return (self.page.seq(), selector) not in self.refused and self.page.page.locator(selector).count() > 0

    def tap(self, selector: str) -> None:
        self.last = selector
        # `click` scrolls the element into view and, unlike an explicit scroll first, finds it
        # again when the panel is redrawn meanwhile
        self.page.page.locator(selector).first.click()

    def buttons(self) -> list[tuple[str, int]]:
        """(text, index) of every enabled move button in the action panel, programs left out."""
        found = self.page.page.eval_on_selector_all(f"{ACTIONS} button", """els => els.map((e, i) => [e.textContent, i,
            !e.disabled && !e.closest('details') && !e.closest('[data-testid=history]'), e.dataset.act || ''])""")
        seq = self.page.seq()
        return [(text, i) for text, i, usable, act in found
                if usable and act not in NOT_MOVES and (seq, text) not in self.refused]

    def press(self, index: int) -> None:
        el = self.page.page.locator(f"{ACTIONS} button").nth(index)
        self.last = el.inner_text()
        el.click()  # (scrolls it into view itself, and finds it again if the panel was redrawn)

    def take_turn(self, timeout_ms: int) -> None:
        """One move (counted by its name), then wait until the game moved on or the page showed
        the rules' refusal (the person then tries something else next time)."""
        seq = self.page.seq()
        prompts = self.page.page.locator(f"{ACTIONS} [data-testid=prompt]")
        prompt = prompts.first.inner_text() if prompts.count() else ""
        what = self.move()
        self.did[what] += 1
        self.previous = what
        if not hasattr(self, "trail"):
            self.trail = deque(maxlen=12)
        self.trail.append(f"seq {seq} {what}: {self.last!r} at {prompt!r}")
        moved = f"Number(document.body.dataset.seq) > {seq} || document.body.dataset.over === 'true'"
        try:
            self.page.wait(f"{moved} || !!document.querySelector('[data-testid=refusal]')", timeout_ms=timeout_ms)
        except Exception as exc:
            raise AssertionError(f"after {what!r} at seq {seq} nothing happened; the panel: "
                                 f"{self.page.page.inner_text(ACTIONS)!r}") from exc
        if not self.page.page.evaluate(moved):
            self.refused.add((seq, self.last))
            self.did["refused"] += 1
            self.trail.append(f"seq {seq} refused: {self.page.page.inner_text('[data-testid=refusal]')!r}")
