"""The 18xx page (`services/web/app/core18xx/`) with 18Ireland, in real headless Chromium against
a real `roundhouse dev` (issue 18).

- Geometry: for every tile and token of real imported games, what the page draws (each track
  end, each token) is where the engine's board says, computed here from the map's hex layout
  (`core18xx.board.hexgrid`), independently of the page's code.
- `roundhouse import-18xx EXPORT --to-table` opens on this page at the export's last position,
  and play goes on through the page.
- A person plays through the page only: a private bid, a tile laid with a chosen rotation
  (previewed on the map first), a token placed by tapping its slot, the engine's best run, a
  dividend, a train bought, a merger proposed and voted; at both sizes, with screenshots in
  test-artifacts/18ireland/.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgspec
import pytest

from shared import auth
from shared.engine import served_view
from shared.games.core18xx.board import hexgrid
from shared.timeline import Timeline

from services.offline.import_18xx import import_export
from services.offline.import_table import store_table
from tests.dev.devproc import REPO, DevProcess, dev_env, free_port, http
from tests.exports import export_paths
from tests.web.entities18xx import entities_js, path
from tests.web.geometry18xx import check_tokens, check_tracks
from tests.web.pages import DESKTOP, LIVE, PHONE, Tab, tab

EXPORTS = export_paths("18Ireland")
SIZES = {"desktop": DESKTOP, "phone": PHONE}
READY = "document.body.dataset.myTurn === 'true' && document.body.dataset.ready === 'true'"
SECRET = "web-18xx-secret"
SHOTS = REPO / "test-artifacts" / "18ireland"
ROOT3 = math.sqrt(3)

pytestmark = pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (or $ROUNDHOUSE_SHARED)")


class Stack18:
    def __init__(self, url: str, redis_url: str) -> None:
        self.url = url.rstrip("/")
        self.redis_url = redis_url


@pytest.fixture(scope="module")
def stack(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack18]:
    """`roundhouse dev` on the tests' Redis, so an import can store tables it serves."""
    data = tmp_path_factory.mktemp("web-18xx")
    with DevProcess(data, free_port(), dev_env(redis_url, ROUNDHOUSE_SECRET=SECRET)) as dev:
        yield Stack18(dev.wait_ready(), redis_url)
        dev.stop()


@pytest.fixture(scope="module")
def game() -> Any:
    """The longer real game, folded once."""
    path = max(EXPORTS, key=lambda p: p.stat().st_size)
    return import_export(json.loads(path.read_text()))


def table_at(stack: Stack18, run: Any, entries: int) -> dict[str, Any]:
    """A table holding the first `entries` log entries of an import, with every seat's token."""
    part = run.prefix(entries)
    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        stored = pool.submit(asyncio.run, store_table(part, stack.redis_url)).result(timeout=60)
    table = stored["table"]
    tokens = [auth.issue(SECRET.encode(), table, s) for s in range(len(part.timeline.seats))]
    return {"table": table, "tokens": tokens, "state": part.timeline.state, "engine": run.engine, "seq": stored["seq"]}


def turnable_lay(legal: list[Any]) -> tuple[str, str] | None:
    """A (hex, tile) of a lay family that may be laid in more than one rotation."""
    for la in legal:
        entry = msgspec.to_builtins(la)
        if entry["action"]["type"] != "lay_tile" or not entry["choices"]:
            continue
        hexes = entry["choices"]
        for i, hx in enumerate(hexes["values"]):
            tiles = hexes["then"][i if len(hexes["then"]) > 1 else 0]
            for j, tile in enumerate(tiles["values"]):
                rotations = tiles["then"][j if len(tiles["then"]) > 1 else 0]
                if len(rotations["values"]) > 1:
                    return hx, tile
    return None


def first_entry_offering(run: Any, kind: str, after: int = 0, test: Callable[[list[Any]], Any] | None = None) -> int:
    """The first log position (at or after `after`) where the seat to act may do `kind` (and
    its legal actions pass `test`)."""
    def offers(state: Any, legal: list[Any]) -> bool:
        return any(msgspec.to_builtins(la.action)["type"] == kind for la in legal) and (test is None or bool(test(legal)))
    return first_entry_where(run, offers, after)


def first_entry_where(run: Any, wanted: Callable[[Any, list[Any]], bool], after: int = 0) -> int:
    """The first log position (at or after `after`) where a seat to act has legal actions that,
    with the state, are `wanted`."""
    engine = run.engine
    timeline = Timeline(engine, run.timeline.seats, run.timeline.options, run.timeline.seed)
    for i, (seat, action) in enumerate(run.entries):
        if i >= after:
            for s in engine.active_seats(timeline.state):
                if wanted(timeline.state, engine.legal_actions(timeline.state, s)):
                    return i
        timeline.push(seat, action)
    raise AssertionError("no position offers what the test wants")


def invite(stack: Stack18, table: str, token: str | None) -> str:
    return f"{stack.url}/#table={table}" + (f"&token={token}" if token else "")


def detail(stack: Stack18, table: str) -> dict[str, Any]:
    status, body = http("GET", f"{stack.url}/api/tables/{table}")
    assert status == 200, body
    return body


