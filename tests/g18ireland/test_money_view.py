"""The view at the end of every real game, as the import leaves it, is plain JSON, the same for
every seat (18xx money hides nothing), and agrees with the state and the result: each player's
cash + shares + privates is exactly the value the result scores (and the export's own final
value), the live companies' presidents are players, the market markers are exactly the live
companies, the phase and the bank are the state's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.games.g18ireland.flow import COMPANY_VALUES

from tests.exports import EXTRA_ENV, conformance_paths, export_id

from .imported import ENGINE, imported

CONFORMANCE = conformance_paths("18Ireland")


@pytest.mark.skipif(not CONFORMANCE, reason="no 18Ireland exports in ../shared/fixtures, $ROUNDHOUSE_SHARED "
                                               f"or ${EXTRA_ENV}")
@pytest.mark.parametrize("path", CONFORMANCE, ids=[export_id(p) for p in CONFORMANCE])
def test_the_view_of_a_finished_game_adds_up_to_its_result(path: Path) -> None:
    game = imported(path)
    state = game.run.timeline.state
    money = state.money
    out = ENGINE.view(state, None)
    assert json.loads(json.dumps(out)) == out                   # plain JSON
    # the same for every seat, apart from the seat's own programs (shown to it alone)
    assert all({k: v for k, v in ENGINE.view(state, seat).items() if k != "programs"} == out
               for seat in range(len(state.players)))
    assert out["position"]["round"] == "over"

    result = ENGINE.result(state)
    assert result is not None
    exported = {str(k): v for k, v in game.export["result"].items()}   # 18xx.games' own final values
    assert sorted(p["seat"] for p in out["players"]) == list(range(len(state.players)))
    for p in out["players"]:
        shares = sum(money.cert_price(sym, pct) for sym, pct in p["shares"].items() if not money.corps[sym].closed)
        value = p["cash"] + shares + sum(COMPANY_VALUES[c] for c in p["privates"])
        assert value == result.scores[p["seat"]], p
        assert value == exported[game.run.ids[p["seat"]]]
        assert p["name"] == state.seats[p["seat"]]

    live = [c for c in out["companies"] if c["started"] and not c["closed"]]
    assert live and all(c["president"] in state.players for c in live)
    marked = [sym for cell in out["market"]["markers"].values() for sym in cell]
    assert sorted(marked) == sorted(c["sym"] for c in live)
    assert out["depot"]["phase"] == state.depot.current_phase.name
    assert out["bank"] == money.cash["bank"]
