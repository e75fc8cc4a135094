"""A private whose ability works at any point of its owning company's turn (18xx.games'
`when: owning_corp_or_turn`: DCR's lay, CDSPC's and TASPS's assignment) keeps the company's
last step, buying privates, open for a pass while the ability is unused (18xx.games'
`BuyCompany#actions`); once it is used, a step with nothing else to decide ends the turn.
Hand-built positions."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.families import expand
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.g18ireland.operating_round import OPERATING

from .positions import ENGINE, M, operating

PASS = A.Pass(entity="LER", entity_type="corporation")


def _at_buy_company(companies: dict[str, str], **kw: Any) -> Any:
    """LER (home Londonderry, G1) reaching Drumglass (H4) over G3, phase 2 (privates cannot
    be bought), at its last step."""
    b = B.place_token(M, B.initial(M), "LER", "G1", 0)
    for coord, tile, rotation in (("G1", "5", 0), ("G3", "8", 3)):
        b = B.lay(M, b, coord, tile, rotation)
    return operating(b, "LER", presidents={"LER": "0"}, cash={"LER": 100}, companies=companies, phase="2",
                     stage="buy_company", **kw)


def _legal(state: Any) -> list[Any]:
    return [a for la in ENGINE.legal_actions(state, 0) for a in expand(la)]


def _turn_over(state: Any) -> bool:
    op = state.operating
    return op is None or op.turn is None or op.turn.corp != "LER" or op.turn.stage == "done"


def test_an_unused_drumglass_keeps_the_turn_open_until_a_pass() -> None:
    state = _at_buy_company({"DCR": "LER"})
    assert ENGINE.active_seats(state) == {0} and PASS in _legal(state)
    assert _turn_over(ENGINE.apply(state, 0, PASS))


def test_using_drumglass_at_the_last_step_ends_the_turn() -> None:
    state = _at_buy_company({"DCR": "LER"})
    lay = next(a for a in _legal(state) if isinstance(a, A.LayTile) and a.entity == "DCR")
    after = ENGINE.apply(state, 0, lay)
    assert B.tile_at(M, after.board, "H4").tile.color == "yellow"
    assert _turn_over(after)


def test_a_used_drumglass_does_not_hold_the_step() -> None:
    """The operating round, moving on from where the company stands: with DCR's lay used there is
    nothing to decide at the last step (phase 2: no private can be bought), so the turn ends;
    with it unused, the step waits."""
    state = _at_buy_company({"DCR": "LER"})
    assert not _turn_over(OPERATING.advance(state))
    assert _turn_over(OPERATING.advance(msgspec.structs.replace(state, special_used={"DCR": 1})))


def test_an_unassigned_port_private_waits_and_its_assignment_ends_the_turn() -> None:
    state = _at_buy_company({"TASPS": "LER"})
    legal = _legal(state)
    assign = next(a for a in legal if isinstance(a, A.Assign))
    assert PASS in legal and assign.target == "C13"
    after = ENGINE.apply(state, 0, assign)
    assert "TASPS" not in after.money.companies and after.assigned["TASPS"] == ("C13", "LER")
    assert _turn_over(after)