def shot(page: Tab, name: str, size: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.shot(SHOTS / f"{name}-{size}.png", full_page=False)


# --- the page's data ---------------------------------------------------------------------------

def test_the_round_labels_of_the_history_are_the_views(game: Any) -> None:
    """18Ireland's round_label (which indexes a table's history without building views) says
    what the projection reads from the view."""
    from services.projection.history import view_round_label

    timeline = Timeline(game.engine, game.timeline.seats, game.timeline.options, game.timeline.seed)
    for i, (seat, action) in enumerate(game.entries):
        if i % 7 == 0:
            state = timeline.state
            assert game.engine.round_label(state) == view_round_label(game.engine.view(state, None)), i
        timeline.push(seat, action)


def test_the_pages_18ireland_data_is_generated_from_entities_json() -> None:
    assert path("g18ireland").read_text() == entities_js("g18ireland"), "run `python -m tests.web.entities18xx` to regenerate it"


# --- geometry ---------------------------------------------------------------------------------

def centre(x: int, y: int, size: float) -> tuple[float, float]:
    """A flat-topped hex's centre from its doubled coordinates (columns 1.5 R apart, rows √3 R)."""
    return x * 1.5 * size, y * ROOT3 / 2 * size


def edge_mid(coord: str, edge: int, size: float, layout: str) -> tuple[float, float]:
    """The midpoint of a hex's edge: half-way to the neighbour across it, by the engine's grid."""
    x, y = hexgrid.xy(coord)
    nx, ny = hexgrid.xy(hexgrid.neighbour(coord, edge, layout))  # type: ignore[arg-type]
    (ax, ay), (bx, by) = centre(x, y, size), centre(nx, ny, size)
    return (ax + bx) / 2, (ay + by) / 2


def drawn(page: Tab) -> dict[str, Any]:
    return page.page.evaluate("""() => {
      const svg = document.querySelector('[data-testid=map]');
      return {
        size: Number(svg.dataset.hexSize), layout: svg.dataset.layout,
        tracks: [...svg.querySelectorAll('g.hex:not(.preview) path.track')].map(p => ({
          hex: p.dataset.hex, a: p.dataset.a, b: p.dataset.b, track: p.dataset.track, d: p.getAttribute('d')})),
        tokens: [...svg.querySelectorAll('circle.slot.token')].map(c => ({
          hex: c.dataset.hex, node: Number(c.dataset.node), slot: Number(c.dataset.slot), corp: c.dataset.corp,
          x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy'))})),
      };
    }""")


def check_geometry(board: dict[str, Any], seen: dict[str, Any]) -> tuple[int, int]:
    size, layout = seen["size"], seen["layout"]
    assert layout == board["layout"] == "flat"
    ends = check_tracks(board, seen["tracks"], lambda hx: centre(hx["x"], hx["y"], size),
                        lambda hx, edge: edge_mid(hx["hex"], edge, size, layout), size)
    tokens = check_tokens(board, seen["tokens"], lambda hx: centre(hx["x"], hx["y"], size), size)
    return ends, tokens


@pytest.mark.parametrize("position", ["end", "mid"])
def test_track_ends_and_tokens_are_drawn_where_the_engines_board_has_them(position: str, stack: Stack18, game: Any,
                                                                         chromium: Any) -> None:
    entries = len(game.entries) if position == "end" else len(game.entries) // 2
    at = table_at(stack, game, entries)
    board = served_view(at["engine"], at["state"], None)["board"]
    with tab(chromium, DESKTOP) as page:
        page.goto(invite(stack, at["table"], None))
        page.wait(LIVE, timeout_ms=20_000)
        ends, tokens = check_geometry(board, drawn(page))
        assert ends > 100 and tokens > 5, (ends, tokens)
        assert page.errors == []


# --- import, then play on ---------------------------------------------------------------------

def test_an_import_to_table_opens_on_this_page_at_its_last_position_and_play_goes_on(stack: Stack18, chromium: Any,
                                                                                       tmp_path: Path) -> None:
    path = max(EXPORTS, key=lambda p: p.stat().st_size)
    export = json.loads(path.read_text())
    export["actions"] = export["actions"][:700]   # mid-game: GSWR about to lay track
    export.update(status="active", result={}, game_end_reason=None)
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(export))
    env = {**os.environ, "REDIS_URL": stack.redis_url, "ROUNDHOUSE_SECRET": SECRET}
    proc = subprocess.run([sys.executable, "-m", "services.cli", "import-18xx", str(cut), "--to-table"],
                          cwd=REPO, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    line = json.loads(proc.stdout)
    table, seq = line["table"], line["seq"]
    info = detail(stack, table)
    assert info["last_seq"] == seq and info["status"] == "running"
    seat = info["active_seats"][0]
    token = line["seats"][seat]["token"]
    with tab(chromium, DESKTOP) as page:
        page.goto(invite(stack, table, token))
        page.wait(LIVE, timeout_ms=20_000)
        page.wait(READY, timeout_ms=20_000)
        assert page.seq() == seq
        assert page.dataset("pageModule") == "core18xx/page.js"
        assert page.page.inner_text("[data-testid=turn]").startswith("Your turn")
        lay_with_chosen_rotation(page)
        page.wait_seq(seq + 1)
        assert detail(stack, table)["last_seq"] == seq + 1
        assert page.errors == []


def lay_with_chosen_rotation(page: Tab, snap: Callable[[], None] | None = None, where: tuple[str, str] | None = None
                             ) -> dict[str, Any]:
    """Tap a highlighted hex (`where`'s, else the first), pick its tile, turn it once if it has
    more than one legal rotation, check the preview on the map, confirm. Returns what was chosen."""
    target = page.page.locator(f"svg [data-target={where[0]}]" if where else "svg [data-target]").first
    hex_id = target.get_attribute("data-target")
    target.click()
    tile = f"[data-testid=tile-{re.sub(r'-[0-9]+$', '', where[1])}]" if where else "[data-act=pick-tile]"
    page.page.locator(f"[data-testid=lay] {tile}").first.click()
    label = page.page.inner_text("[data-testid=rotation]")
    counted = re.search(r"of (\d+)", label)
    assert counted, label
    legal_count = int(counted.group(1))
    turned = legal_count > 1
    if turned:
        page.page.click("[data-testid=lay] [data-act=rotate]")
        assert page.page.inner_text("[data-testid=rotation]").startswith("rotation 2 of")
    preview = page.page.evaluate(f"""() => [...document.querySelectorAll('[data-testid=map] g.hex.preview[data-hex="{hex_id}"] path.track')]
        .map(p => [p.dataset.a, p.dataset.b].sort().join('-')).sort()""")
    assert preview, "the chosen tile is drawn on the map before it is sent"
    assert page.page.locator("[data-testid=tile-close-up] path.track").count() == len(preview)
    if snap:
        snap()
    button = page.page.locator("[data-testid=lay] [data-act=lay_tile]")
    assert button.inner_text().startswith("Lay ")
    button.click()
    return {"hex": hex_id, "preview": preview, "turned": turned}


# --- a person plays through the page ----------------------------------------------------------

async def _logged(base: str, table: str, token: str, after: int, upto: int) -> list[dict[str, Any]]:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(base.replace("http://", "ws://") + "/ws") as ws:
            await ws.send_json({"type": "hello", "v": 1, "table": table, "token": token, "last_seq": after})
            hello = await ws.receive_json(timeout=10)
            assert hello["type"] == "welcome" and hello["resumed"], hello
            out: list[dict[str, Any]] = []
            while len(out) < upto - after:
                frame = await ws.receive_json(timeout=10)
                if frame["type"] == "update":
                    out.append(frame["action"])
            return out


def logged(stack: Stack18, table: str, token: str, after: int, upto: int) -> list[dict[str, Any]]:
    """The actions logged at seqs after+1..upto, from the live protocol's replay."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _logged(stack.url, table, token, after, upto)).result(timeout=30)


def spectator_view(stack: Stack18, table: str, token: str) -> dict[str, Any]:
    from tests.web.driving import seat_view

    return seat_view(stack.url, table, token)


def open_active(stack: Stack18, page: Tab, at: dict[str, Any]) -> int:
    seat = detail(stack, at["table"])["active_seats"][0]
    page.goto(invite(stack, at["table"], at["tokens"][seat]))
    page.wait(LIVE, timeout_ms=20_000)
    page.wait(READY, timeout_ms=20_000)
    assert page.seq() == at["seq"]
    return seat


def click(page: Tab, selector: str) -> None:
    el = page.page.locator(selector).first
    if page.page.viewport_size["width"] < 600:
        # On a phone every control the person taps is at least 40 px tall. Measured in the page
        # in one call: a redraw between finding the control and measuring it leaves no box.
        height = el.evaluate("e => e.getBoundingClientRect().height")
        assert height >= 40, (selector, height)
    el.click()


STEPS = {
    # name: (the kind the position must offer, what the person does on the page)
    "private-bid": "bid",
    "minor-start": "bid",
    "lay": "lay_tile",
    "token": "place_token",
    "run-and-dividend": "run_routes",
    "train": "buy_train",
    "merger": "merge",
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("step", list(STEPS))
def test_a_person_plays_each_kind_of_move_through_the_page(step: str, size: str, stack: Stack18, game: Any,
                                                           chromium: Any) -> None:
    kind = STEPS[step]
    where = {"minor-start": 9}.get(step)
    # After the first entry: the replay that reads back what was logged starts from seq 1.
    entry = where if where is not None else first_entry_offering(game, kind, after=1,
                                                                 test=turnable_lay if step == "lay" else None)
    at = table_at(stack, game, entry)
    table = at["table"]
    with tab(chromium, SIZES[size]) as page:
        seat = open_active(stack, page, at)
        token = at["tokens"][seat]
        shot(page, f"{step}-before", size)
        seq = at["seq"]
        done: list[dict[str, object]]  # the actions the step sends, as the log should hold them
        if step == "private-bid":
            label = page.page.locator("[data-testid=actions] button[data-act=bid]").first.inner_text()
            assert re.match(r"Bid £\d+ on [A-Z]+ · ", label), label
            click(page, "[data-testid=actions] button[data-act=bid]")
            done = [{"type": "bid"}]
        elif step == "minor-start":
            button = page.page.locator("[data-testid=actions] button[data-act=bid]").first
            assert "to start minor" in button.inner_text(), button.inner_text()
            click(page, "[data-testid=actions] button[data-act=bid]")
            done = [{"type": "bid"}]
        elif step == "lay":
            turnable = turnable_lay(game.engine.legal_actions(at["state"], seat))
            assert turnable is not None
            chosen = lay_with_chosen_rotation(page, lambda: shot(page, "lay-preview", size), turnable)
            assert chosen["turned"], "the tile was laid in a rotation the person chose"
            done = [{"type": "lay_tile", "hex": chosen["hex"]}]
        elif step == "token":
            target = page.page.locator("svg circle.target[data-target*='#']").first
            city, slot = target.get_attribute("data-target").split("#")
            target.click()
            done = [{"type": "place_token", "city": city, "slot": int(slot)}]
        elif step == "run-and-dividend":
            routes = page.page.inner_text("[data-testid=routes]")
            assert "best run" in routes and "£" in routes
            assert page.page.locator("svg polyline.route").count() >= 1, "the best run is drawn on the map"
            click(page, "[data-testid=routes] button[data-act=run_routes]")
            page.wait_seq(seq + 1)
            page.wait(READY)
            shot(page, "dividend-before", size)
            click(page, "[data-testid=actions] button[data-act=dividend]:has-text('Pay out')")
            done = [{"type": "run_routes"}, {"type": "dividend", "kind": "payout"}]
        elif step == "train":
            label = page.page.locator("[data-testid=actions] button[data-act=buy_train]").first.inner_text()
            assert re.match(r"Buy a \S+ train for £\d+", label), label
            click(page, "[data-testid=actions] button[data-act=buy_train]")
            done = [{"type": "buy_train"}]
        else:  # merger: start one with DER, add UR, put it to the vote, vote for it
            click(page, "[data-testid=actions] button[data-act=merge]:has-text('DER')")
            page.wait_seq(seq + 1)
            page.wait(READY)
            click(page, "[data-testid=actions] button[data-act=merge]:has-text('UR')")
            page.wait_seq(seq + 2)
            page.wait(READY)
            click(page, "[data-testid=actions] button[data-act=pass]:has-text('to the vote')")
            page.wait_seq(seq + 3)
            page.wait(READY)
            shot(page, "merger-vote", size)
            click(page, "[data-testid=actions] button[data-act=choose]:has-text('Vote for')")
            done = [{"type": "merge", "corporation": "DER"}, {"type": "merge", "corporation": "UR"}, {"type": "pass"},
                    {"type": "choose", "choice": "for"}]
        upto = seq + len(done)
        page.wait_seq(upto)
        got = logged(stack, table, token, seq, upto)
        for want, action in zip(done, got, strict=True):
            assert {k: action.get(k) for k in want} == want, (want, action)
        # The log says what happened, in words with names.
        page.wait(f"document.querySelectorAll('[data-testid=log] li').length >= {len(done)}")
        lines = page.log_lines()
        assert all(not line.startswith("{") for line in lines), lines
        shot(page, f"{step}-after", size)
        if step == "lay":
            view = spectator_view(stack, table, token)
            hx = next(h for h in view["board"]["hexes"] if h["hex"] == chosen["hex"])
            drawn_now = sorted("-".join(sorted((str(p["a"]), str(p["b"])))) for p in hx["paths"])
            assert drawn_now == chosen["preview"], "the tile laid is the one previewed, at the chosen rotation"
        assert page.errors == []


# --- against bots, the end, the rules ---------------------------------------------------------

def test_a_train_another_company_sells_names_its_seller(stack: Stack18, game: Any, chromium: Any) -> None:
    """A train bought from another company says whose it is (a bare "Buy a 2 train for £1"
    reads as a bargain from the bank); a new one from the depot needs no seller."""
    def owners(state: Any) -> dict[str, str]:
        view = served_view(game.engine, state, None)
        return {t: c["sym"] for c in view["companies"] for t in c.get("trains") or []}

    def from_another(state: Any, legal: list[Any]) -> bool:
        trains = [la.action.train for la in legal if msgspec.to_builtins(la.action)["type"] == "buy_train"]
        return bool(trains) and any(t in owners(state) for t in trains)

    at = table_at(stack, game, first_entry_where(game, from_another, after=1))
    owned = owners(at["state"])
    with tab(chromium, DESKTOP) as page:
        open_active(stack, page, at)
        labels = page.page.eval_on_selector_all("[data-testid=actions] button[data-act=buy_train]", "els => els.map(e => e.textContent)")
        offered = [la.action.train for la in game.engine.legal_actions(at["state"], detail(stack, at["table"])["active_seats"][0])
                   if msgspec.to_builtins(la.action)["type"] == "buy_train"]
        for train in offered:
            name = train.rsplit("-", 1)[0]
            if train in owned:
                assert any(t.startswith(f"Buy a {name} train from {owned[train]} for ") for t in labels), (train, labels)
            else:
                assert any(re.match(rf"Buy a {re.escape(name)} train for ", t) for t in labels), (train, labels)
        shot(page, "train-from-company", "desktop")
        assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_a_person_bids_against_bots_and_the_log_names_who_did_what(size: str, stack: Stack18, chromium: Any) -> None:
    status, created = http("POST", f"{stack.url}/api/tables", {"title": "18ireland", "seats": [
        {"name": "Bot A", "kind": "bot", "level": "heuristic"}, {"name": "Bot B", "kind": "bot", "level": "heuristic"},
        {"name": "Ada"}]})
    assert status == 201, created
    table, token = created["table"], created["seats"][2]["token"]
    with tab(chromium, SIZES[size]) as page:
        page.goto(created["seats"][2]["invite_url"])
        page.wait(LIVE, timeout_ms=20_000)
        page.wait(READY, timeout_ms=20_000)
        seq = page.seq()
        prompt = page.page.inner_text("[data-testid=prompt]")
        assert "Private auction" in prompt and "You have £330" in prompt, prompt
        shot(page, "auction-vs-bots", size)
        click(page, "[data-testid=actions] button[data-act=bid]")
        page.wait_seq(seq + 1)
        [action] = logged(stack, table, token, seq, seq + 1)
        assert action["type"] == "bid"
        # The bots answer; each move is a line in words with the mover's name.
        page.wait("(() => { const t = [...document.querySelectorAll('[data-testid=log] li')].map(li => li.textContent);"
                  " const mine = t.findIndex(x => x.startsWith('Ada bids')); return mine >= 0 && t.slice(mine + 1).some(x => /^Bot [AB] /.test(x)); })()",
                  timeout_ms=20_000)
        lines = page.log_lines()
        # The page may have opened before the bots' first moves, so those may come first.
        assert sum(line.startswith("Ada bids £") for line in lines) == 1, lines
        assert all(re.match(r"^(Ada|Bot A|Bot B)( \(\w+\))? ", line) for line in lines), lines
        shot(page, "auction-vs-bots-after", size)
        assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_a_finished_game_shows_its_result_as_the_api_has_it(size: str, stack: Stack18, game: Any, chromium: Any) -> None:
    at = table_at(stack, game, len(game.entries))
    info = detail(stack, at["table"])
    assert info["status"] == "finished" and info["result"] is not None
    result = info["result"]
    with tab(chromium, SIZES[size]) as page:
        page.goto(invite(stack, at["table"], at["tokens"][0]))
        page.wait(LIVE, timeout_ms=20_000)
        page.wait("document.body.dataset.over === 'true'")
        turn = page.page.inner_text("[data-testid=turn]")
        assert turn.startswith("Game over · the bank broke") and "to act" not in turn and "Waiting" not in turn, turn
        assert page.page.locator("[data-testid=actions]").is_hidden()
        panel = page.page.inner_text("[data-testid=result]")
        assert "the bank broke" in panel, panel
        ranking = page.page.eval_on_selector_all("[data-testid=result] .ranking li",
                                                 "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.rank), e.querySelector('strong').textContent])")
        assert sorted(ranking) == sorted([s, result["ranks"][s], f"£{result['scores'][s]}"] for s in range(len(result["scores"])))
        winners = [info["seats"][s]["name"] for s in result["winners"]]
        assert all(name in panel for name in winners)
        page.page.locator("[data-testid=result]").scroll_into_view_if_needed()
        shot(page, "result", size)
        page.page.click("[data-testid=rules-toggle]")
        rules = page.page.inner_text("[data-testid=rules]")
        for words in ("Goal", "Private auction", "Stock rounds", "Operating rounds", "Mergers", "End"):
            assert words in rules, words
        page.page.locator("[data-testid=rules]").scroll_into_view_if_needed()
        shot(page, "rules", size)
        assert page.errors == []


def test_watching_the_end_of_a_game_charts_each_players_value(stack: Stack18, game: Any, chromium: Any) -> None:
    """The last moves of a real game played on over the API while a player watches the page
    (opened late: the first moves unseen): the end screen charts every player's value over the
    whole game, ending on the result's scores, and the log has a line for every move."""
    tail = 25
    start = len(game.entries) - tail
    at = table_at(stack, game, start)
    table = at["table"]
    with tab(chromium, DESKTOP) as page:
        page.goto(invite(stack, table, at["tokens"][0]))
        page.wait(LIVE, timeout_ms=20_000)
        for i, (seat, action) in enumerate(game.entries[start:]):
            body = {"expected_seq": start + i, "idempotency_key": uuid.uuid4().hex, "action": msgspec.to_builtins(action)}
            status, reply = http("POST", f"{stack.url}/api/tables/{table}/actions", body,
                                 {"Authorization": f"Bearer {at['tokens'][seat]}"})
            assert status == 201, reply
        page.wait("document.body.dataset.over === 'true'", timeout_ms=20_000)
        result = detail(stack, table)["result"]
        chart = page.page.locator("[data-testid=value-chart] svg polyline")
        assert chart.count() == len(result["scores"])
        ends = page.page.eval_on_selector_all("[data-testid=value-chart] svg polyline",
                                              "els => els.map(e => e.getAttribute('points').split(' ').length)")
        page.wait(f"document.querySelectorAll('[data-testid=log] li').length === {len(game.entries)}", timeout_ms=60_000)
        ends = page.page.eval_on_selector_all("[data-testid=value-chart] svg polyline",
                                              "els => els.map(e => e.getAttribute('points').split(' ').length)")
        assert all(n == len(game.entries) + 1 for n in ends), ends
        page.page.locator("[data-testid=result]").scroll_into_view_if_needed()
        shot(page, "result-with-chart", "desktop")
        assert page.errors == []


# --- routes edited by hand, the revenue from the engine -----------------------------------------

def best_run(legal: list[Any]) -> list[dict[str, Any]]:
    entry = next(msgspec.to_builtins(la) for la in legal if msgspec.to_builtins(la.action)["type"] == "run_routes")
    return entry["action"]["routes"]


def drawn_routes(page: Tab) -> list[dict[str, Any]]:
    return page.page.eval_on_selector_all("svg polyline.route", """els => els.map(e => ({train: e.dataset.train,
        nodes: e.dataset.nodes.split(' '), connections: JSON.parse(e.dataset.connections),
        points: e.getAttribute('points').split(' ').map(p => p.split(',').map(Number))}))""")


def check_route_geometry(board: dict[str, Any], size: float, route: dict[str, Any]) -> None:
    """Every corner of a drawn route is the midpoint of a hex edge the route's track crosses, in
    order (from the map's hex layout, not the page's code), and it starts and ends in its stops' hexes."""
    by_hex = {hx["hex"]: hx for hx in board["hexes"]}
    want: list[tuple[float, float]] = []
    for k, hexes in enumerate(route["connections"]):
        if hexes[0] != route["nodes"][k].rsplit("-", 1)[0]:
            hexes = list(reversed(hexes))
        for a, b in zip(hexes, hexes[1:]):
            edge = hexgrid.direction(a, b, "flat")
            assert edge is not None, (a, b)
            want.append(edge_mid(a, edge, size, "flat"))
    pts = route["points"]
    stops_drawn = [p for p in pts if all(math.hypot(p[0] - w[0], p[1] - w[1]) > 0.05 for w in want)]
    corners = [p for p in pts if p not in stops_drawn]
    assert len(corners) == len(want) and all(math.hypot(p[0] - w[0], p[1] - w[1]) < 0.05 for p, w in zip(corners, want)), (route, want)
    assert len(stops_drawn) == len(route["nodes"]), route
    for p, stop in zip(stops_drawn, route["nodes"]):
        hx = by_hex[stop.rsplit("-", 1)[0]]
        cx, cy = centre(hx["x"], hx["y"], size)
        assert math.hypot(p[0] - cx, p[1] - cy) < size * 0.8, (stop, p)


def tap_stop(page: Tab, stop: str, on_run: bool = False) -> None:
    """Tap a stop's ring on the map, scrolled to the middle of the screen first (as a person
    scrolls a stop out from under the action panel)."""
    ring = page.page.locator(f"svg circle.target{'.on-run' if on_run else ''}[data-target='{stop}']")
    # Scrolled and measured in one call: a preview answered in between redraws the map, and a
    # ring measured after its own scroll may already be gone.
    width = ring.evaluate("el => { el.scrollIntoView({block: 'center', inline: 'center'});"
                          " return el.getBoundingClientRect().width; }")
    if page.page.viewport_size["width"] < 600:
        if width < 40:
            # Too close to a neighbour for a finger (two stops in one hex): its button in the panel.
            listed = page.page.locator(f"[data-testid=routes] button[data-testid='stop-{stop}']")
            if listed.count():
                click(page, f"[data-testid=routes] button[data-testid='stop-{stop}']")
                return
    ring.click()


def verdict(page: Tab) -> str:
    page.wait("(() => { const v = document.querySelector('[data-testid=run-verdict]'); return v && !v.textContent.startsWith('Checking'); })()")
    return page.page.inner_text("[data-testid=run-verdict]")


def money(text: str) -> int:
    found = re.search(r"£(\d+)", text)
    assert found, text
    return int(found.group(1))


def has_two_trains(legal: list[Any]) -> bool:
    return any(msgspec.to_builtins(la.action)["type"] == "run_routes" and len(la.action.routes) >= 2 for la in legal)


def same_run_earning_more_later(run: Any) -> tuple[int, int, int, int]:
    """Two log positions, near each other, where one seat is offered the very same best run
    (company, trains, stops) that earns differently at the second (a city upgraded in
    between): (first, second, revenue at first, revenue at second)."""
    engine = run.engine
    timeline = Timeline(engine, run.timeline.seats, run.timeline.options, run.timeline.seed)
    earlier: dict[str, tuple[int, int]] = {}
    for i, (seat, action) in enumerate(run.entries):
        for s in engine.active_seats(timeline.state):
            for la in engine.legal_actions(timeline.state, s):
                a = msgspec.to_builtins(la.action)
                if a["type"] == "run_routes" and a["routes"]:
                    key = json.dumps([s, a.get("entity"), [(r["train"], r["nodes"]) for r in a["routes"]]])
                    revenue = sum(r["revenue"] for r in a["routes"])
                    if key in earlier and earlier[key][1] != revenue and i - earlier[key][0] <= 20:
                        return earlier[key][0], i, earlier[key][1], revenue
                    earlier[key] = (i, revenue)
        timeline.push(seat, action)
    raise AssertionError("no run is offered twice with different revenues")


def test_a_run_the_page_counted_earlier_is_counted_again_where_it_earns_more(stack: Stack18, game: Any,
                                                                             chromium: Any) -> None:
    """The page asks the engine what a run earns; the same run a few moves later (a city grown
    meanwhile) is asked again, not read from the earlier answer (which the engine then refuses:
    the revenue sent is checked)."""
    first, second, before, after = same_run_earning_more_later(game)
    at = table_at(stack, game, first)
    with tab(chromium, DESKTOP) as page:
        seat = open_active(stack, page, at)
        assert money(verdict(page)) == before
        for i, (who, action) in enumerate(game.entries[first:second]):
            body = {"expected_seq": first + i, "idempotency_key": uuid.uuid4().hex, "action": msgspec.to_builtins(action)}
            status, reply = http("POST", f"{stack.url}/api/tables/{at['table']}/actions", body,
                                 {"Authorization": f"Bearer {at['tokens'][who]}"})
            assert status == 201, reply
        page.wait_seq(second)
        page.wait(READY)
        assert detail(stack, at["table"])["active_seats"][0] == seat
        assert money(verdict(page)) == after, (before, after)
        assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_a_person_edits_the_run_by_hand_and_sees_the_revenue_the_engine_counts(size: str, stack: Stack18, game: Any,
                                                                               chromium: Any) -> None:
    entry = first_entry_offering(game, "run_routes", after=1, test=has_two_trains)
    at = table_at(stack, game, entry)
    with tab(chromium, SIZES[size]) as page:
        seat = open_active(stack, page, at)
        best = best_run(game.engine.legal_actions(at["state"], seat))
        board = served_view(at["engine"], at["state"], None)["board"]
        size_px = float(page.page.get_attribute("[data-testid=map]", "data-hex-size"))
        # The engine's best run, drawn on its track, and its revenue as the engine counts it.
        routes = drawn_routes(page)
        assert sorted(r["train"] for r in routes) == sorted(r["train"] for r in best)
        for r in routes:
            check_route_geometry(board, size_px, r)
        assert money(verdict(page)) == sum(r["revenue"] for r in best)
        shot(page, "route-best", size)
        page.page.locator("[data-testid=routes]").scroll_into_view_if_needed()
        shot(page, "route-panel", size)
        first, second = best[0]["train"], best[1]["train"]
        # Take the second train's last stop off: it no longer runs; the total is the first's.
        click(page, f"[data-testid=train-{second}]")
        last = best[1]["nodes"][-1]
        tap_stop(page, last, on_run=True)
        page.wait(f"document.querySelector('[data-testid=revenue-{second}]').textContent.startsWith('one stop')")
        assert money(verdict(page)) == best[0]["revenue"]
        # Add stops the rules refuse, until the page says why: each in place names, never a hex id.
        here = best[1]["nodes"][0].rsplit("-", 1)[0]
        near = sorted((n["id"] for hx in board["hexes"] for n in hx["nodes"] if n.get("id") and n.get("edges")
                       and n["id"] not in best[1]["nodes"]),
                      key=lambda i: hexgrid.distance(here, i.rsplit("-", 1)[0]))
        refused = ""
        for stop in near[:12]:
            tap_stop(page, stop)
            page.wait(f"!document.querySelector('[data-testid=revenue-{second}]').textContent.startsWith('checking')")
            state = page.page.inner_text(f"[data-testid=revenue-{second}]")
            if state.startswith(("refused", "no free track")):
                refused = state
                break
            tap_stop(page, stop, on_run=True)   # take it off again
            page.wait(f"!document.querySelector('svg circle.target.on-run[data-target=\"{stop}\"]')"
                      f" && !document.querySelector('[data-testid=revenue-{second}]').textContent.startsWith('checking')")
        assert refused, "some stop near the train makes a route the rules refuse"
        assert not misnamed_hexes(refused, board), refused   # "Armagh & Portadown (I5), the town to the south"
        text = verdict(page)
        assert page.page.locator("[data-testid=routes] button[data-act=run_routes]").is_disabled()
        shot(page, "route-refused", size)
        page.page.locator("[data-testid=run-verdict]").scroll_into_view_if_needed()
        shot(page, "route-refused-panel", size)
        # Back to the best run; then clear the second train and run the first alone.
        click(page, "[data-testid=routes] button[data-act=best-run]")
        assert money(verdict(page)) == sum(r["revenue"] for r in best)
        click(page, f"[data-testid=train-{second}]")
        click(page, "[data-testid=routes] button[data-act=clear-train]")
        assert money(verdict(page)) == best[0]["revenue"]
        assert [r["train"] for r in drawn_routes(page)] == [first]
        shot(page, "route-edited", size)
        click(page, "[data-testid=routes] button[data-act=run_routes]")
        page.wait_seq(at["seq"] + 1)
        [action] = logged(stack, at["table"], at["tokens"][seat], at["seq"], at["seq"] + 1)
        assert action["type"] == "run_routes" and [r["train"] for r in action["routes"]] == [first]
        assert action["routes"][0]["revenue"] == best[0]["revenue"]   # sent as the engine counted it
        page.wait("[...document.querySelectorAll('[data-testid=log] li')].some(li => / runs .+ for £/.test(li.textContent))")
        run_line = [line for line in page.log_lines() if " runs " in line][-1]
        assert money(run_line) == best[0]["revenue"], run_line
        view = spectator_view(stack, at["table"], at["tokens"][seat])
        assert view["position"]["revenue"] == best[0]["revenue"], (view["position"], text)
        assert page.errors == []


COORDINATE = re.compile(r"\b[A-Z]\d{1,2}\b")


def misnamed_hexes(text: str, board: dict[str, Any]) -> list[str]:
    """The hex coordinates in `text` not written as a player reads them: a named hex as
    "Dublin (I11)" (the name first, the coordinate beside it), a nameless one as its coordinate
    with where it lies, "H10 (south-west of Dublin)"."""
    names = {hx["hex"]: hx["name"] for hx in board["hexes"]}
    wrong = []
    for m in COORDINATE.finditer(text):
        coord = m.group(0)
        if coord not in names:
            continue
        ok = text[:m.start()].endswith(f"{names[coord]} (") if names[coord] else text[m.end():].startswith(" (")
        if not ok:
            wrong.append(coord)
    return wrong


def test_places_and_programs_are_named_in_words_with_their_coordinates(stack: Stack18, game: Any, chromium: Any) -> None:
    """What a player reads names places by their names with the coordinate beside it (a hex
    without a name by its coordinate and where it lies from one) and the programs' fields in
    words, never a raw field name."""
    at = table_at(stack, game, first_entry_offering(game, "lay_tile", after=1, test=turnable_lay))
    with tab(chromium, DESKTOP) as page:
        open_active(stack, page, at)
        hexes = page.page.eval_on_selector_all("[data-testid=lay] [data-act=pick-hex]", "els => els.map(e => e.textContent)")
        board = served_view(at["engine"], at["state"], None)["board"]
        offered = page.page.eval_on_selector_all("[data-testid=lay] [data-act=pick-hex]", "els => els.map(e => e.dataset.testid.slice(4))")
        names = {hx["hex"]: hx["name"] for hx in board["hexes"]}
        assert hexes and len(hexes) == len(offered)
        for hx, text in zip(offered, hexes):
            want = f"{names[hx]} ({hx})" if names[hx] else f"{hx} ("
            assert text.startswith(want) and not misnamed_hexes(text, board), (hx, text)
            if not names[hx]:
                assert re.match(rf"{hx} \((\d+ hexes )?[a-z-]+ of [A-Z]", text), text
        page.page.locator("[data-testid=lay] [data-act=pick-hex]").first.click()
        tile_for = page.page.inner_text("[data-testid=lay] p")
        assert tile_for.startswith("Tile for ") and COORDINATE.search(tile_for) and not misnamed_hexes(tile_for, board), tile_for
        page.page.click("[data-testid=programs] summary")
        shot(page, "programs", "desktop")
        # textContent: the words whether or not a re-render (a bot's move) closed the panel again
        words = page.page.eval_on_selector("[data-testid=programs]", "el => el.textContent")
        fields = page.page.eval_on_selector_all("[data-testid=programs] select", "els => els.map(e => e.getAttribute('aria-label'))")
        assert fields, "the programs are offered with their fields"
        for raw in ("_", "unconditional", "indefinite", "until condition", "from market", "bid target"):
            assert raw not in words and all(raw not in f for f in fields), (raw, words, fields)
        assert "Auto-pass in stock rounds" in words, words
        assert page.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_a_finished_game_opened_afresh_has_its_whole_log_and_chart(size: str, stack: Stack18, game: Any, chromium: Any) -> None:
    """A tab that saw none of the moves: the log (in words) and the chart cover all of them,
    read from the table's history."""
    at = table_at(stack, game, len(game.entries))
    with tab(chromium, SIZES[size]) as page:
        started = time.perf_counter()
        page.goto(invite(stack, at["table"], None))
        page.wait("document.body.dataset.over === 'true'", timeout_ms=20_000)
        page.wait(f"document.querySelectorAll('[data-testid=log] li').length === {len(game.entries)}", timeout_ms=120_000)
        took = time.perf_counter() - started
        print(f"whole log of {len(game.entries)} moves read from history in {took:.1f}s ({size})")
        lines = page.log_lines()
        assert lines[0].startswith(("Player", "Bot")) and all(not line.startswith("{") for line in lines), lines[:3]
        board = served_view(at["engine"], at["state"], None)["board"]
        assert [line for line in lines if COORDINATE.search(line)], "the log names the hexes tiles were laid on"
        assert not [line for line in lines if misnamed_hexes(line, board)], [line for line in lines if misnamed_hexes(line, board)][:5]
        ends = page.page.eval_on_selector_all("[data-testid=value-chart] svg polyline",
                                              "els => els.map(e => e.getAttribute('points').split(' ').length)")
        result = detail(stack, at["table"])["result"]
        assert len(ends) == len(result["scores"]) and all(n == len(game.entries) + 1 for n in ends), ends
        page.page.locator("[data-testid=value-chart]").scroll_into_view_if_needed()
        shot(page, "result-chart-afresh", size)
        assert page.errors == []


# --- a whole game through the page ---------------------------------------------------------------

@pytest.mark.parametrize("size", list(SIZES))
def test_a_person_plays_a_whole_game_against_bots_through_the_page(size: str, stack: Stack18, chromium: Any) -> None:
    """A person (tests/web/g18i_person.py: reads the page, taps its controls) plays one seat of
    18Ireland against two heuristic bots to the end; the result screen is the API's result."""
    from tests.web.g18i_person import Person, result_rows

    status, created = http("POST", f"{stack.url}/api/tables", {"title": "18ireland", "seats": [
        {"name": "Ada"}, {"name": "Bot A", "kind": "bot", "level": "heuristic"},
        {"name": "Bot B", "kind": "bot", "level": "heuristic"}]})
    assert status == 201, created
    table = created["table"]
    with tab(chromium, SIZES[size]) as page:
        started = time.perf_counter()
        page.goto(created["seats"][0]["invite_url"])
        page.wait(LIVE, timeout_ms=20_000)
        person = Person(page)
        did = person.play()
        took = time.perf_counter() - started
        info = detail(stack, table)
        assert info["status"] == "finished" and info["result"] is not None, info
        result = info["result"]
        page.wait("document.body.dataset.over === 'true'")
        assert page.page.locator("[data-testid=actions]").is_hidden()
        rows = result_rows(page)
        assert sorted(rows) == sorted([s, result["ranks"][s], f"£{result['scores'][s]}"] for s in range(3)), rows
        panel = page.page.inner_text("[data-testid=result]")
        assert all(info["seats"][w]["name"] in panel for w in result["winners"]), panel
        print(f"whole game ({size}): {info['last_seq']} moves in {took:.0f}s, reason {result['reason']}, "
              f"scores {result['scores']}; the person's moves: {dict(did)}")
        page.page.locator("[data-testid=result]").scroll_into_view_if_needed()
        shot(page, "whole-game-result", size)
        assert page.errors == []
