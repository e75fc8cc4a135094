"""18Ireland's game state: the money side, the board, and where the game stands (which round,
whose step), all frozen msgspec structs so snapshots store it and `apply` never mutates.

Players are named by seat: player id "0" is seat 0 and so on (the money side keys cash and
certificates by player id; `money.players` is the current priority order, not seat order).
"""

from __future__ import annotations

import operator

import msgspec

from shared.games.core18xx.board.state import BoardState
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.core18xx.rounds.stock import StockRound
from shared.games.core18xx.rounds.waterfall_auction import WaterfallState
from shared.games.g18ireland.company_turn import OrTurn
from shared.games.g18ireland.merger_round import MergerRound
from shared.games.g18ireland.programs import Programs
from shared.games.g18ireland.setup_random import RandomSetup


class Pending(msgspec.Struct, frozen=True):
    """A token that must be placed before play goes on: a company's home after its start
    ("home", placed by the company), or a home lifted off a hex by the first multi-city tile
    there ("relocate", placed by the company that laid the tile: 18xx.games'
    TOKEN_PLACEMENT_ON_TILE_LAY_ENTITY is the current operator)."""

    corp: str                       # whose token it is
    kind: str                       # "home" | "relocate"
    hex: str | None = None          # the hex of a lifted token
    by: str | None = None           # the company placing it, when not `corp`
    # the player deciding while the company has no president yet: a minor whose auction has
    # just begun chooses its home city then (18xx.games' HOME_TOKEN_TIMING :par), its starter
    for_player: str | None = None

    @property
    def placer(self) -> str:
        return self.by or self.corp


class OperatingRound(msgspec.Struct, frozen=True):
    number: int                     # 1..rounds within this set
    rounds: int                     # operating rounds in this set (the phase at the set's start)
    order: list[str]                # companies in operating order, fixed at the round's start
    index: int = 0                  # the company operating now
    turn: OrTurn | None = None
    finished: bool = False          # every company has had its turn


class State(msgspec.Struct, frozen=True):
    seats: list[str]                # seat names as the table gave them
    players: list[str]              # player ids by seat ("0", "1", ...)
    setup: RandomSetup
    larger_bank: bool
    money: MoneyState
    depot: T.Depot
    minor_order: list[str]
    board: BoardState
    round: str                      # "auction" | "stock" | "operating" | "merger" | "over"
    auction: WaterfallState | None = None
    stock: StockRound | None = None
    operating: OperatingRound | None = None
    merger: MergerRound | None = None
    pending: list[Pending] = []
    # company -> (hex, corporation earning the bonus): CDSPC/TASPS assignments outlive the
    # private (it closes when used)
    assigned: dict[str, tuple[str, str]] = {}
    # private companies' tile lays: lays used per company, and a pair begun (DR, TDR: both
    # tiles are laid together) as (company, first hex)
    special_used: dict[str, int] = {}
    # "Can this company place a token?" as 18xx.games answered it: its graph keeps the answer
    # until the next tile lay or token placement, so a company closing in between (its tokens
    # leave the map) does not change it (see `flow.Port.can_token`)
    token_seen: dict[str, bool] = {}
    pair: tuple[str, str] | None = None
    # merger-round passes the engine made in the last decision for players with nothing to
    # propose (18xx.games' auto-pass; an importer matches them with the export's auto actions)
    auto_passed: list[str] = []
    # players' programs (programs.py): each seat's own is secret to the others; `made` (the moves
    # programs made in the last decision) is public
    programs: Programs = Programs()
    end: tuple[str, str] | None = None   # (18xx.games end reason, when it takes effect)
    moves: int = 0                  # decisions applied (for views and logs)


# The fields a decision's bookkeeping writes and no round step reads: the end trigger (read by
# the flow between rounds), the merger round's automatic passes, the programs and the move
# counter. Every other field is part of a state's version for the rounds.
_BOOKKEEPING = frozenset({"end", "auto_passed", "programs", "moves"})
step_inputs = operator.attrgetter(*(f for f in State.__struct_fields__ if f not in _BOOKKEEPING))
"""`step_inputs(state)`: what the rounds' steps read of `state`, as a tuple (`Round`'s version)."""
