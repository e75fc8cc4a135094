"""The stock market: a grid of share-price cells, price moves, and operating order.

A market is given as rows of cell codes, the notation 18xx.games titles use: a price followed by
letters for the cell's kinds, '' for no cell. The letters read here:
  p  par price (a company may start here)        e  end-game cell (reaching it ends the game)
  y  yellow: shares here do not count for the certificate limit
  o  orange: no certificate limit and no holding limit        b  brown: may buy several per turn
  c  closing cell (price 0: the company closes)
Positions are (row, column), row 0 at the top; price rises rightwards and upwards.

Moves follow the two-dimensional rules: right (a dividend) moves one cell right, or up at the
right-hand end of a row; left (withheld) moves one cell left, or down at the left-hand end; up
(sold out) moves one row up unless in the top row; down (a sale) moves one row down unless in the
bottom row. Each move lands on an existing cell or stays put.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Literal

import msgspec

Direction = Literal["up", "down", "left", "right"]
Coord = tuple[int, int]

# The full letter set of 18xx.games' share-price codes (1841 uses x, m, n besides p, e).
KIND_LETTERS: dict[str, str] = {
    "p": "par", "e": "endgame", "c": "close", "b": "multiple_buy", "o": "unlimited",
    "y": "no_cert_limit", "l": "liquidation", "a": "acquisition", "r": "repar",
    "i": "ignore_one_sale", "j": "ignore_two_sales", "s": "safe_par", "P": "par_overlap",
    "x": "par_1", "z": "par_2", "w": "par_3", "C": "convert_range", "m": "max_price",
    "n": "max_price_1", "u": "phase_limited", "t": "type_limited", "B": "pays_bonus",
    "W": "pays_bonus_1", "X": "pays_bonus_2", "Y": "pays_bonus_3", "Z": "pays_bonus_4",
    "S": "share_split", "f": "only_president",
}
PAR_KINDS = frozenset({"par", "par_overlap", "par_1", "par_2", "par_3"})
# Kinds whose shares do not count against the certificate limit (18xx.games CERT_LIMIT_TYPES).
NO_CERT_LIMIT_KINDS = frozenset({"multiple_buy", "unlimited", "no_cert_limit"})
# Kinds whose shares lift the per-player holding limit.
NO_HOLDING_LIMIT_KINDS = frozenset({"multiple_buy", "unlimited"})


class Cell(msgspec.Struct, frozen=True):
    price: int
    row: int
    col: int
    kinds: tuple[str, ...] = ()

    @property
    def coord(self) -> Coord:
        return (self.row, self.col)

    @property
    def id(self) -> str:
        """18xx.games' share-price id, as `par` actions carry it: "price,row,col"."""
        return f"{self.price},{self.row},{self.col}"

    @property
    def can_par(self) -> bool:
        return bool(self.kinds) and self.kinds[0] in PAR_KINDS

    @property
    def counts_for_cert_limit(self) -> bool:
        return not (self.kinds and self.kinds[0] in NO_CERT_LIMIT_KINDS)

    @property
    def lifts_holding_limit(self) -> bool:
        return bool(self.kinds) and self.kinds[0] in NO_HOLDING_LIMIT_KINDS

    @property
    def ends_game(self) -> bool:
        return bool(self.kinds) and self.kinds[0] == "endgame"

    @property
    def closes(self) -> bool:
        return bool(self.kinds) and self.kinds[0] == "close"


def parse_cell(code: str, row: int, col: int) -> Cell | None:
    if not code:
        return None
    match = re.fullmatch(r"(\d*)([a-zA-Z]*)", code)
    if match is None:
        raise ValueError(f"bad market cell code {code!r}")
    digits, letters = match.groups()
    kinds = []
    for ch in letters:
        if ch not in KIND_LETTERS:
            raise ValueError(f"unknown market cell letter {ch!r} in {code!r}")
        kinds.append(KIND_LETTERS[ch])
    return Cell(price=int(digits or 0), row=row, col=col, kinds=tuple(kinds))


