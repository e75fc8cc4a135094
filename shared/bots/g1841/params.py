"""1841's numbers for the 18xx heuristic (`shared/bots/kit18xx/params.py` says what the kit's
mean; the concession numbers are 1841's own, read by `decisions.py`). Set by hand from the
map and checked by arena matches (docs/bots.md)."""

from __future__ import annotations

import msgspec

from shared.bots.kit18xx import Params


class Params1841(Params, frozen=True, kw_only=True):
    # the most a concession is worth bidding in the auction (its face value is L.50): the
    # Tuscan ones' homes (Lucca-Pistoia, Livorno, Massa) have other stops a lay or two away,
    # so a 2-train runs soon; Torino's and Cuneo's corporations need several lays before a
    # 2-train has two stops; Bayard pays L.20 every stock round and founds nothing
    concession_ceiling: dict[str, int] = msgspec.field(default_factory=lambda: {
        "SFLP": 95, "SSFL": 110, "SFMA": 95, "IRSFF": 80, "SFTG": 70, "SFTN": 60, "SFTC": 50, "Bayard": 75})
    # a bid takes at most this part of the bidder's cash (the rest founds the corporation)
    concession_cash_share: float = 0.3
    # concessions a player buys at the most, by number of players
    concessions: dict[int, int] = msgspec.field(default_factory=lambda: {3: 2, 4: 2, 5: 1, 6: 1, 7: 1, 8: 1})
    # founding: the corporation's capital (the president's certificate, twice the par) must
    # buy its cheapest train and this much in tokens
    token_reserve: int = 40
    # at most this many tokens bought at a founding, while the rest still buys the train
    founding_tokens: int = 3


PARAMS = Params1841(
    presidencies={3: 3, 4: 3, 5: 2, 6: 2, 7: 2, 8: 2},
    late_phases=("6", "7", "8"),
    early_phases=("2",),
    buy_when_affordable=True,
)
