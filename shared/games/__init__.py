"""The one registry of titles.

A title is a package under `shared/games/` whose `__init__.py` exports `META`
(`shared.engine.TitleMeta`) and `ENGINE`; packages without `META` (such as `core18xx`, the
machinery two titles share) are not titles. Every service, the bot kits, `GET
/api/titles`, the lobby and the API documents read this registry, so adding a title edits
nothing outside its package, its bot kit and its web module.

Extra titles (test titles, plug-ins) come from modules named in `ROUNDHOUSE_TITLE_MODULES`
(comma-separated; each exports `ENGINE`) or from `register(engine)` in-process.
"""

from __future__ import annotations

import os
import pkgutil
from importlib import import_module
from typing import Any

from shared.engine import Engine, RuleError, TitleMeta

ENV_MODULES = "ROUNDHOUSE_TITLE_MODULES"

_engines: dict[str, Engine[Any]] = {}
_discovered = False


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = import_module(f"{__name__}.{info.name}")
        if hasattr(module, "META") and hasattr(module, "ENGINE"):
            _add(module.ENGINE)
    for name in filter(None, (m.strip() for m in os.environ.get(ENV_MODULES, "").split(","))):
        _add(import_module(name).ENGINE)


def _add(engine: Engine[Any]) -> None:
    meta = engine.meta
    if engine.title != meta.id:
        raise ValueError(f"engine title {engine.title!r} differs from its META id {meta.id!r}")
    _engines[meta.id] = engine


def register(engine: Engine[Any]) -> None:
    """Add a title in this process (tests, plug-ins)."""
    _discover()
    _add(engine)


def titles() -> list[str]:
    _discover()
    return sorted(_engines)


def metas() -> list[TitleMeta]:
    return [get_engine(t).meta for t in titles()]


def get_engine(title: str) -> Engine[Any]:
    _discover()
    engine = _engines.get(title)
    if engine is None:
        raise RuleError("unknown_title", f"unknown title {title!r}; known: {', '.join(titles())}")
    return engine


def get_meta(title: str) -> TitleMeta:
    return get_engine(title).meta
