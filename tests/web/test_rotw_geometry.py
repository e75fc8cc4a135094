"""The England & Wales map is drawn where the engine's board says, in real Chromium.

Real games on the real map — random play and the bots' own greedy policy, the standard and the
advanced share game — are stepped through the engine; after every tile laid (and at the end)
the seat's view is drawn by the page's own map module (`app/rotw/map.js`, served by the stack)
at 1366×900 and 390×844, and every drawn track segment must end on the two edges the engine's
board names, every complete link touching both its cities (tests/web/rotw_geometry.py computes
the points from the layout, not from the page). A mirrored edge numbering fails here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from shared.bots.rotw_england_wales import advanced as bot_advanced
from shared.bots.rotw_england_wales import greedy as bot_greedy
from shared.games.rotw_england_wales import ENGINE
from shared.games.rotw_england_wales.actions import LayTrack
from shared.games.rotw_england_wales.board import get_board

from tests.dev.devproc import http
from tests.rotw.adv_helpers import sample
from tests.web.conftest import Stack
from tests.web.driving import drive, first_of, seat_view
from tests.web.pages import DESKTOP, LIVE, PHONE, tab
from tests.web.rotw_geometry import READ_TRACK, check_track
from tests.web.rotw_route import choose_route, confirm, option_hexes, tap

SEATS = ["Ada", "Brunel", "Cole", "Dora"]
DRAW = """async (view) => {
  const { drawMap } = await import('/app/rotw/map.js');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.replaceChildren(svg);
  drawMap(svg, view, { targets: new Map(), picked: null, onPick() {} });
  return (READ_TRACK)(svg);
}""".replace("READ_TRACK", READ_TRACK)

Policy = Callable[[Any, int, random.Random], Any]


def random_policy(s: Any, seat: int, rnd: random.Random) -> Any:
    fams = ENGINE.legal_actions(s, seat)
    weights = {"deliver": 20.0, "lay_track": 6.0, "pass": 0.05, "issue_share": 0.3, "end_build": 0.3,
               "urbanize": 0.3, "upgrade_engine": 0.5, "take_card": 0.5, "bid": 0.2}
    w = [weights.get(type(f.action).__struct_config__.tag, 1.0) for f in fams]
    return sample(rnd.choices(fams, weights=w)[0], rnd)


def bot_policy(s: Any, seat: int, rnd: random.Random) -> Any:
    return bot_advanced.greedy(s, seat, rnd) if s.adv is not None else bot_greedy.greedy(s, seat, rnd)


def snapshots(players: int, options: dict[str, Any], policy: Policy, seed: int, every: int,
              limit: int = 4000) -> list[Any]:
    """States of one game on the real map: after every `every`-th tile laid, and the last."""
    rnd = random.Random(seed)
    s = ENGINE.setup(SEATS[:players], options, seed)
    out, tiles, steps = [], 0, 0
    while ENGINE.result(s) is None and steps < limit:
        seat = min(ENGINE.active_seats(s))
        action = policy(s, seat, rnd)
        s = ENGINE.apply(s, seat, action)
        steps += 1
        if isinstance(action, LayTrack):
            tiles += 1
            if tiles % every == 0:
                out.append(s)
    out.append(s)
    return out


GAMES = {
    "standard-random": (3, {}, random_policy, 11, 3),
    "standard-bots": (2, {}, bot_policy, 12, 2),
    "advanced-random": (3, {"game": "advanced"}, random_policy, 13, 3),
    "advanced-bots": (3, {"game": "advanced"}, bot_policy, 14, 2),
}


@pytest.fixture(scope="module")
def games() -> dict[str, list[Any]]:
    return {name: snapshots(*spec) for name, spec in GAMES.items()}


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", list(GAMES))
def test_track_is_drawn_on_the_engines_edges(web_stack: Stack, chromium: Any, games: dict[str, list[Any]],
                                            game: str, size: str) -> None:
    states = games[game]
    board = get_board(states[-1].board)
    checked = links = 0
    with tab(chromium, DESKTOP if size == "desktop" else PHONE) as t:
        t.goto(f"{web_stack.url}/")
        for i, s in enumerate(states):
            view = ENGINE.view(s, 0)
            drawn = t.page.evaluate(DRAW, view)
            checked += check_track(board, view, drawn, f"{game} snapshot {i}")
            links += sum(1 for link in view["links"] if link["complete"])
        assert not t.errors, t.errors
    # The games really built: many tiles, and complete links to check against their cities.
    assert checked >= 40 and links >= 5, (checked, links)


def _to_my_first_build(seat: int, actions: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any] | None:
    """Barons chosen, the auction passed, the other seat passes its round; stop at seat 0's action."""
    if view["phase"] == "action" and seat == 0:
        return None
    return first_of(actions, "choose_baron", "pass")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_tap_on_a_neighbouring_hex_builds_exactly_the_drawn_preview(web_stack: Stack, chromium: Any, size: str) -> None:
    status, created = http("POST", f"{web_stack.url}/api/tables", {"title": "rotw-england-wales", "seats": [{"name": "Ada"}, {"name": "Bo"}]})
    assert status == 201, created
    table, token = created["table"], created["seats"][0]["token"]
    drive(web_stack.url, created, _to_my_first_build)
    rng = random.Random(3)
    with tab(chromium, DESKTOP if size == "desktop" else PHONE) as t:
        t.goto(created["seats"][0]["invite_url"])
        t.wait(LIVE + " && document.body.dataset.ready === 'true'")
        hexes = option_hexes(t.page, "pick-lay_track")
        outlined = set(t.page.eval_on_selector_all("svg.map .hex.target", "els => els.map(e => e.dataset.hex)"))
        assert set(hexes) <= outlined, "every hex a build can start from is outlined on the map"
        if size == "phone":  # a hex is a tap target of at least 40 px
            box = t.page.locator(f'svg.map .hex.target[data-hex="{hexes[0]}"] polygon').bounding_box()
            assert box and box["width"] >= 40 and box["height"] >= 40, box
        hex_id = rng.choice(hexes)
        tap(t.page, hex_id, rng)
        t.wait(f"document.querySelector('svg.map .hex.picked[data-hex=\"{hex_id}\"]') !== null")
        # The cost is said before anything is built.
        assert "$" in t.page.inner_text("[data-testid=route-head]")
        entry, exit_ = choose_route(t.page, hex_id, lambda e, x: rng.random(), rng)
        seq = t.seq()
        # Taking it back builds nothing; choosing the same way again shows the same tile.
        t.page.locator("[data-testid=actions] button[data-act=cancel-build]").first.click()
        t.wait("document.querySelector('[data-testid=track-preview]') === null")
        assert t.seq() == seq
        tap(t.page, hex_id, rng)
        t.wait(f"document.querySelector('svg.map .hex.picked[data-hex=\"{hex_id}\"]') !== null")
        assert choose_route(t.page, hex_id, lambda e, x: 0 if (e, x) == (entry, exit_) else 1, rng, entry) == (entry, exit_)
        confirm(t.page)
        t.wait_seq(seq + 1)
        view = seat_view(web_stack.url, table, token)
        assert [seg[1:] for seg in view["track"][hex_id]] == [[entry, exit_]], view["track"]
        t.wait(f"document.querySelector('svg.map path.track[data-hex=\"{hex_id}\"]') !== null")
        drawn = t.page.eval_on_selector("svg.map", READ_TRACK)
        check_track(get_board("england_wales"), view, drawn, f"after the tap build ({size})")
        assert not t.errors, t.errors
