"""Railways of England and Wales's advanced share game (table option `game=advanced`) through
the table page, in real Chromium.

A person creates the table in the lobby (choosing "advanced" in the options form) against two
bots, then plays it by reading the page only: the shares on offer and the opening bid, bids,
the company's turns (building by clicking hexes on the map, deliveries as paths), bonds, the
dividend (the seed's table: the price each amount leads to), mergers and the secret vote, to
the final money ranking. The bot seats are played by the bot worker of `roundhouse dev` (or,
without it, by tests/web/bot_seats.py, which says so).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.bot_seats import BotSeats
from tests.web.conftest import Stack
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, tab, table_detail
from tests.web.rotw_adv_person import RotwPerson

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
# A whole game is ~100 decisions for the person; past this the test stops at a round's end
# and says so (a slow, shared machine), having checked everything up to there.
WHOLE_GAME_BUDGET_S = 420
MONEY = re.compile(r"\$([\d,]+)")


def money(text: str) -> int:
    m = MONEY.search(text)
    assert m, text
    return int(m.group(1).replace(",", ""))


def create_advanced_in_lobby(page: Tab, base: str, bots: int = 2) -> str:
    """The lobby: Railways of England and Wales, the advanced game, Ada and `bots` bots."""
    page.goto(f"{base}/")
    page.wait("document.body.dataset.titles !== undefined")
    page.page.select_option("#title", "rotw-england-wales")
    page.page.select_option("#players", str(bots + 1))
    page.page.fill("[data-testid=seat-name-0]", "Ada")
    for seat in range(1, bots + 1):
        page.page.select_option(f"[data-testid=seat-kind-{seat}]", "bot")
        page.page.select_option(f"[data-testid=seat-level-{seat}]", "heuristic")
    page.page.click("[data-testid=options] summary")
    help_text = page.page.inner_text("[data-option=game]")
    assert "advanced" in help_text and "share game" in help_text, help_text
    page.page.select_option("[data-testid=option-game]", label="advanced")
    page.page.click("[data-testid=create]")
    page.page.wait_for_selector("[data-testid=play-0]")
    href = page.page.get_attribute("[data-testid=play-0]", "href")
    assert href and "token=" in href
    page.page.click("[data-testid=play-0]")
    page.wait(f"document.body.dataset.page === 'table' && {LIVE}")
    return page.table_and_token()[0]


class SharePerson(RotwPerson):
    """Plays the advanced game by what the page offers; building and delivering as RotwPerson."""

    def __init__(self, page: Tab, seed: int, shot_dir: Path | None = None, size: str = "") -> None:
        super().__init__(page, seed)
        self.shot_dir = shot_dir
        self.size = size
        self.phases: dict[str, int] = {}
        self.company_turns = 0
        self.before_link: tuple[str | None, str] | None = None

    def _decide(self) -> None:
        acts = self.buttons()
        if not acts:  # redrawn between the wait and now (a view of the same seq): wait for the panel again
            self.wait_my_turn()
            acts = self.buttons()
        phase = self.tab.dataset("phase") or ""
        self.phases[phase] = self.phases.get(phase, 0) + 1
        rng = self.rng
        if phase in ("company_turn", "company_build"):
            self.company_turns += phase == "company_turn"
            prompt = self.page.inner_text("[data-testid=actions] .prompt")
            assert re.search(r"(turn [123] of 3|building)", prompt), prompt
        if "vote" in acts:
            return self._click(f"[data-testid=vote-{'yes' if rng.random() < 0.6 else 'no'}]", "vote")
        if "pick-share" in acts:
            if "pass" in acts and self._content(phase):
                return self._click("[data-testid=actions] button[data-act=pass]", "pass-auction")
            picks = self.page.locator("[data-testid=actions] button[data-act=pick-share]")
            picks.nth(rng.randrange(picks.count())).click()
            self.page.wait_for_selector("[data-testid=actions] button[data-act=start_auction]:not([disabled])")
            label = self.page.inner_text("[data-testid=actions] button[data-act=start_auction]")
            assert label.startswith("Auction a ") and "opening at $" in label, label
            return self._click("[data-testid=actions] button[data-act=start_auction]", "start_auction")
        if "bid" in acts:
            if rng.random() < 0.4:
                return self._click("[data-testid=actions] button[data-act=bid]", "bid")
            return self._click("[data-testid=actions] button[data-act=pass]", "drop-out")
        if "pay_dividend" in acts:
            return self._dividend()
        if "repay_bonds" in acts:
            if "more" in acts and rng.random() < 0.5:
                self._click("[data-testid=actions] button[data-act=more]", "more")
            return self._click("[data-testid=actions] button[data-act=repay_bonds]", "repay")
        if "propose_merger" in acts:
            if rng.random() < 0.5:
                return self._click("[data-testid=actions] button[data-act=propose_merger]", "propose")
            return self._click("[data-testid=actions] button[data-act=pass]", "no-merger")
        if self.page.locator("[data-testid=pick-deliver]").count() and rng.random() < 0.8:
            return self._deliver()
        if self.page.locator("[data-testid=take-back-link]").count():
            # A link is being laid: the page says what finishing costs and what taking it back
            # returns. Once in the game, take it back and see the company as before the link.
            text = self.page.inner_text("[data-testid=actions] .prompt")
            assert re.search(r"Finish this link to a city: at least \$[\d,]+ more|can no longer reach a city", text), text
            assert re.search(r"Or take it back: .*\$[\d,]+ is refunded", text), text
            if not self.clicks.get("take-back") and rng.random() < 0.5:
                return self._take_back()
        elif "end_build" in acts and (rng.random() < 0.6 or not self.page.locator("[data-testid=pick-lay_track]").count()):
            return self._click("[data-testid=actions] button[data-act=end_build]", "end_build")
        if self.page.locator("[data-testid=pick-lay_track]").count() and (phase == "company_build" or rng.random() < 0.85):
            return self._build()
        if "pass" in acts:
            return self._click("[data-testid=actions] button[data-act=pass]", "pass")
        raise AssertionError(f"nothing the person knows to click: {acts} in {phase}: {self.page.inner_text('[data-testid=actions]')}")

    def _take_back(self) -> None:
        """Take the open link back: the company's cash and shares on its card are as before its
        first tile (the state the page showed then)."""
        company = self.page.get_attribute("[data-testid=actions] .prompt [data-company]", "data-company")
        seq = self.tab.seq()
        self._click("[data-testid=take-back-link]", "take-back")
        self.tab.wait(f"Number(document.body.dataset.seq) > {seq}", 20_000)
        after = self.page.inner_text(f"[data-testid=company-{company}]")
        assert self.before_link is not None and after == self.before_link[1], (self.before_link, after)
        self.before_link = None

    def _build(self) -> None:
        # The company's card as it was before a link's first tile, to compare with a take-back.
        if not self.page.locator("[data-testid=take-back-link]").count():
            company = self.page.get_attribute("[data-testid=actions] .prompt [data-company]", "data-company")
            self.before_link = (company, self.page.inner_text(f"[data-testid=company-{company}]"))
        super()._build()

    def _pick_hex(self, hex_id: str) -> None:
        """After a hex is picked, its routes or deliveries are in sight (in the action panel,
        docked at the bottom of a phone's screen)."""
        super()._pick_hex(hex_id)
        choices = self.page.locator("[data-testid=actions] [data-testid=routes], [data-testid=actions] [data-testid=route-entries], "
                                    "[data-testid=actions] [data-testid=deliveries]").first
        box = choices.bounding_box()
        height = self.page.evaluate("window.innerHeight")
        assert box and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= height, f"the choices for {hex_id} are out of sight: {box}"
        if self.shot_dir is not None and not self.clicks.get("picked-shot"):
            self.tab.shot(self.shot_dir / f"rotw-adv-picked-{self.size}.png", full_page=False)
            self.clicks["picked-shot"] = 1

    def _content(self, phase: str) -> bool:
        """Enough shares for now: in the opening, once it has put a share up and controls a
        company (★ in the players table), when short of cash or at random; later, at random."""
        if phase != "opening_auction":
            return self.rng.random() < 0.45
        controls = self.page.locator("[data-testid=player].me td[data-company]", has_text="★").count()
        opened = self.clicks.get("start_auction", 0) > 0
        return opened and controls > 0 and (self.my_cash() < 8000 or self.rng.random() < 0.3)

    def _dividend(self) -> None:
        """A row of the seed's table: each button says the per-share part and the new price."""
        presets = self.page.locator("[data-testid=dividend-preset]")
        labels = [presets.nth(i).inner_text() for i in range(presets.count())]
        assert labels and labels[0].startswith("Pay $0:") and "(-2)" in labels[0], labels
        for text in labels:
            m = re.search(r"price \$([\d,]+) → \$([\d,]+) \(([+-]?\d+)\)", text)
            assert m, text
            before, after, move = (int(m.group(i).replace(",", "")) for i in (1, 2, 3))
            assert after == max(1000, before + move * 1000), text
        rising = [i for i, t in enumerate(labels) if re.search(r"\(\+\d+\)$", t)]
        pick = self.rng.choice(rising) if rising and self.rng.random() < 0.8 else self.rng.randrange(len(labels))
        presets.nth(pick).click()
        self.clicks["dividend"] = self.clicks.get("dividend", 0) + 1


def check_vote_secrecy(page: Tab) -> None:
    """While a vote runs, the page shows only who has voted (and the seat's own vote)."""
    if not page.page.locator("[data-testid=voters]").count():
        return
    for line in page.page.eval_on_selector_all("[data-testid=voters] li", "els => els.map(e => e.textContent)"):
        assert re.search(r": (has voted|not yet|you voted (yes|no))$", line), line


def check_result(page: Tab) -> list[str]:
    """The final ranking: every total is cash + the shares' worth shown beside it, best first."""
    page.page.wait_for_selector("[data-testid=rotw-result]")
    rows = page.page.locator("[data-testid=rotw-result] li.final")
    totals = []
    names = []
    for i in range(rows.count()):
        row = rows.nth(i)
        cash = money(row.locator("[data-field=cash]").inner_text())
        parts = row.locator(".share-worth")
        worth = 0
        for j in range(parts.count()):
            text = parts.nth(j).inner_text()
            m = re.search(r"(\d+) × \(\$([\d,]+) − \$([\d,]+)\) = \$([\d,]+)", text)
            assert m, text
            k, price, bonds, value = (int(m.group(x).replace(",", "")) for x in (1, 2, 3, 4))
            assert value == k * max(0, price - bonds), text
            worth += value
        total = money(row.locator("[data-field=total]").inner_text())
        assert total == cash + worth, row.inner_text()
        totals.append(total)
        names.append(row.locator(".who").inner_text())
    assert len(totals) == 3 and totals == sorted(totals, reverse=True), totals
    # The players table's "Worth" (cash + shares × (price − bonds)) is the final money.
    worths = {page.page.inner_text(f"[data-testid=player][data-seat='{s}'] th").split("(you)")[0].strip(" ▶★"):
              money(page.page.inner_text(f"[data-testid=player][data-seat='{s}'] [data-field=worth]")) for s in range(3)}
    assert {n: t for n, t in zip(names, totals)} == worths, (names, totals, worths)
    assert re.search(r"\bwins?\b", page.page.inner_text("[data-testid=rotw-result] .winner"))
    return names


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_person_plays_the_advanced_share_game_through_the_page(
    size: str, web_stack: Stack, chromium: Any, bot_seats: BotSeats, screenshots: Path
) -> None:
    started = time.monotonic()
    with tab(chromium, VIEWPORTS[size]) as page, tab(chromium, VIEWPORTS[size]) as spectator:
        table = create_advanced_in_lobby(page, web_stack.url)
        spectator.goto(f"{web_stack.url}/#table={table}")
        spectator.wait(LIVE)
        spectator.wait("document.querySelector('[data-testid=actions]').innerText.includes('Watching as a spectator')")
        bot_seats.play(table, seed=21)
        print(f"bot seats played by {bot_seats.who}")
        assert page.dataset("pageModule") == "rotw/page.js"
        # The companies, the round and the players, as the advanced game has them.
        page.wait("document.querySelectorAll('[data-testid^=company-]').length === 6")
        assert page.page.locator("[data-testid=round]").count() == 1
        assert "Set-up" in page.page.inner_text("[data-testid=round]")
        card = page.page.inner_text("[data-testid=company-red]")
        assert "Red Company" in card and "Available" in card and "On card" in card and "Issued" in card, card
        assert page.page.inner_text("[data-testid=company-red] [data-field=available]") == "5"
        assert page.page.locator("svg.map [data-city]").count() >= 30
        page.page.click("[data-testid=rules-toggle]")
        rules = page.page.inner_text("#rules")
        assert "advanced share game" in rules and "dividend ÷ price" in rules and "Baron" not in rules, rules[:300]
        page.page.click("[data-testid=rules-toggle]")

        person = SharePerson(page, seed=31 if size == "desktop" else 32, shot_dir=screenshots, size=size)
        shots: set[str] = set()
        timed_out = False
        while person.wait_my_turn(timeout_ms=120_000):
            phase = page.dataset("phase") or ""
            key = {"opening_auction": "auction", "share_auction": "auction", "company_turn": "company", "company_build": "company",
                   "dividend": "dividend", "merger_vote": "vote", "merger": "merger"}.get(phase, phase)
            if key not in shots and (key != "company" or person.targets()):
                page.shot(screenshots / f"rotw-adv-{key}-{size}.png", full_page=False)
                shots.add(key)
            check_vote_secrecy(page)
            if time.monotonic() - started > WHOLE_GAME_BUDGET_S and phase == "share_auction":
                timed_out = True
                break
            person.act()
        elapsed = time.monotonic() - started
        print(f"{size}: {person.moves} moves through the page in {elapsed:.0f} s; phases {person.phases}; clicks {person.clicks}"
              f"{'; stopped at the time budget' if timed_out else ''}")
        assert not bot_seats.errors, bot_seats.errors
        # The opening auction, several company turns and a dividend were played through the page.
        assert person.phases.get("opening_auction", 0) >= 2, person.phases
        assert person.clicks.get("start_auction", 0) >= 1, person.clicks
        assert person.company_turns >= 3, person.phases
        assert person.clicks.get("hex", 0) >= 2 and person.clicks.get("lay", 0) + person.clicks.get("deliver", 0) >= 2, person.clicks
        assert person.clicks.get("dividend", 0) >= 1, person.clicks
        assert page.page.locator("svg.map path.track.complete").count() > 0, "the links built are drawn"
        colours = set(page.page.eval_on_selector_all("svg.map path.track.complete", "els => els.map(e => e.getAttribute('stroke'))"))
        assert colours and "#e67e22" not in colours, f"track drawn in company colours, not seat colours: {colours}"
        if not timed_out:
            names = check_result(page)
            page.shot(screenshots / f"rotw-adv-result-{size}.png")
            assert table_detail(web_stack.url, table)["status"] == "finished"
            print(f"{size}: final ranking {names}; {page.page.inner_text('.table-info')}")
            # The spectator watched the same game to the same ranking.
            spectator.page.wait_for_selector("[data-testid=rotw-result]")
            assert spectator.page.inner_text("[data-testid=rotw-result] .final-ranking") == page.page.inner_text("[data-testid=rotw-result] .final-ranking")
        assert page.errors == [] and spectator.errors == [], page.errors + spectator.errors
