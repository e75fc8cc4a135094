"""1841's board rules on the positions of a real game.

    python3 -m benchmarks.g1841_board_bench [EXPORT.json]

Walks an 1841 export through the board rules (the replay of tests/g1841/test_board_replay.py;
default: the first export in ../shared/fixtures/18xx.games/1841) and times, at each
corporation tile lay, `track.legal_lays` (every legal lay) and `track.check_lay` (the lay
made); at each token, `stations.legal_tokens`; at each run, `routes.best_routes` for the
trains run. Each call cold (every cache emptied first). Prints median and max per call; the
last line of stdout is JSON.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.games.core18xx.export_log import decisions  # noqa: E402
from shared.games.core18xx.memo import clear_all  # noqa: E402
from shared.games.g1841 import data as D  # noqa: E402
from shared.games.g1841.board import routes as R  # noqa: E402
from shared.games.g1841.board import stations as ST  # noqa: E402
from shared.games.g1841.board import track as T  # noqa: E402
from tests.exports import export_paths  # noqa: E402
from tests.g1841.test_board_replay import Replay  # noqa: E402


def ms(f) -> float:
    """One cold call: every board cache emptied first (a real caller would often hit them)."""
    clear_all()
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) * 1000


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else export_paths("1841")[0]
    game = json.loads(path.read_text())
    r = Replay(D.variant({k: True for k in game.get("settings", {}).get("optional_rules", [])}))
    times: dict[str, list[float]] = {"legal_lays": [], "check_lay": [], "legal_tokens": [], "best_routes": []}
    for a in decisions(game["actions"]):
        corp = a.get("entity")
        if a["type"] == "lay_tile" and a["entity_type"] == "corporation":
            fresh = r.last_lay_entity != corp or r.turn is None or r.turn[0] != corp
            start, laid = (r.b, []) if fresh else (r.turn[1], list(r.turn[2]))  # type: ignore[index]
            args = (r.m, r.b, r.variant, r.phase, corp, r.kinds[corp], start, laid)
            times["legal_lays"].append(ms(lambda: T.legal_lays(*args, order=r.order.get(corp))))
            times["check_lay"].append(ms(lambda: T.check_lay(*args, a["hex"], a["tile"].rpartition("-")[0],
                                                             a["rotation"], order=r.order.get(corp))))
        elif a["type"] == "place_token" and corp not in r.homes_due:
            times["legal_tokens"].append(ms(lambda: ST.legal_tokens(r.m, r.b, r.variant, r.phase, corp)))
        elif a["type"] == "run_routes":
            trains = [(x["train"], x["train"].partition("-")[0]) for x in a["routes"]]
            times["best_routes"].append(ms(lambda: R.best_routes(r.m, r.b, r.variant, r.phase, corp, trains)))
        if not r.step(a):
            break
    out = {name: {"calls": len(v), "median_ms": round(statistics.median(v), 1), "max_ms": round(max(v), 1)}
           for name, v in times.items() if v}
    for name, row in out.items():
        print(f"{name:13} {row['calls']:4} calls  median {row['median_ms']:7.1f} ms  max {row['max_ms']:7.1f} ms")
    print(json.dumps({"export": path.name, **out}))


if __name__ == "__main__":
    main()
