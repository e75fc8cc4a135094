"""The money view at the end of a real game is plain JSON and agrees with the replayed state
(players' values, presidents, market markers, depot, bank). 18xx money hides nothing, so the
view takes no seat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.games.core18xx import money_view as V
from shared.games.g18ireland import replay as R

from .board_standin import LayCosts
from .exports import export_paths

EXPORTS = export_paths("18Ireland")


@pytest.mark.skipif(not EXPORTS, reason="18Ireland exports not found in ../shared/fixtures (set ROUNDHOUSE_SHARED)")
def test_view_of_a_finished_game() -> None:
    export = json.loads(EXPORTS[0].read_text())
    rp = R.replay(export, LayCosts())
    out = V.view(rp.money, rp.depot)
    text = json.dumps(out)                                   # plain JSON
    assert json.loads(text) == out
    values = R.result(rp)
    for p in out["players"]:
        shares = sum(rp.money.cert_price(s, pct) for s, pct in p["shares"].items()
                     if not rp.money.corps[s].closed)
        assert p["cash"] + shares + sum(R.COMPANY_VALUES[c] for c in p["privates"]) == values[p["id"]]
    live = [c for c in out["companies"] if c["started"] and not c["closed"]]
    assert live and all(c["president"] in rp.money.players for c in live)
    marked = [s for cell in out["market"]["markers"].values() for s in cell]
    assert sorted(marked) == sorted(c["sym"] for c in live)
    assert out["depot"]["phase"] == rp.depot.current_phase.name and out["bank"] == rp.money.cash["bank"]
