"""Replaying the board side of real 18xx.games exports (tile lays, tokens, routes).

Fixtures are found by tests/exports.py; tests skip with a visible reason when they are absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.games.core18xx.export_log import live_actions

from tests.exports import export_dir

ROOT = Path(__file__).resolve().parents[2]


def fixtures(title: str) -> list:
    """The title's exports as parameters; one visibly skipped parameter when they are absent."""
    d = export_dir(title)
    if d is None:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"18xx.games {title} exports not found (../shared/fixtures or ROUNDHOUSE_SHARED)"))]
    return sorted(d.glob("*.json"))


def filtered_actions(actions: list[dict]) -> list[dict]:
    """The live actions (undo/redo folded as 18xx.games does), without chat."""
    return [a for a in live_actions(actions) if a["type"] != "message"]


def load(path: Path) -> dict:
    return json.loads(path.read_text())
