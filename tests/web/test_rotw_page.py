"""Railways of England and Wales's table page (services/web/app/rotw/), in real Chromium.

A scripted person (tests/web/rotw_person.py) reads only what the page shows and clicks:
baron, auction, building on the map, deliveries, cards, shares. The bot seat is played by
the real bot worker of `roundhouse dev` (or, without it, by tests/web/bot_seats.py, which
says so). Whole two-player games are played through the page at desktop and phone sizes, to
the result screen, which is checked against the engine's result from the API; the lobby
then lists the finished table with its winner.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from shared.games.rotw_england_wales.board import get_board

from tests.dev.devproc import REPO, http
from tests.web.bot_seats import BotSeats
from tests.web.conftest import Stack
from tests.web.driving import seat_view
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, tab, table_detail
from tests.web.rotw_geometry import READ_TRACK, check_track
from tests.web.rotw_person import RotwPerson

VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
TITLE = "rotw-england-wales"
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
    """The page draws terrain and barriers, and names the major lines, from mapdata.js (the view does not carry them)."""
    text = MAP_JS.read_text()
    terrain = json.loads(re.search(r"export const TERRAIN = (\[.*?\]);", text, re.S).group(1))  # type: ignore[union-attr]
    assert terrain == terrain_rows()
    barriers = json.loads(re.search(r"export const BARRIERS = (\[.*?\]);\n", text, re.S).group(1))  # type: ignore[union-attr]
    m = json.loads(MAP_JSON.read_text())
    assert barriers == [x["between"] for x in m["barriers"]]
    assert json.loads(re.search(r"export const LAYOUT = (\".*?\");", text).group(1)) == m["layout"]  # type: ignore[union-attr]
    majors = json.loads(re.search(r"export const MAJORS = (\[.*?\]);\n", text, re.S).group(1))  # type: ignore[union-attr]
    assert majors == [{"id": x["id"], "name": x["name"], "vp": x["vp"]} for x in m["major_lines"]]


def create(base: str, names: list[str], bots: dict[int, str]) -> dict[str, Any]:
    seats = [{"name": n, "kind": "bot", "level": bots[i]} if i in bots else {"name": n} for i, n in enumerate(names)]
    status, body = http("POST", f"{base}/api/tables", {"title": TITLE, "seats": seats})
    assert status == 201, body
    return body


RESULT_ROWS = """els => els.map(e => ({
  seat: Number(e.dataset.seat), rank: Number(e.dataset.rank), total: Number(e.dataset.total),
  parts: Object.fromEntries([...e.querySelectorAll('[data-part]')].map(p => [p.dataset.part, Number(p.querySelector('b').textContent)])),
}))"""


def check_result(page: Tab, detail: dict[str, Any], names: list[str], my_seat: int) -> list[dict[str, Any]]:
    """The result screen says what the engine's result says: ranking, totals, breakdown, winner."""
    result = detail["result"]
    rows = page.page.eval_on_selector_all("[data-testid=result] .ranking li", RESULT_ROWS)
    assert sorted(r["seat"] for r in rows) == list(range(len(names)))
    assert [r["rank"] for r in rows] == sorted(result["ranks"]), "listed best first"
    for r in rows:
        assert r["rank"] == result["ranks"][r["seat"]] and r["total"] == result["scores"][r["seat"]]
        parts = r["parts"]
        assert set(parts) == {"track", "links", "cards", "baron", "shares"}
        assert sum(parts.values()) == r["total"], parts
        assert parts["baron"] in (0, 10) and parts["shares"] <= 0
    winner_line = page.page.inner_text("[data-testid=result] .winner")
    if my_seat in result["winners"]:
        assert winner_line.startswith("You win")
    else:
        assert all(names[w] in winner_line for w in result["winners"])
    return rows


