"""Set-up of the advanced game (seed III.1): no barons, operations cards, new-city tiles or
engines; goods into the cities as in the standard game; $20,000 per player ($25,000 with two
or three); each company's share price at its starting price, 5 shares on the available box
and 5 on its card; a random first player opens the share auctions."""

from __future__ import annotations

from ..board import Board
from ..goods import fill_cities
from ..state import Player, State
from . import auction, data
from .state import OPENING, Adv, Company


def setup_advanced(s: State, board: Board, end_empty: int) -> None:
    n = len(s.players)
    for p in s.players:
        p.cash = data.START_CASH[n]
    companies = [Company(id=cid, name=name, start_price=price, price=price, held=[0] * n, stamp=-i)
                 for i, (cid, name, price) in enumerate(data.COMPANIES)]
    s.adv = Adv(companies=companies, end_empty=end_empty or board.empty_city_end[n])
    fill_cities(s, board)
    s.first, s.rng = s.rng.below(n)
    s.log.append(f"advanced share game: {s.players[s.first].name} holds the first-player marker and opens the "
                 f"share auctions; the game ends after the round in which {s.adv.end_empty} cities are empty")
    s.phase = OPENING
    auction.begin(s, s.first)


__all__ = ["Player", "setup_advanced"]
