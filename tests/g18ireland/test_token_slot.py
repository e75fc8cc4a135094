"""Which slot a station token takes, and which slot an action may name (18xx.games
`Part::City#get_slot` and `Step::Tokener#place_token`: the token goes to the company's
reservation, else the city's first open slot; the slot the player clicked is recorded and
otherwise ignored, and the client lets him click any empty slot). Hand-built positions."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError, is_program
from shared.families import expand
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland.state import Pending

from .positions import ENGINE, M, operating


def _enniskillen(extra: str | None = None) -> object:
    """F6 (two slots) upgraded to IR11 after both its minors closed (their reservations
    gone); MGWR, just parred, must place its home; DDR was operating. With `extra`, that
    company already holds F6's first slot."""
    b = B.unreserve(B.unreserve(B.initial(M), "EBSR"), "SLNCR")
    b = B.place_token(M, B.lay(M, b, "F6", "IR11", 3), "DDR", "I11", 1)
    if extra:
        b = B.place_token(M, b, extra, "F6", 0)
    return operating(b, "DDR", presidents={"DDR": "0", "MGWR": "1"}, pending=[Pending("MGWR", "home")])


def _place(slot: int) -> A.PlaceToken:
    return A.PlaceToken(entity="MGWR", entity_type="corporation", city="IR11-0-0", slot=slot, tokener="MGWR")


def test_a_token_naming_the_second_empty_slot_still_takes_the_first() -> None:
    state = _enniskillen()
    for slot in (0, 1):
        after = ENGINE.apply(state, 1, _place(slot))
        assert B.slots(M, after.board, "F6") == (("MGWR", ""),)
        assert after.pending == []


def _moves(state, seat: int) -> list:
    """The seat's legal moves, without the programs it may set at any time."""
    return [la for la in ENGINE.legal_actions(state, seat) if not is_program(la.action)]


def test_every_empty_slot_is_offered_the_one_the_token_takes_first() -> None:
    state = _enniskillen()
    [family] = _moves(state, 1)
    assert [(a.city, a.slot) for a in expand(family)] == [("IR11-0-0", 0), ("IR11-0-0", 1)]
    held = _enniskillen(extra="GNWR")
    [family] = _moves(held, 1)
    assert [(a.city, a.slot) for a in expand(family)] == [("IR11-0-0", 1)]


@pytest.mark.parametrize("slot", [0, 2])
def test_a_slot_holding_a_token_or_beyond_the_city_is_refused_and_nothing_changes(slot: int) -> None:
    state = _enniskillen(extra="GNWR")
    before = msgspec.msgpack.encode(state)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 1, _place(slot))
    assert err.value.code == "wrong_slot"
    assert msgspec.msgpack.encode(state) == before
    after = ENGINE.apply(state, 1, _place(1))
    assert B.slots(M, after.board, "F6") == (("GNWR", "MGWR"),)


def test_a_reserved_home_slot_wins_over_the_slot_named() -> None:
    """Maryborough (G13) holds CIR's and KJR's homes, CIR's reservation in slot 0: CIR naming
    slot 1 (empty, KJR's) still places in slot 0, and KJR's slot stays KJR's."""
    state = operating(B.initial(M), "CIR", presidents={"CIR": "0", "KJR": "1"})
    spots = BO.home_spots(state, "CIR")
    board = BO.place(state, "CIR", "G13", spots[0].city, spots, 1)
    assert B.slots(M, board, "G13")[spots[0].city] == ("CIR", "")
    assert [r.corp for r in board.reservations["G13"] if r.corp != B.HOLE] == ["KJR"]
