"""Logs recorded under the earlier rules (rules version 1), replayed under the fixed ones.

Version 1 resolved Chicago only when the build completed, so a log of a build that went
on after Chicago holds the rest of the build *before* the first Wabash auction. Under the
book ("Pokaždé, když … umístí svoji lokomotivu na pole Chicago …, je hra přerušena") the
auction comes first, so such a log must stop at the first action that no longer fits,
with its index and the reason, not fold into a different game.

Offers keep their meaning: a version-1 `offer` always carried an amount, which is still
"offer with the first bid"; only the amount-less offer (a pass) is new.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared.games.chicago_express.actions import Build
from shared.games.chicago_express.board import BOARD
from shared.games.chicago_express.state import AUCTION, BUILD

from services.offline.errors import OfflineError
from services.offline.replay import fold_log
from services.offline.table_log import decode_log, encode_log

from .positions import ENGINE
from .test_properties import westward

REPO = Path(__file__).resolve().parents[2]


def westward_game(n: int, seed: int) -> tuple[list[str], list[tuple[int, Any]]]:
    rng = random.Random(seed)
    players = [f"p{k}" for k in range(n)]
    state = ENGINE.setup(players, {}, 0)
    actions: list[tuple[int, Any]] = []
    while ENGINE.active_seats(state):
        [seat] = ENGINE.active_seats(state)
        action = westward(state, seat, rng)
        state = ENGINE.apply(state, seat, action)
        actions.append((seat, action))
    return players, actions


def as_version_1(actions: list[tuple[int, Any]]) -> tuple[list[tuple[int, Any]], int] | None:
    """The log as version 1 recorded it: the first Wabash auction moved after the build it
    interrupted. Returns it with the index of the first build action that now comes too
    early, or None when no build went on after reaching Chicago first."""
    state = ENGINE.setup([f"p{k}" for k in range(1 + max(seat for seat, _ in actions))], {}, 0)
    for i, (seat, action) in enumerate(actions):
        state = ENGINE.apply(state, seat, action)
        if not (isinstance(action, Build) and action.hex == BOARD.hex_ids[BOARD.chicago]):
            continue
        if state.phase != AUCTION or state.build is None:
            return None  # a later arrival, or Chicago as the third locomotive
        j = i + 1
        while state.phase == AUCTION:
            state = ENGINE.apply(state, *actions[j])
            j += 1
        k = j
        while state.phase == BUILD:
            state = ENGINE.apply(state, *actions[k])
            k += 1
        old = actions[: i + 1] + actions[j:k] + actions[i + 1 : j] + actions[k:]
        return old, i + 1
    return None


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """A westward game whose build went on after reaching Chicago first: its log as this
    version records it, the same game as version 1 recorded it, and the index of the
    first action version 1 put too early (a build)."""
    for seed in range(200):
        players, actions = westward_game(3, seed)
        found = as_version_1(actions)
        if found is not None and isinstance(found[0][found[1]][1], Build):
            old, index = found
            folder = tmp_path_factory.mktemp("logs")
            (folder / "version1.json").write_bytes(encode_log("chicago-express", {}, players, 0, old))
            (folder / "version2.json").write_bytes(encode_log("chicago-express", {}, players, 0, actions))
            return folder / "version1.json", folder / "version2.json", index
    raise AssertionError("no westward game built on after reaching Chicago first")


EXPECTED_REASON = (
    "wrong_phase: build is not possible now: bid or pass: the build is interrupted since it "
    "reached Chicago, and the first Wabash share is auctioned; the build goes on after it"
)


def test_a_version_1_log_stops_at_the_build_that_came_before_the_wabash_auction(logs) -> None:
    old, _, index = logs
    with pytest.raises(OfflineError) as info:
        fold_log(decode_log(old.read_bytes()))
    assert info.value.line == f"action {index}: {EXPECTED_REASON}"
    assert info.value.exit_code == 1
    entry = json.loads(old.read_text())["actions"][index]["action"]
    assert entry["type"] == "build"


def test_roundhouse_replay_reports_the_action_index_and_the_reason(logs) -> None:
    old, _, index = logs
    proc = subprocess.run(
        [sys.executable, "-m", "services.cli", "replay", str(old)],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.splitlines() == [f"action {index}: {EXPECTED_REASON}"]


def test_the_same_game_in_the_books_order_replays_to_its_end(logs) -> None:
    _, new, _ = logs
    timeline = fold_log(decode_log(new.read_bytes()))
    result = ENGINE.result(timeline.state)
    assert result is not None and result.scores == timeline.state.cash
