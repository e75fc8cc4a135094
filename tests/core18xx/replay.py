"""Replaying the board side of real 18xx.games exports (tile lays, tokens, routes).

Fixtures are found by tests/exports.py; tests skip with a visible reason when they are absent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
    """Fold undo/redo the way 18xx.games does (undo to an action id, or the last action)."""
    kept: list[dict | None] = [None] * len(actions)
    undos: list[list[tuple[dict, int]]] = []
    for i, a in enumerate(actions):
        t = a["type"]
        if t == "undo":
            target = a.get("action_id")
            if target is not None:
                start = 0 if target == 0 else next(k for k, x in enumerate(actions) if x["id"] == target) + 1
            else:
                start = max((k for k in range(i) if kept[k] is not None and kept[k]["type"] != "message"), default=0)
            batch = []
            for k in range(start, i):
                x = kept[k]
                if x is None or x["type"] == "message":
                    continue
                kept[k] = None
                batch.append((x, k))
            undos.append(batch)
        elif t == "redo":
            for x, k in undos.pop():
                kept[k] = x
        elif t == "message":
            kept[i] = a
        else:
            undos.clear()
            kept[i] = a
    return [a for a in kept if a is not None and a["type"] != "message"]


def load(path: Path) -> dict:
    return json.loads(path.read_text())
