"""Where the real 18xx.games exports are: `../shared/fixtures/18xx.games/<title>/` beside the
repository root (read in place, never copied into the repository), or under the folder that
ROUNDHOUSE_SHARED names when a work tree sits elsewhere. Tests skip with a visible reason
when neither has them.

More real exports can be checked without touching the repository: ROUNDHOUSE_EXTRA_EXPORTS
names further folders (separated by os.pathsep), each laid out like fixtures/18xx.games
(`<folder>/<title>/*.json`); the conformance tests run over those as well."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXTRA_ENV = "ROUNDHOUSE_EXTRA_EXPORTS"


def export_dir(title: str) -> Path | None:
    env = os.environ.get("ROUNDHOUSE_SHARED")
    for base in (REPO.parent / "shared", *([Path(env)] if env else [])):
        folder = base / "fixtures" / "18xx.games" / title
        if folder.is_dir():
            return folder
    return None


def export_paths(title: str) -> list[Path]:
    """The shared fixtures' exports of `title` (the ones tests may rely on by content)."""
    folder = export_dir(title)
    return sorted(folder.glob("*.json")) if folder else []


def extra_dirs() -> list[Path]:
    """The folders ROUNDHOUSE_EXTRA_EXPORTS names, in order (empty entries ignored)."""
    return [Path(p) for p in os.environ.get(EXTRA_ENV, "").split(os.pathsep) if p.strip()]


def conformance_paths(title: str) -> list[Path]:
    """Every export of `title` to check against its own result: the shared fixtures, then
    those under each extra folder; the same game (same bytes) found twice counts once."""
    seen: set[str] = set()
    out: list[Path] = []
    for folder in (export_dir(title), *(d / title for d in extra_dirs())):
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.json")):
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if digest not in seen:
                seen.add(digest)
                out.append(path)
    return out


def export_id(path: Path) -> str:
    """A test id naming where an export comes from: the file name for the shared fixtures,
    `<extra folder>/<file>` for an extra one (names may repeat across folders)."""
    shared = export_dir(path.parent.name)
    return path.name if shared is not None and path.parent.resolve() == shared.resolve() \
        else f"{path.parent.parent.name}/{path.name}"
