"""Registry of titles. Each title is a package exposing `ENGINE`, an object meeting `shared.engine.Engine`."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from shared.engine import Engine, RuleError

_PACKAGES = {
    "chicago-express": "shared.games.chicago_express",
}

_loaded: dict[str, Engine[Any]] = {}


def titles() -> list[str]:
    return sorted(_PACKAGES)


def get_engine(title: str) -> Engine[Any]:
    engine = _loaded.get(title)
    if engine is None:
        package = _PACKAGES.get(title)
        if package is None:
            raise RuleError("unknown_title", f"unknown title {title!r}; known: {', '.join(titles())}")
        engine = import_module(package).ENGINE
        _loaded[title] = engine
    return engine
