"""Set-up: starting capital, companies on their start hexes, the industrial track, and the
first of the four opening auctions (the banker, seat 0, opens it)."""

from __future__ import annotations

from typing import Any

from shared.engine import RuleError

from .auction import start_opening_auction
from .board import BOARD
from .money import BANK, player, transfer
from .options import dial_lengths
from .state import N_COMPANIES, Company, State

BANKER = 0


def new_game(seats: list[str], options: dict[str, Any]) -> State:
    n = len(seats) if isinstance(seats, (list, tuple)) else -1
    if n not in BOARD.starting_cash:
        players = ", ".join(map(str, sorted(BOARD.starting_cash)))
        raise RuleError("bad_seats", f"Chicago Express is for {players} players, not {n}")
    lengths = dial_lengths(options)
    locos = [0] * len(BOARD.hex_ids)
    companies = []
    for info in BOARD.companies:
        placed = not info.opens_at_chicago  # Wabash's start hex stays empty until Chicago
        if placed:
            locos[info.start_hex] |= 1 << info.index
        companies.append(
            Company(
                cash=0,
                income=info.income,
                shares_left=info.shares,
                locos_left=info.locomotives - placed,
                open=placed,
                network=(info.start_hex,) if placed else (),
            )
        )
    s = State(
        players=[str(seat) for seat in seats],
        dial_lengths=lengths,
        phase="",
        current=BANKER,
        round=1,
        opening=0,
        first_player=BANKER,
        bank=0,
        cash=[0] * n,
        shares=[0] * (n * N_COMPANIES),
        companies=companies,
        locos=locos,
        houses=[False] * len(BOARD.hex_ids),
        houses_supply=BOARD.houses,
        industry=[0] * len(BOARD.industries),
        dials=[0] * len(lengths),
    )
    for seat in range(n):
        transfer(s, BANK, player(seat), BOARD.starting_cash[n])
    start_opening_auction(s, BANKER)
    return s
