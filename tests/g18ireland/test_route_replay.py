"""At every route run of real 18Ireland games, the best-route search finds at least what the
players ran, and its answer passes the route validator with the same total."""

import pytest

from shared.games.core18xx.board import autoroute as A
from shared.games.core18xx.board import routes as R

from .board_replay import DISTANCE, Replay
from .export_replay import filtered_actions, fixtures, load


@pytest.mark.parametrize("path", fixtures("18Ireland"), ids=lambda p: p.name if p else "absent")
def test_autoroute_at_least_players(path):
    r = Replay()
    runs = better = 0
    for a in filtered_actions(load(path)["actions"]):
        if a["type"] == "run_routes":
            corp = a["entity"]
            trains = [R.Train(x["train"], DISTANCE[x["train"].rpartition("-")[0]]) for x in a["routes"]]
            best = A.best_routes(r.m, r.b, r.ctx(corp), trains)
            played = sum(x["revenue"] for x in a["routes"])
            assert best.exact
            assert best.total >= played, f"action {a['id']}: {best.total} < {played}"
            _, total = R.run_routes(r.m, r.b, r.ctx(corp), {t.name: t for t in trains}, best.specs())
            assert total == best.total
            runs += 1
            better += best.total > played
        r.step(a)
    assert runs > 30
