"""The one registry of titles.

A title is a package under `shared/games/` whose `__init__.py` exports `META`
(`shared.engine.TitleMeta`) and `ENGINE`; packages without `META` (such as `core18xx`, the
machinery two titles share) are not titles. Every service, the bot kits, `GET
/api/titles`, the lobby and the API documents read this registry, so adding a title edits
nothing outside its package, its bot kit and its web module.

Listing titles reads their `META` alone; a title's engine (its rules, data and caches) loads
the first time it is asked for (`loads_engine_lazily`), so a process that plays or imports one
title does not pay for the others.

Extra titles (test titles, plug-ins) come from modules named in `ROUNDHOUSE_TITLE_MODULES`
(comma-separated; each exports `ENGINE`) or from `register(engine)` in-process.
"""

from __future__ import annotations

import os
import pkgutil
from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import Any

from shared.engine import Engine, RuleError, TitleMeta

ENV_MODULES = "ROUNDHOUSE_TITLE_MODULES"

_metas: dict[str, TitleMeta] = {}
_packages: dict[str, ModuleType] = {}  # title id -> its package, whose ENGINE is not loaded yet
_engines: dict[str, Engine[Any]] = {}
_discovered = False


def loads_engine_lazily(package: str) -> Callable[[str], Any]:
    """A title package's module `__getattr__`: `ENGINE` comes from its `engine` module on first
    use (`__getattr__ = loads_engine_lazily(__name__)` beside `META`)."""

    def __getattr__(name: str) -> Any:
        if name == "ENGINE":
            return import_module(f"{package}.engine").ENGINE
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = import_module(f"{__name__}.{info.name}")
        meta = getattr(module, "META", None)
        if isinstance(meta, TitleMeta):
            _metas[meta.id] = meta
            _packages[meta.id] = module
    for name in filter(None, (m.strip() for m in os.environ.get(ENV_MODULES, "").split(","))):
        _add(import_module(name).ENGINE)


def _add(engine: Engine[Any]) -> None:
    meta = engine.meta
    if engine.title != meta.id:
        raise ValueError(f"engine title {engine.title!r} differs from its META id {meta.id!r}")
    _metas[meta.id] = meta
    _packages.pop(meta.id, None)
    _engines[meta.id] = engine


def register(engine: Engine[Any]) -> None:
    """Add a title in this process (tests, plug-ins)."""
    _discover()
    _add(engine)


def titles() -> list[str]:
    _discover()
    return sorted(_metas)


def metas() -> list[TitleMeta]:
    return [get_meta(t) for t in titles()]


def get_engine(title: str) -> Engine[Any]:
    _discover()
    engine = _engines.get(title)
    if engine is not None:
        return engine
    package = _packages.get(title)
    if package is None:
        raise RuleError("unknown_title", f"unknown title {title!r}; known: {', '.join(titles())}")
    engine = package.ENGINE
    if engine.meta is not _metas[title]:
        raise ValueError(f"title {title!r}: the package's META is not its engine's")
    _add(engine)
    return engine


def get_meta(title: str) -> TitleMeta:
    _discover()
    meta = _metas.get(title)
    if meta is None:
        raise RuleError("unknown_title", f"unknown title {title!r}; known: {', '.join(titles())}")
    return meta