@pytest.mark.parametrize(("size", "bot"), [("desktop", "heuristic"), ("phone", "random")])
def test_person_plays_a_whole_rotw_game_against_a_bot_through_the_page(
    size: str, bot: str, web_stack: Stack, chromium: Any, bot_seats: BotSeats, screenshots: Path
) -> None:
    names = ["Ada", "Robo"]
    created = create(web_stack.url, names, {1: bot})
    table = created["table"]
    bot_seats.play(table, seed=11)
    print(f"bot seat ({bot}) played by {bot_seats.who}")
    with tab(chromium, VIEWPORTS[size]) as page, tab(chromium, VIEWPORTS[size]) as spectator:
        page.goto(created["seats"][0]["invite_url"])
        page.wait(LIVE)
        assert page.dataset("pageModule") == "rotw/page.js", "the page module did not load"
        spectator.goto(f"{web_stack.url}/#table={table}")
        spectator.wait(LIVE)
        # The map: every city with its colour, and goods cubes drawn in them.
        assert page.page.eval_on_selector_all("svg.map [data-city]", "els => els.length") >= 30
        assert page.page.locator("svg.map [data-city] rect.cube").count() >= 30
        assert page.page.locator("svg.map .hex.t-m").count() > 0 and page.page.locator("svg.map line.barrier").count() > 0

        person = RotwPerson(page, seed=5 if size == "desktop" else 6, name=names[0], path_shot=screenshots / f"rotw-deliveries-{size}.png")
        # The baron: two to choose from, shown to this seat only.
        assert person.wait_my_turn()
        assert "keep one" in page.page.inner_text("[data-testid=baron-draw]")
        while page.page.locator("[data-testid=baron]").count() == 0:
            person.act()
            page.wait("document.querySelector('[data-testid=baron]') !== null || document.body.dataset.myTurn === 'true'", 30_000)
        baron = page.page.get_attribute("[data-testid=baron]", "data-baron")
        assert baron
        assert "Spectators do not see" in spectator.page.inner_text(".baron-box")

        started = time.monotonic()
        shot = False
        while person.wait_my_turn():
            assert person.moves < 600, f"still playing after {person.moves} moves: {person.clicks}"
            assert time.monotonic() - started < 900, f"game not over after 900 s: {person.moves} moves {person.clicks}"
            if not shot and person.moves >= 10 and person.targets():
                page.shot(screenshots / f"rotw-table-{size}.png", full_page=False)
                spectator.shot(screenshots / f"rotw-spectator-{size}.png", full_page=False)
                shot = True
            # Hidden information: this seat's page names its own baron only; the spectator's none.
            assert set(person.barons_shown()) <= {baron}, person.barons_shown()
            # (the spectator's page may already show the end when this seat's move ended the game)
            assert spectator.page.evaluate("document.body.dataset.over === 'true' || !document.querySelector('[data-baron]')")
            person.act()
        took = time.monotonic() - started
        print(f"whole game through the page ({size}, vs {bot}): {took:.0f} s, {person.moves} person moves {person.clicks}")
        # The person built on the map and delivered along links (its own or the bot's).
        assert person.clicks.get("lay", 0) >= 3 and person.clicks.get("deliver", 0) >= 3, person.clicks
        assert page.page.locator("svg.map path.track").count() > 0, "the track built is drawn"

        # The result screen, checked against the engine's result as the API has it.
        page.wait("document.querySelector('[data-testid=result]') !== null", 20_000)
        detail = table_detail(web_stack.url, table)
        assert detail["status"] == "finished" and detail["result"], detail
        check_result(page, detail, names, my_seat=0)
        assert "empty cities" in page.page.inner_text("[data-testid=result]")
        # Every baron is revealed now, each as the seat's own view has it, with its standing.
        final = seat_view(web_stack.url, table, created["seats"][0]["token"])
        # The finished board is drawn where the engine's board says (tests/web/rotw_geometry.py).
        drawn = page.page.eval_on_selector("svg.map", READ_TRACK)
        assert check_track(get_board("england_wales"), final, drawn, f"final board ({size})") > 0
        shown = page.page.eval_on_selector_all("[data-testid=result] [data-testid=barons] li",
                                               "els => els.map(e => [Number(e.dataset.seat), e.dataset.baron, e.textContent])")
        assert [(s, b) for s, b, _ in shown] == [(p["seat"], p["baron"]) for p in final["players"]]
        assert shown[0][1] == baron and shown[1][1] not in ("", "hidden")
        for (_, _, text), row in zip(shown, final["scores"]):
            assert ("met, +10 VP" in text) == row["baron_standing"]["met"] == (row["baron"] == 10), text
        spectator.wait("document.querySelector('[data-testid=result]') !== null", 20_000)
        check_result(spectator, detail, names, my_seat=-1)
        assert spectator.page.locator("[data-testid=result] [data-testid=barons] li[data-baron]").count() == 2
        assert spectator.page.locator(".baron-box [data-testid=barons] li[data-baron]").count() == 2
        page.shot(screenshots / f"rotw-result-{size}.png", full_page=False)
        page.page.locator("[data-testid=result]").screenshot(path=str(screenshots / f"rotw-result-panel-{size}.png"))

        # The lobby lists the finished table with its winner and scores.
        page.goto(f"{web_stack.url}/")
        outcome = f'[data-testid=finished-tables] li[data-table="{table}"] [data-testid=outcome]'
        page.wait(f"document.querySelector('{outcome}') !== null", 15_000)
        text = page.page.inner_text(outcome)
        winners = [names[w] for w in detail["result"]["winners"]]
        assert text.startswith(" and ".join(winners)) and " win" in text, text
        for seat, name in enumerate(names):
            assert f"{name} {detail['result']['scores'][seat]}" in text, text
        page.page.locator(f'[data-testid=finished-tables] li[data-table="{table}"]').screenshot(path=str(screenshots / f"rotw-lobby-finished-{size}.png"))
        assert not bot_seats.errors, bot_seats.errors
        assert page.errors == [] and spectator.errors == []


