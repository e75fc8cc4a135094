"""A company closing gives up its home reservation as 18xx.games' `close_corporation` does:
a city's reservations are a list by slot there and the closed company's is deleted from it,
so a reservation after it moves up a slot. In 18Ireland this is the minor the set-up removes:
when it shared a home city (Enniskillen, Maryborough), the other minor's home token goes to
the city's first slot and the next company's token to the second (differential replay,
4 December 2026)."""

from __future__ import annotations

from shared.games.core18xx.board import state as B
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland import flow as F
from shared.games.g18ireland.engine import ENGINE
from shared.games.g18ireland.setup_random import draw_setup

M = BO.the_map()


def _shared_homes() -> dict[str, tuple[str, str, int]]:
    """Minor reserving a city's first slot -> (hex, the minor after it in that city, city)."""
    out = {}
    for coord, reservations in B.initial(M).reservations.items():
        for first in reservations:
            for second in reservations:
                if first.city == second.city and (first.slot, second.slot) == (0, 1):
                    out[first.corp] = (coord, second.corp, first.city)
    return out


def test_release_moves_later_slots_of_the_same_city_up() -> None:
    b = B.BoardState(reservations={"X1": (B.Reservation("A", 0, 0), B.Reservation("B", 0, 1),
                                          B.Reservation("C", 1, 0), B.Reservation("D", -1)),
                                   "X2": (B.Reservation("A", 0, 1), B.Reservation("E", 0, 0))})
    after = B.release(b, "A")
    assert after.reservations == {"X1": (B.Reservation("B", 0, 0), B.Reservation("C", 1, 0), B.Reservation("D", -1)),
                                  "X2": (B.Reservation("E", 0, 0),)}
    assert B.release(after, "A") is after
    # unreserve (a home placed) leaves the others' slots where they are
    assert B.unreserve(b, "A").reservations["X1"][0] == B.Reservation("B", 0, 1)


def test_the_removed_minors_partner_takes_the_first_slot() -> None:
    shared = _shared_homes()
    assert shared, "the map has minors sharing a home city"
    seeds = [s for s in range(1, 400)
             if draw_setup(s, list(F.COMPANY_VALUES), F.MINORS).removed_minor in shared]
    assert seeds
    for seed in seeds[:3]:
        state = ENGINE.setup(["a", "b", "c"], {}, seed)
        removed = state.setup.removed_minor
        coord, partner, city = shared[removed]
        assert state.money.corps[removed].closed
        assert [r for r in state.board.reservations[coord] if r.city == city] == [B.Reservation(partner, city, 0)]
        board = B.place_token(M, state.board, partner, coord, city)
        assert B.slots(M, board, coord)[city][:2] == (partner, B.FREE)
        other = next(c for c in F.MINORS if c not in (removed, partner))
        board = B.place_token(M, board, other, coord, city)
        assert B.slots(M, board, coord)[city][:2] == (partner, other)
