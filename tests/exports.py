"""Where the real 18xx.games exports are: `../shared/fixtures/18xx.games/<title>/` beside the
repository root (read in place, never copied into the repository), or under the folder that
ROUNDHOUSE_SHARED names when a work tree sits elsewhere. Tests skip with a visible reason
when neither has them."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def export_dir(title: str) -> Path | None:
    env = os.environ.get("ROUNDHOUSE_SHARED")
    for base in (REPO.parent / "shared", *([Path(env)] if env else [])):
        folder = base / "fixtures" / "18xx.games" / title
        if folder.is_dir():
            return folder
    return None


def export_paths(title: str) -> list[Path]:
    folder = export_dir(title)
    return sorted(folder.glob("*.json")) if folder else []
