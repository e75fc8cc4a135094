"""What the 18xx bot kit asks of a title: a small read-only port over its state.

A title's bot package implements it in one adapter module (`shared/bots/g18ireland/adapter.py`),
the only place that imports the title's rules and the shared 18xx core; the kit itself reads
the money side's structures (cash, share book, market, depot) through what `money` and
`depot` return, by attribute, as every core18xx title shapes them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol


class Title18xx(Protocol):
    title: str
    company_values: dict[str, int]       # private -> face value
    company_revenue: dict[str, int]      # private -> income per operating round
    share_units: dict[str, int]          # company type -> shares a dividend is divided by

    def round(self, state: Any) -> str: ...            # "auction" | "stock" | "operating" | "merger" | "over"

    def money(self, state: Any) -> Any: ...            # core18xx MoneyState

    def depot(self, state: Any) -> Any: ...            # core18xx Depot

    def players(self, state: Any) -> list[str]: ...    # player ids by seat

    def operating(self, state: Any) -> tuple[str, str] | None: ...   # (company, step)

    def pending_token(self, state: Any) -> bool: ...

    def phase(self, state: Any) -> str: ...

    def player_value(self, state: Any, player: str) -> int: ...   # the final score if the game ended now

    # the next three read `board` instead of the state's board when given (a lay's outcome)
    def revenue(self, state: Any, corp: str, extra: tuple[int, ...] = (), board: Any = None) -> int: ...

    def reach(self, state: Any, corp: str, board: Any = None) -> float: ...   # nearness of the network to revenue off it

    def network_value(self, state: Any, corp: str, board: Any = None) -> float: ...   # stops the network reaches

    def lay_cost(self, state: Any, corp: str, coord: str, tile: str, rotation: int) -> int | None: ...

    def board_after_lay(self, state: Any, coord: str, copy: str, rotation: int) -> Any | None: ...

    def merged_price(self, state: Any, minors: list[str]) -> int | None: ...

    def merging(self, state: Any) -> list[str]: ...            # the minors of the proposal being made

    def proposed(self, state: Any) -> list[list[str]]: ...     # sets already voted on this round


class StateFields:
    """The part of `Title18xx` every core-built title answers alike: a state whose `round`,
    `money`, `depot` and `players` (by seat) are fields of those names."""

    def round(self, state: Any) -> str:
        return state.round

    def money(self, state: Any) -> Any:
        return state.money

    def depot(self, state: Any) -> Any:
        return state.depot

    def players(self, state: Any) -> list[str]:
        return list(state.players)


# Searches and lookaheads ask again and again what a company's trains earn on boards that did
# not change (a share bought, a dividend paid): one answer kept per board, held by identity of
# its tiles and tokens (the key also names them by id, so a freed board's ids never match).
_REVENUE: dict[tuple, tuple[Any, Any, int]] = {}


def kept_revenue(board: Any, key: tuple, count: Callable[[], int]) -> int:
    """`count()` (a best-route total on `board`), kept for `board` and `key` (company, trains,
    phase: whatever else the count reads)."""
    full = (id(board.tiles), id(board.tokens), *key)
    hit = _REVENUE.get(full)
    if hit is not None and hit[0] is board.tiles and hit[1] is board.tokens:
        return hit[2]
    total = count()
    if len(_REVENUE) > 8192:
        _REVENUE.clear()
    _REVENUE[full] = (board.tiles, board.tokens, total)
    return total

