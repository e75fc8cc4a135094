"""A major starts only where a city could take its home token (reading 34): with every city on
track full or held for another company, no par is offered and one sent anyway is refused, so the
president is never left with a home token to place and nowhere to place it (a seat the engine
names with nothing but programs to set). Found by random walks from three heuristic bots' games."""

from __future__ import annotations

import msgspec
import pytest

from shared.engine import RuleError, is_program
from shared.families import expand
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland.stock_round import start_stock

from .positions import ENGINE, M, operating

MAJORS = sorted(s for s, c in ENGINE.setup(["a", "b", "c", "d"], {}, 161830).money.corps.items() if c.type == "major")


def _dublin_full() -> B.BoardState:
    """No track laid; Dublin, the only city with track, holds DDR's and DKR's tokens."""
    b = B.initial(M)
    return B.place_token(M, B.place_token(M, b, "DDR", "I11", 1), "DKR", "I11", 0)


def _stock_round(board: B.BoardState):
    state = operating(board, "DDR", presidents={"DDR": "a", "DKR": "b"}, phase="6")
    return start_stock(msgspec.structs.replace(state, round="stock", operating=None))


def _moves(state, seat: int) -> list:
    return [la for la in ENGINE.legal_actions(state, seat) if not is_program(la.action)]


def _acting(state) -> tuple[int, str]:
    (seat,) = ENGINE.active_seats(state)
    return seat, state.players[seat]


def test_no_par_while_no_city_could_take_the_home_token() -> None:
    state = _stock_round(_dublin_full())
    assert all(BO.needs_home(state, s) and not BO.home_spots(state, s) for s in MAJORS)
    seat, player = _acting(state)
    moves = _moves(state, seat)
    assert not any(isinstance(la.action, A.Par) for la in moves)
    assert any(isinstance(la.action, A.Pass) for la in moves)
    # every move open leaves the seat to act next with a move of its own
    for la in moves:
        if la.choices is None and la.range is None:
            after = ENGINE.apply(state, seat, la.action)
            assert all(_moves(after, s) for s in ENGINE.active_seats(after)), la.action
    cell = state.money.market.par_cells()[0]
    with pytest.raises(RuleError):
        ENGINE.apply(state, seat, A.Par(entity=player, entity_type="player", corporation=MAJORS[0],
                                        share_price=cell.id))


def test_a_free_city_on_track_lets_majors_start_there() -> None:
    state = _stock_round(B.lay(M, _dublin_full(), "I17", "5", 0))     # Wexford, a city of its own
    seat, _ = _acting(state)
    pars = [la.action for la in _moves(state, seat) if isinstance(la.action, A.Par)]
    assert {p.corporation for p in pars} == set(MAJORS)
    after = ENGINE.apply(state, seat, pars[0])
    # the president places the new major's home token, at Wexford
    (placer,) = ENGINE.active_seats(after)
    tokens = [la for la in _moves(after, placer) if isinstance(la.action, A.PlaceToken)]
    assert tokens and placer == seat
    cities = {a.city for la in tokens for a in (expand(la) if la.choices is not None else [la.action])}
    assert {BO.find_node(after, c)[0] for c in cities} == {"I17"}
