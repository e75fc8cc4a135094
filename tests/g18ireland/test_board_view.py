"""The board view is plain JSON and shows what the state holds."""

import json

from shared.games.core18xx.board import state as B
from shared.games.core18xx.board.view import board_view
from shared.games.g18ireland.map import PHASE_COLORS, board_map

M = board_map()


def test_board_view_is_json_and_reflects_state():
    b = B.place_token(M, B.initial(M), "DER", "I9", 0)
    b = B.lay(M, b, "I9", "IR2", 0)
    v = board_view(M, b, PHASE_COLORS["2"])
    json.dumps(v)
    assert len(v["hexes"]) == 88 and v["layout"] == "flat"
    by = {h["hex"]: h for h in v["hexes"]}
    i9 = by["I9"]
    assert i9["tile"] == "IR2" and i9["color"] == "yellow" and i9["label"] == "DD"
    city = next(n for n in i9["nodes"] if n["kind"] == "city")
    assert city["slots"] == ["DER"] and city["id"] == "I9-1" and city["edges"] == [2, 3]
    assert {"a": 0, "b": "n0", "track": "broad"} in i9["paths"]
    assert by["I11"]["tile"] is None and by["I11"]["name"] == "Dublin"
    assert by["I11"]["nodes"][1]["reserved"] == ["DDR"]
    assert by["D14"]["borders"] == [2] and by["I15"]["cost"] == 100
    assert v["tiles"].get("IR2") is None and v["tiles"]["IR5"] == 14
    im = board_view(M, B.lay(M, b, "F0", "IM", 1), PHASE_COLORS["4"])
    f0 = next(h for h in im["hexes"] if h["hex"] == "F0")
    assert f0["nodes"][0]["revenue"] == 20 and f0["nodes"][0]["phase_revenue"]["brown"] == 50
