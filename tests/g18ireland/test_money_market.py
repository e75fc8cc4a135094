"""Stock-market grid and price moves, on 18Ireland's market."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shared.games.core18xx.money.market import Market, Token, operating_order, parse_cell

DATA = json.loads((Path(__file__).resolve().parents[2] / "shared/games/g18ireland/entities.json").read_text())
M = Market.from_codes(DATA["market"])


def price(coord: tuple[int, int]) -> int:
    return M.at(coord).price


def test_cell_codes() -> None:
    assert parse_cell("", 0, 0) is None
    assert parse_cell("100p", 0, 6) is not None and parse_cell("100p", 0, 6).can_par  # type: ignore[union-attr]
    end = parse_cell("260e", 0, 14)
    assert end is not None and end.ends_game and end.price == 260
    yellow = parse_cell("38y", 4, 1)
    assert yellow is not None and not yellow.counts_for_cert_limit and not yellow.lifts_holding_limit
    closing = parse_cell("0c", 7, 0)
    assert closing is not None and closing.closes and closing.price == 0
    with pytest.raises(ValueError):
        parse_cell("12q", 0, 0)
    # 1841's letters: x = major-only par, m/n = price caps
    major_par = parse_cell("340x", 0, 14)
    assert major_par is not None and major_par.can_par and major_par.kinds == ("par_1",)
    assert parse_cell("224m", 0, 10).kinds == ("max_price",)  # type: ignore[union-attr]


def test_par_prices_highest_first_and_half_bid_rule() -> None:
    assert [c.price for c in M.par_cells()] == [100, 85, 70, 60, 50]
    assert M.par_cells()[0].id == "100,0,6"
    assert M.by_id("60,3,3").price == 60
    # The worked example of the seed: a £120 winning bid pars at the highest par not above £60.
    assert M.highest_par_at_most(120 // 2).price == 60  # type: ignore[union-attr]
    assert M.highest_par_at_most(145 // 2).price == 70  # type: ignore[union-attr]
    assert M.highest_par_at_most(40) is None
    with pytest.raises(KeyError):
        M.by_id("61,3,3")


def test_moves_inside_the_grid() -> None:
    assert price(M.right((3, 3))) == 66
    assert price(M.left((3, 3))) == 55
    assert price(M.up((3, 3))) == 65
    assert price(M.down((3, 3))) == 55  # 60p -> row 4 col 3 = 55


def test_moves_at_the_edges() -> None:
    # right at the end of a row goes up; the top-right end-game cell stays put
    assert M.right((3, 9)) == (2, 9)
    assert M.right((0, 14)) == (0, 14)
    # left at the first priced cell goes down, and stays put where there is nothing below
    assert M.left((2, 1)) == (3, 1)
    assert M.left((7, 1)) == (7, 0)          # 20y -> 0c, the closing cell
    assert M.left((7, 0)) == (7, 0)
    # down where the row below is shorter stays put; up in the top row stays put
    assert M.down((3, 9)) == (3, 9)
    assert M.up((0, 5)) == (0, 5)
    assert M.move((3, 3), "left", 3) == (4, 1)  # 60 -> 55 -> 50 -> (no cell) down to 38y


def test_operating_order() -> None:
    tokens = [Token("A", (3, 3), 0), Token("B", (2, 2), 1), Token("C", (3, 3), 2), Token("D", (0, 6), 3),
              Token("E", (1, 5), 4)]
    # D 100; E 85; A and C share 60 (A arrived first); B 60 at (2,2) is further left than (3,3)
    assert operating_order(M, tokens) == ["D", "E", "A", "C", "B"]