def test_result_screen_ranks_tied_totals_as_the_engine_does(web_stack: Stack, chromium: Any) -> None:
    """Equal totals: fewer shares ranks higher, equal shares share the rank (end.py). A whole
    game rarely ties, so a finished game's totals are evened out and the screen drawn from its view."""
    from shared.games.rotw_england_wales import ENGINE, end

    from tests.rotw.helpers import SEATS, game, greedy_playout

    s, _ = greedy_playout(game(3, seed=5), random.Random(5))
    assert ENGINE.result(s) is not None
    s.players[0].shares, s.players[1].shares, s.players[2].shares = 6, 4, 4
    top = max(r["total"] for r in end.breakdown(s)) + 3
    for p, row in zip(s.players, end.breakdown(s)):
        p.vp += top - row["total"]
    res = ENGINE.result(s)
    assert res is not None and res.scores == [top] * 3 and res.ranks == [3, 1, 1]
    view = json.loads(json.dumps(ENGINE.view(s, 1)))
    with tab(chromium) as page:
        page.goto(f"{web_stack.url}/")
        drawn = page.page.evaluate("""async view => {
          const panels = await import('/app/rotw/panels.js');
          const el = panels.result(view, 1);
          document.body.append(el);
          return {ranks: [...el.querySelectorAll('.ranking li')].map(li => [Number(li.dataset.seat), Number(li.dataset.rank)]),
                  winner: el.querySelector('.winner').textContent, ties: el.querySelector('[data-testid=ties]').textContent};
        }""", view)
        assert drawn["ranks"] == [[1, 1], [2, 1], [0, 3]]
        assert drawn["winner"] == "You win (shared)!"
        a, b, c = SEATS[:3]
        assert f"tie on {top} VP; fewer shares issued ranks higher: {b} and {c} (4 shares) share #1, {a} (6 shares) take #3." in drawn["ties"]
        assert page.errors == []
