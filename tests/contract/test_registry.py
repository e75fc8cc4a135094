"""The title registry lists titles from their META alone and loads an engine when asked.

Each check runs in a fresh interpreter (sys.executable), since this process has loaded every
engine long before.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_PROBE = """
import json, sys
import shared.games as games
from services.offline.import_18xx import engine_for_export
def loaded():
    return sorted(m.split(".")[2] for m in sys.modules if m.startswith("shared.games.") and m.endswith(".engine"))
out = {"titles": games.titles(), "after_listing": loaded()}
out["names"] = [m.name for m in games.metas()]
out["after_metas"] = loaded()
games.get_engine("chicago-express")
out["after_one"] = loaded()
out["import_title"] = engine_for_export("1841").title
out["after_import_lookup"] = loaded()
print(json.dumps(out))
"""


def _probe() -> dict[str, list[str] | str]:
    done = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_listing_titles_loads_no_engine_and_asking_loads_only_that_one() -> None:
    seen = _probe()
    assert {"chicago-express", "18ireland", "1841", "rotw-england-wales"} <= set(seen["titles"])
    assert seen["after_listing"] == [] and seen["after_metas"] == []
    assert seen["after_one"] == ["chicago_express"]
    # An import finds its title by META.imports_18xx, loading that engine alone.
    assert seen["import_title"] == "1841"
    assert seen["after_import_lookup"] == ["chicago_express", "g1841"]
