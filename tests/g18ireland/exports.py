"""Where the 18xx.games exports are: ../shared beside the repo root (never copied into the repo),
or the folder named by ROUNDHOUSE_SHARED where a work tree sits elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def export_paths(title: str) -> list[Path]:
    for base in (REPO.parent / "shared", Path(os.environ.get("ROUNDHOUSE_SHARED", "/nonexistent"))):
        folder = base / "fixtures" / "18xx.games" / title
        if folder.is_dir():
            return sorted(folder.glob("*.json"))
    return []
