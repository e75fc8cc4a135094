"""18Ireland's bot kit: nothing on the table is hidden (one determinization is the truth; the
other players' programs are not known, and the redacted state a bot gets has none), and a position is
judged by the players' current values (cash, shares at market price, privates at face value:
18xx.games' final score) instead of a random playout to the end, which in an 18xx game is
thousands of moves long and says little."""

from __future__ import annotations

import random
from typing import Any

from shared.bots.kits import GenericKit, chances_from_values, terminal_rewards
from shared.engine import Engine
from shared.games.core18xx.money import operating as O
from shared.games.g18ireland.flow import COMPANY_VALUES

# Values a few dozen pounds apart are near even chances; a lead of a fifth of the average
# value is a clear favourite.
SPREAD = 0.2


class IrelandKit(GenericKit):
    def __init__(self) -> None:
        super().__init__(exact=True)

    def evaluate(self, engine: Engine[Any], state: Any, rng: random.Random) -> list[float]:
        result = engine.result(state)
        if result is not None:
            return terminal_rewards(result)
        values = [O.player_value(state.money, p, COMPANY_VALUES) for p in state.players]
        return chances_from_values(values, max(30.0, SPREAD * sum(values) / len(values)))


KIT = IrelandKit()
