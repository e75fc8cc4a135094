"""Replaying the board side of real 18xx.games exports (tile lays, tokens, routes).

Fixtures live beside the repository (`../shared/fixtures/18xx.games/`, or two levels up for a
helper's worktree); tests skip with a visible reason when they are absent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def fixture_dir(title: str) -> Path:
    for base in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        d = base / "fixtures" / "18xx.games" / title
        if d.is_dir():
            return d
    pytest.skip(f"18xx.games fixtures for {title} not found beside the repository (../shared/fixtures)")


def fixtures(title: str) -> list[Path]:
    return sorted(fixture_dir(title).glob("*.json"))


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
