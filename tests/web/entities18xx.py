"""The 18xx page's per-title data files (`services/web/app/core18xx/g*_data.js`: names, colours,
privates or concessions, the train roster), generated from each title's entities.json; the page
tests keep them equal. `python -m tests.web.entities18xx` writes them all."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "services" / "web" / "app" / "core18xx"

HEADER = """// @ts-check
// {title}'s facts the page shows (names, colours, {privates}, the train roster), generated from
// shared/games/{pkg}/entities.json by tests/web/entities18xx.py (a test keeps them equal).
// Do not edit by hand.
export const ENTITIES = """


def _corp(c: dict[str, Any]) -> dict[str, Any]:
    out = {"name": c["name"], "type": c["type"], "color": c.get("color", "#888"), "text": c.get("text_color", "white")}
    if "historical" in c:
        out["historical"] = bool(c["historical"])
    return out


def _trains(trains: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"name": t["name"], "distance": t.get("distance"), "price": t["price"], "rusts_on": t.get("rusts_on"),
             "num": t["num"]} for t in trains]


def entities(pkg: str) -> dict[str, Any]:
    e = json.loads((REPO / "shared" / "games" / pkg / "entities.json").read_text())
    corporations = {c["sym"]: _corp(c) for c in e["corporations"]}
    trains_by_variant = {}
    # 1841's option sets change some corporations and the roster: every corporation any set
    # plays (the view says which type each is now), each set's roster by its data-set name
    for name, change in e.get("variants", {}).items():
        for c in change.get("corporations", {}).values():
            corporations.setdefault(c["sym"], _corp(c))
        if "trains" in change:
            trains_by_variant[name] = _trains(change["trains"])
    out: dict[str, Any] = {
        "corporations": corporations,
        "privates": {c["sym"]: {"name": c["name"], "value": c["value"], "revenue": c["revenue"], "desc": c.get("desc", "")}
                     for c in e["companies"]},
        "trains": _trains(e["trains"]),
    }
    if trains_by_variant:
        out["trains_by_variant"] = trains_by_variant
    return out


TITLES = {"g18ireland": ("18Ireland", "privates"), "g1841": ("1841", "concessions")}


def path(pkg: str) -> Path:
    return PAGE / f"{pkg}_data.js"


def entities_js(pkg: str) -> str:
    title, privates = TITLES[pkg]
    return HEADER.format(title=title, privates=privates, pkg=pkg) + json.dumps(entities(pkg), indent=1, ensure_ascii=False) + ";\n"


if __name__ == "__main__":
    for pkg in TITLES:
        path(pkg).write_text(entities_js(pkg))
