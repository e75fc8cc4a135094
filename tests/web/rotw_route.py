"""Laying a tile on the England & Wales page as a person does: pick the hex, tap the neighbour
the track goes to (and the one it comes from, when there is a choice), look at the tile drawn
on the map, then confirm. Shared by the scripted persons of both games and the tap test."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shared.games.rotw_england_wales.board import get_board, raw_neighbour

from tests.web.rotw_geometry import between, ends

BOARD = get_board("england_wales")
ROUTE_TARGETS = "svg.map .hex.target[data-kind={kind}]"
READ_ROUTES = "els => els.map(e => [e.dataset.hex, e.dataset.route])"


def option_hexes(page: Any, testid: str) -> list[str]:
    """The hexes a pick list offers (its options carry the hex; their text is the place's name)."""
    return page.eval_on_selector_all(f"[data-testid={testid}] option:not([disabled])", "els => els.map(e => e.dataset.hex)")


def tap(page: Any, hex_id: str, rng: random.Random) -> None:
    """A tap on a highlighted hex of the map, or its keyboard equivalent."""
    el = page.locator(f'svg.map .hex.target[data-hex="{hex_id}"]').first
    if rng.random() < 0.7:
        el.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
        el.click()
    else:
        el.focus()
        el.press("Enter")


def wait_for(page: Any, js: str) -> None:
    page.wait_for_function(js, timeout=5_000)


def choose_route(page: Any, hex_id: str, score: Callable[[int, int], float], rng: random.Random,
                 entry: int | None = None) -> tuple[int, int]:
    """With `hex_id` picked, tap the way in (if asked) and the best-scored way out (lowest score),
    check the previewed tile is drawn on exactly those edges, and return (entry, exit) — not yet
    confirmed. `entry`: the way in to take when asked (else a random one)."""
    wait_for(page, "document.querySelector('[data-testid=routes], [data-testid=route-entries]') !== null")
    if page.locator("[data-testid=route-entries]").count():
        entries = page.eval_on_selector_all(ROUTE_TARGETS.format(kind="route-entry"), READ_ROUTES)
        assert entries, f"asked where the track into {hex_id} comes from, but no neighbour is highlighted"
        want = [h for h, r in entries if entry is not None and int(r.split(",")[0]) == entry]
        tap(page, want[0] if want else rng.choice(entries)[0], rng)
        wait_for(page, "document.querySelector('[data-testid=routes]') !== null")
    exits = page.eval_on_selector_all(ROUTE_TARGETS.format(kind="route-exit"), READ_ROUTES)
    assert exits, f"no way out of {hex_id} highlighted on the map"
    routes = [(h, *map(int, r.split(","))) for h, r in exits]
    for h, _entry, exit_ in routes:  # each highlighted neighbour is the hex across its exit edge
        assert raw_neighbour(BOARD.layout, hex_id, exit_) == h, (hex_id, exit_, h)
    to, entry, exit_ = min(routes, key=lambda r: score(r[1], r[2]))
    assert all(r[1] == entry for r in routes), routes  # one way in at a time
    tap(page, to, rng)
    wait_for(page, f"document.querySelector('[data-testid=track-preview][data-hex=\"{hex_id}\"][data-exit=\"{exit_}\"]') !== null")
    d = page.get_attribute(f'[data-testid=track-preview][data-hex="{hex_id}"]', "d")
    drawn = ends(d or "")
    edge_points = {between(BOARD.layout, hex_id, raw_neighbour(BOARD.layout, hex_id, e)) for e in (entry, exit_)}
    assert all(min(abs(p[0] - w[0]) + abs(p[1] - w[1]) for p in drawn) < 0.2 for w in edge_points), \
        (hex_id, entry, exit_, drawn, edge_points)
    return entry, exit_


def confirm(page: Any) -> None:
    page.locator("[data-testid=confirm-build]").first.click()
