"""The seeded set-up reproduces 18xx.games: for each real export, the privates and minors our draw
leaves in the game are exactly the ones its players used, and the removed minor never appears."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.games.core18xx.ruby_random import RAND_M, Lcg18xx
from shared.games.g18ireland.setup_random import draw_setup

from .exports import export_paths

DATA = json.loads((Path(__file__).resolve().parents[2] / "shared/games/g18ireland/entities.json").read_text())
COMPANIES = [c["sym"] for c in DATA["companies"]]
MINORS = [c["sym"] for c in DATA["corporations"] if c["type"] == "minor"]
EXPORTS = export_paths("18Ireland")


def test_generator_steps() -> None:
    rng = Lcg18xx.from_seed(1)
    value, rng2 = rng.next()
    assert value == (1_103_515_245 + 12_345) % RAND_M and rng2.state == value and rng.state == 1
    assert Lcg18xx.from_seed(RAND_M + 5).state == 5
    assert Lcg18xx.from_seed(-1).state == RAND_M - 1
    items, _ = Lcg18xx.from_seed(7).sort_by_rand(list("abcdef"))
    assert sorted(items) == list("abcdef")


def test_draw_keeps_protected_and_counts() -> None:
    for seed in range(0, 50):
        setup = draw_setup(seed, COMPANIES, MINORS)
        assert len(setup.companies) == 5 and {"DAR", "DK"} <= set(setup.companies)
        assert setup.minors[0] == "DKR" and setup.removed_minor != "DKR"
        assert len(setup.minors) == len(MINORS) - 1
        assert set(setup.minors) | {setup.removed_minor} == set(MINORS)


def used_entities(export: dict) -> tuple[set[str], list[str]]:
    companies: set[str] = set()
    corporations: list[str] = []
    for action in export["actions"]:
        if action.get("company"):
            companies.add(action["company"])
        for sym in (action.get("corporation"), action["entity"] if action["entity_type"] == "corporation" else None):
            if sym and sym not in corporations:
                corporations.append(sym)
    return companies, corporations


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
@pytest.mark.parametrize("path", EXPORTS, ids=[p.name for p in EXPORTS])
def test_draw_matches_export(path: Path) -> None:
    export = json.loads(path.read_text())
    setup = draw_setup(export["settings"]["seed"], COMPANIES, MINORS)
    companies, corporations = used_entities(export)
    # every private auctioned in the export is one we kept (and all five were sold: 18Ireland's
    # waterfall auction sells every private before the first stock round)
    assert companies == set(setup.companies)
    used_minors = [c for c in corporations if c in MINORS]
    assert setup.removed_minor not in used_minors
    # Minors can only start in queue order, so the order they first appear in follows our order.
    queue = [m for m in setup.minors if m in used_minors]
    starts = [a["corporation"] for a in export["actions"] if a["type"] in ("bid", "par")
              and a.get("corporation") in MINORS]
    first_starts = list(dict.fromkeys(starts))
    assert first_starts == [m for m in queue if m in first_starts]
