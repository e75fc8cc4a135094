"""Every tile lay, token and route of real 18Ireland games is legal and pays what it paid."""

import pytest

from .board_replay import Replay
from .export_replay import filtered_actions, fixtures, load


@pytest.mark.parametrize("path", fixtures("18Ireland"), ids=lambda p: p.name if p else "absent")
def test_replay_board(path):
    game = load(path)
    r = Replay(exact_every=6)
    for a in filtered_actions(game["actions"]):
        r.step(a)
    assert r.checked["lay"] > 50 and r.checked["route"] > 30 and r.checked["exact"] > 10
    assert r.checked["tile_ids"] == r.checked["lay"] and r.checked["merge"] >= 4
    assert r.failures == []