class Market(msgspec.Struct, frozen=True, dict=True):
    rows: list[list[Cell | None]]

    @classmethod
    def from_codes(cls, codes: list[list[str]]) -> Market:
        return cls(rows=[[parse_cell(code, r, c) for c, code in enumerate(row)] for r, row in enumerate(codes)])

    def cell(self, coord: Coord) -> Cell | None:
        r, c = coord
        if r < 0 or c < 0:
            return None
        try:
            return self.rows[r][c]
        except IndexError:
            return None

    def at(self, coord: Coord) -> Cell:
        # asked for every price, limit and closing check: the cells by coordinate are indexed
        # once per instance (a market never changes; `dict=True`, see par_cells)
        r, c = coord  # a list when it came from JSON
        cell = self._cells.get((r, c))
        if cell is None:
            raise KeyError(f"no market cell at {coord}")
        return cell

    @cached_property
    def _cells(self) -> dict[Coord, Cell]:
        return {(r, c): cell for r, row in enumerate(self.rows) for c, cell in enumerate(row) if cell is not None}

    @cached_property
    def _par_cells(self) -> list[Cell]:
        cells = [cell for row in self.rows for cell in row if cell is not None and cell.can_par]
        return sorted(cells, key=lambda c: (c.price, c.col, c.row), reverse=True)

    def by_id(self, price_id: str) -> Cell:
        """The cell of a "price,row,col" id; the price must agree with the cell."""
        try:
            price, row, col = (int(part) for part in price_id.split(","))
        except ValueError:
            raise KeyError(f"bad share price id {price_id!r}") from None
        cell = self.cell((row, col))
        if cell is None or cell.price != price:
            raise KeyError(f"no share price {price_id!r} on this market")
        return cell

    def par_cells(self) -> list[Cell]:
        """Par cells, highest first (ties: further right, then lower row first, as 18xx.games)."""
        # a market never changes: computed once per instance (`dict=True`: a __dict__ neither
        # encoded nor compared)
        return list(self._par_cells)

    def highest_par_at_most(self, amount: int) -> Cell | None:
        return next((cell for cell in self.par_cells() if cell.price <= amount), None)

    # --- moves ------------------------------------------------------------------------------

    def up(self, coord: Coord) -> Coord:
        r, c = coord
        return (r - 1, c) if r - 1 >= 0 and self.cell((r - 1, c)) is not None else coord

    def down(self, coord: Coord) -> Coord:
        r, c = coord
        return (r + 1, c) if r + 1 < len(self.rows) and self.cell((r + 1, c)) is not None else coord

    def right(self, coord: Coord) -> Coord:
        r, c = coord
        if c + 1 >= len(self.rows[r]):
            return self.up(coord)
        return (r, c + 1) if self.cell((r, c + 1)) is not None else coord

    def left(self, coord: Coord) -> Coord:
        r, c = coord
        if c > 0 and self.cell((r, c - 1)) is not None:
            return (r, c - 1)
        return self.down(coord)

    def move(self, coord: Coord, direction: Direction, times: int = 1) -> Coord:
        step = {"up": self.up, "down": self.down, "left": self.left, "right": self.right}[direction]
        for _ in range(times):
            coord = step(coord)
        return coord


class Token(msgspec.Struct, frozen=True):
    """A company's marker on the market; `arrived` orders markers sharing a cell (first in, first out)."""

    corporation: str
    coord: Coord
    arrived: int


def operating_order(market: Market, tokens: list[Token]) -> list[str]:
    """Highest price first; ties: further right, then higher row, then earlier arrival, then name."""
    def key(token: Token) -> tuple[int, int, int, int, str]:
        cell = market.at(token.coord)
        return (-cell.price, -cell.col, cell.row, token.arrived, token.corporation)
    return [t.corporation for t in sorted(tokens, key=key)]
