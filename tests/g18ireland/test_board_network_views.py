"""A tiles view made for a board one lay away from an earlier one starts from that one's links
and compiled track, less what reads a changed hex: at every lay of random play and of the real
18Ireland exports, the inherited view must hold exactly what a view built from nothing holds,
and walks over it must reach exactly the same."""

from __future__ import annotations

import json

import pytest

from shared.games.core18xx.board import network as N
from shared.games.core18xx.board import state as B
from shared.games.g18ireland.map import board_map

from services.offline.import_18xx import import_export
from tests.exports import conformance_paths, export_id

from .test_board_state import play

M = board_map()
EXPORTS = conformance_paths("18Ireland")  # the shared fixtures and ROUNDHOUSE_EXTRA_EXPORTS


def _walks(b: B.BoardState) -> list[tuple]:
    """What every company with a token reaches, broad and narrow, and the cities each token
    reaches through all tokens."""
    out = []
    for corp in sorted({o for cities in b.tokens.values() for s in cities for o in s if o}):
        starts = N.token_nodes(M, b, corp)
        broad = N.walk(M, b, starts, corp, "broad")
        narrow = N.walk(M, b, sorted(broad.nodes), None, "narrow")
        free = N.walk(M, b, starts[:1], None, "broad")
        out += [(r.paths, r.nodes, r.hexes) for r in (broad, narrow, free)]
    return out


def _fresh_equals_inherited(b: B.BoardState) -> None:
    inherited = N.tiles_view(M, b)
    walked = _walks(b)
    N.forget_views()
    assert _walks(b) == walked
    fresh = N.tiles_view(M, b)
    assert fresh is not inherited
    for gauge, tracks in inherited.tracks.items():
        for coord, h in tracks.items():
            f = fresh.compile(coord, gauge)
            assert (h.paths, h.node_paths, h.cities) == (f.paths, f.node_paths, f.cities), (coord, gauge)
    for coord, links in inherited.linked.items():
        assert fresh.links(coord) == links, coord


def test_inherited_views_equal_fresh_ones_in_random_play():
    N.forget_views()
    inherited = 0
    for before, after, _, _ in play(7, 160):
        N.tiles_view(M, before)         # the parent, as a replay has it
        _walks(before)
        _fresh_equals_inherited(after)
        inherited += 1
    assert inherited > 100


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures "
                                        "(or $ROUNDHOUSE_SHARED): no real boards to compare")
@pytest.mark.parametrize("path", EXPORTS, ids=[export_id(p) for p in EXPORTS])
def test_inherited_views_equal_fresh_ones_at_every_real_lay(path) -> None:
    run = import_export(json.loads(path.read_text()))
    state = run.timeline.initial
    boards: list[B.BoardState] = []
    for seat, action in run.timeline.effective:
        state = run.engine.apply(state, seat, action)
        if not boards or state.board.tiles is not boards[-1].tiles:
            boards.append(state.board)
    assert len(boards) > 50
    N.forget_views()
    for before, after in zip(boards, boards[1:]):
        N.tiles_view(M, before)
        _walks(before)
        _fresh_equals_inherited(after)
