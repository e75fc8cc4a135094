"""The board data file and its loader."""

from __future__ import annotations

import json

from shared.games.chicago_express.board import BOARD, DATA_FILE, axial, load_board


def hex_(hid: str) -> int:
    return BOARD.hex_index[hid]


def test_loader_reads_the_data_file() -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    assert load_board() == BOARD
    assert len(BOARD.hex_ids) == len(data["hexes"]) == 160
    assert [c.id for c in BOARD.companies] == ["PRR", "BO", "NYC", "CO", "WAB"]
    assert "reconstructed" in data["provenance"]


def test_companies_from_the_rule_book() -> None:
    shares = {c.id: c.shares for c in BOARD.companies}
    locos = {c.id: c.locomotives for c in BOARD.companies}
    income = {c.id: c.income for c in BOARD.companies if not c.opens_at_chicago}
    price = {c.id: c.opening_price for c in BOARD.companies if not c.opens_at_chicago}
    assert shares == {"PRR": 3, "BO": 4, "NYC": 5, "CO": 6, "WAB": 2}
    assert locos == {"PRR": 20, "BO": 22, "NYC": 24, "CO": 26, "WAB": 11}
    assert sum(locos.values()) == 103  # "103 dřevěných lokomotiv"
    assert income == price == {"PRR": 7, "BO": 6, "NYC": 8, "CO": 5}
    assert [BOARD.companies[c].id for c in BOARD.opening_auctions] == ["PRR", "BO", "CO", "NYC"]
    assert BOARD.starting_cash == {2: 60, 3: 40, 4: 30, 5: 24, 6: 20}
    assert all(n * cash == 120 for n, cash in BOARD.starting_cash.items())
    assert BOARD.houses == 20 and BOARD.build_limit == 3 and BOARD.forest_bonus == 2


def test_identified_hexes() -> None:
    starts = {BOARD.hex_ids[c.start_hex]: c.id for c in BOARD.companies}
    assert starts == {"R5": "PRR", "Q7": "BO", "S3": "NYC", "Q9": "CO", "D3": "WAB"}
    assert BOARD.hex_ids[BOARD.chicago] == "A2" and BOARD.names[BOARD.chicago] == "Chicago"
    assert BOARD.cost[BOARD.chicago] == 3 and BOARD.income[BOARD.chicago] == 7
    names = {hid: BOARD.names[hex_(hid)] for hid in ("E0", "I6", "K4", "D3", "Q3", "S3", "R5", "Q7", "Q9", "I9")}
    assert names == {
        "E0": "Detroit",
        "I6": "Wheeling",
        "K4": "Pittsburgh",
        "D3": "Fort Wayne",
        "Q3": "Binghamton",
        "S3": "New York",
        "R5": "Philadelphia",
        "Q7": "Baltimore",
        "Q9": "Washington",
        "I9": "Charleston",
    }
    fort_wayne = hex_("D3")
    assert (BOARD.terrain[fort_wayne], BOARD.income[fort_wayne], BOARD.house[fort_wayne]) == ("city", 1, 2)
    assert BOARD.house[hex_("I9")] == 1  # Charleston: the rule book's +1 example
    assert (BOARD.terrain[hex_("Q3")], BOARD.cost[hex_("Q3")]) == ("city", 2)
    assert (BOARD.terrain[hex_("R3")], BOARD.cost[hex_("R3")]) == ("forest", 2)
    for h, terrain in enumerate(BOARD.terrain):
        if terrain in ("city", "industrial"):
            assert BOARD.names[h], BOARD.hex_ids[h]


def test_industrial_tracks() -> None:
    """Start values and steps from the rule book ("na 1 (Detroit), na 3 (Wheeling) a na 4
    (Pittsburgh)"; "U Detroitu a Wheelingu se tedy příjmy zvyšují každým rozvojem o 1, u
    Pittsburghu o 2"; Detroit "do max. výše 8"); the Wheeling and Pittsburgh ends from the
    public transcription of the board (see provenance.sources in board.json)."""
    tracks = {BOARD.hex_ids[i.hex]: (i.track, i.self_developing) for i in BOARD.industries}
    assert tracks == {
        "E0": ((1, 2, 3, 4, 5, 6, 7, 8), True),
        "I6": ((3, 4, 5, 6), False),
        "K4": ((4, 6, 8), False),
    }
    assert all(BOARD.terrain[i.hex] == "industrial" for i in BOARD.industries)


def test_adjacency_is_odd_q_and_symmetric() -> None:
    assert axial("S3") == (18, -6) and axial("R3") == (17, -5)
    ids = lambda h: {BOARD.hex_ids[n] for n in BOARD.neighbours[hex_(h)]}  # noqa: E731
    assert ids("R3") == {"S3", "S4", "R2", "R4", "Q3", "Q4"}  # New York - forest - Binghamton
    assert ids("A2") == {"B2", "A3"}  # A1 and B1 are off the map
    for h, neighbours in enumerate(BOARD.neighbours):
        assert h not in neighbours and len(neighbours) <= 6
        for n in neighbours:
            assert h in BOARD.neighbours[n]


def test_every_hex_is_connected() -> None:
    seen = {0}
    todo = [0]
    while todo:
        for n in BOARD.neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert len(seen) == len(BOARD.hex_ids)


def test_exclusive_terrain_and_developable_hexes() -> None:
    for h, terrain in enumerate(BOARD.terrain):
        assert BOARD.shared[h] == (terrain in ("city", "industrial", "plain"))
    developable = {BOARD.hex_ids[h] for h in BOARD.developable}
    assert {"D3", "I6", "K4", "I9", "R3"} <= developable
    assert not {"A2", "E0", "S3", "R5", "Q7", "Q9"} & developable
    assert not any(BOARD.terrain[h] == "plain" for h in BOARD.developable)
