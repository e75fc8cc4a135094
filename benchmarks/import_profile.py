"""Where an 18xx.games import spends its time: cProfile of `import_export` over exports.

    python3 -m benchmarks.import_profile [--top 30] [--sort tottime] [EXPORT.json ...]

Each export (default: the shared 18Ireland fixtures) is imported once to warm the module-level
caches, then once more under cProfile with the collector off (so a collection's pause is not
charged to whichever function it interrupts). Prints the top functions, then one JSON line:
the profile's total seconds and its function calls. The call count does not depend on the
machine's load; compare totals only between trees profiled one after the other.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import pstats
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.collector import tune_gc  # noqa: E402
from services.offline.import_18xx import import_export  # noqa: E402
from tests.g18ireland.exports import export_paths  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("exports", nargs="*", type=Path, help="export files (default: the shared 18Ireland fixtures)")
    p.add_argument("--top", type=int, default=30, help="functions listed (default: 30)")
    p.add_argument("--sort", default="tottime", help="pstats sort key (default: tottime)")
    args = p.parse_args()
    tune_gc()
    paths = args.exports or export_paths("18Ireland")
    exports = [json.loads(path.read_text()) for path in paths]
    for export in exports:
        import_export(export)
    gc.collect()
    gc.disable()
    profile = cProfile.Profile()
    for export in exports:
        profile.enable()
        import_export(export)
        profile.disable()
    gc.enable()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats(args.sort).print_stats(args.top)
    print(out.getvalue(), file=sys.stderr)
    print(json.dumps({"exports": [path.name for path in paths], "total_s": round(stats.total_tt, 3),  # type: ignore[attr-defined]
                      "calls": stats.total_calls}))  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main())
