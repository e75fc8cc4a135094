"""Hand-built 18Ireland positions for rule tests: a fresh table with companies started by hand,
the phase set, a board built tile by tile and one company's operating turn open. Only what a
test names is set; everything else is the table's real start."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games import get_engine
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import shares as S
from shared.games.g18ireland.company_turn import OrTurn
from shared.games.g18ireland.map import board_map
from shared.games.g18ireland.state import OperatingRound, Pending

ENGINE = get_engine("18ireland")
M = board_map()
PHASES = ["2", "4", "6", "8", "10", "D"]
replace = msgspec.structs.replace


def operating(board: B.BoardState, corp: str, *, presidents: dict[str, str], cash: dict[str, int] | None = None,
              companies: dict[str, str] | None = None, phase: str = "4", stage: str = "track",
              pending: list[Pending] | None = None) -> Any:
    """`corp` operating at `stage` in `phase` on `board`; `presidents` maps each company to
    start (parred on the same cell) to its president's seat ("0", "1", ...)."""
    state = ENGINE.setup(["a", "b", "c", "d"], {}, 161830)
    money = state.money
    for sym, seat in presidents.items():
        money = money.set_par(sym, (2, 4))
        money = replace(money, book=money.book.moved([money.book.president_cert(sym).id], seat))
    for sym, amount in (cash or {}).items():
        money = replace(money, cash=S.pay(money.cash, S.BANK, sym, amount))
    money = replace(money, companies=dict(companies or {}))
    depot = replace(state.depot, phase=PHASES.index(phase))
    assert depot.current_phase.name == phase
    turn = OrTurn(corp, stage=stage)
    return replace(state, money=money, depot=depot, board=board, round="operating", auction=None,
                   operating=OperatingRound(number=1, rounds=2, order=[corp], turn=turn),
                   pending=list(pending or []))
