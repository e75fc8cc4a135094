"""Instructions per import: what `import_export` costs, counted by valgrind, not timed.

    python3 -m benchmarks.import_instructions [--tree DIR ...] [--gc-off] [EXPORT.json ...]

Seconds on a shared machine swing with its load; the instructions a deterministic program
executes do not. For each tree (a checkout of this repository; default: this one) and each
export (default: the real 18Ireland exports), Python runs under `valgrind --tool=callgrind`
twice with the same hash seed: once importing the export once, once importing it twice. The
difference is one warm import (modules loaded, data compiled, caches as a second import finds
them), the figure to compare trees by; `cold` is the first import with everything it loads
(from bytecode caches, written by a run before the counted one).
Each tree is imported from its own directory with this interpreter. Prints one JSON line per
tree and export, in millions of instructions.

The cyclic collector runs a full collection when the objects that survived since the last
one reach a quarter of the long-lived heap, so when it strikes depends on everything else the
process holds (another title's engine loaded or not moves a full collection into or out of the
counted import: some 50 ms). `--gc-off` counts with the collector disabled, the code's own
work, to compare trees by alongside the default figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

_RUN = """
import gc, json, sys
from pathlib import Path
if sys.argv[3] == "off":
    gc.disable()
from services.offline.import_18xx import import_export
export = json.loads(Path(sys.argv[1]).read_text())
for _ in range(int(sys.argv[2])):
    import_export(export)
"""
_COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(tree: Path, export: Path, imports: int, gc: str = "on") -> int:
    # Bytecode caches written (a machine may turn them off): a cold start then reads them, as
    # an installed service does, instead of compiling every module.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONHASHSEED="0", PYTHONPATH=str(tree))
    with tempfile.NamedTemporaryFile("w", suffix=".py") as script:
        script.write(_RUN)
        script.flush()
        command = [sys.executable, script.name, str(export), str(imports), gc]
        subprocess.run(command, cwd=tree, env=env, capture_output=True, check=True)
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                              cwd=tree, env=env, capture_output=True, text=True, check=True)
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise SystemExit(f"import_instructions: valgrind printed no count for {export.name} in {tree}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", type=Path, help="a checkout to measure (repeatable)")
    parser.add_argument("--gc-off", action="store_true", help="count with the cyclic collector disabled")
    parser.add_argument("exports", nargs="*", type=Path)
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.tree or [Path(__file__).resolve().parents[1]]]
    if args.exports:
        exports = list(args.exports)
    else:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests.g18ireland.exports import export_paths
        exports = export_paths("18Ireland")
        if not exports:
            raise SystemExit("import_instructions: no 18Ireland exports found (../shared/fixtures or $ROUNDHOUSE_SHARED)")
    for export in exports:
        for tree in trees:
            gc = "off" if args.gc_off else "on"
            none, once, twice = (instructions(tree, export.resolve(), n, gc) for n in (0, 1, 2))
            print(json.dumps({"tree": str(tree), "export": export.stem, "gc": gc,
                              "warm_mi": round((twice - once) / 1e6, 1), "cold_mi": round((once - none) / 1e6, 1)}),
                  flush=True)


if __name__ == "__main__":
    main()
