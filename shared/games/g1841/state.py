"""1841's game state: the money side, the board, the concessions and where the game stands, all
frozen msgspec structs (snapshots store it, `apply` never mutates it).

Players are named by seat: player id "0" is seat 0 and so on (`money.players` is the current
priority order, not seat order).
"""

from __future__ import annotations

import msgspec

from shared.games.core18xx.board.state import BoardState
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.state import MoneyState
from shared.games.g1841.concessions import Auction


class Options(msgspec.Struct, frozen=True):
    version_1: bool = False
    lite: bool = False
    sfli_run_variant: bool = False
    p2p_purchases: bool = False


class Founding(msgspec.Struct, frozen=True):
    """What a corporation just founded still has to do before play goes on (18xx.games'
    `post_share_pass_step!`): place its home token(s) ("home", "home2": a general major's
    optional second), then buy its tokens ("tokens")."""

    corp: str
    kind: str                       # "home" | "home2" | "tokens"


class StockRound(msgspec.Struct, frozen=True):
    index: int = 0                  # the player whose turn it is, in `money.players` (seated)
    passed: list[str] = []          # players who passed on a turn in which they did nothing
    acted: bool = False             # the player to act has sold or bought this turn
    bought: bool = False            # ... and bought (or founded): no more sales this turn
    sold: dict[str, list[str]] = {}     # holder -> corporations it sold this round (no buying back)
    started: str | None = None      # the corporation founded this turn (more of it may be bought)
    last: str | None = None         # the last player to buy or sell (priority goes to his left)


class Turn(msgspec.Struct, frozen=True):
    """One corporation's operating turn: what each of its steps has done."""

    corp: str
    past: int = 0                   # the furthest step that has taken an action: earlier ones are over
    start: BoardState | None = None  # the board before the turn's first lay (which bases laid)
    lays: int = 0
    laid: list[str] = []            # hexes laid this turn
    track_done: bool = False
    token_done: bool = False
    revenue: int | None = None      # set once routes are run (0: nothing to run)
    token_bought: bool = False      # the buy-token step is over
    paid: bool = False
    train_done: bool = False
    bought_train: bool = False
    emergency: bool = False         # an emergency purchase has begun (cheapest depot train only)
    shares_done: bool = False
    share_bought: bool = False
    share_sold: list[str] = []
    started: str | None = None      # a corporation it founded in its share step (more may be bought)
    merging: str | None = None      # the partner chosen in its merge step (a target comes next)
    merge_done: bool = False        # the merge step is over
    transform_done: bool = False
    over: bool = False              # it merged or transformed: its turn ends


class OperatingRound(msgspec.Struct, frozen=True):
    number: int                     # 1..rounds within this set
    rounds: int                     # operating rounds in this set
    order: list[str]                # corporations in operating order
    index: int = 0
    turn: Turn | None = None
    # corporations merged or transformed this round, in or out (18xx.games `done_this_round`):
    # the round skips them when their place in `order` comes
    done: list[str] = []


class State(msgspec.Struct, frozen=True):
    seats: list[str]
    players: list[str]              # player ids by seat
    options: Options
    variant: str                    # the data set (data.VARIANTS)
    money: MoneyState
    depot: T.Depot
    board: BoardState
    round: str                      # "auction" | "stock" | "operating" | "over"
    auction: Auction | None = None
    stock: StockRound | None = None
    operating: OperatingRound | None = None
    founding: list[Founding] = []
    tokens: dict[str, int] = {}     # corporation -> tokens it owns (placed or not)
    token_order: dict[str, list[str]] = {}   # corporation -> hexes of its tokens, in placing order
    operated: list[str] = []        # corporations that have finished an operating turn
    loans: dict[str, int] = {}      # player -> bankruptcy loan taken
    offboards: list[str] = []       # off-board hexes some corporation's track has reached
    end: tuple[str, str] | None = None   # (reason, timing) once triggered
    over_reason: str | None = None
    moves: int = 0
    event: EventRun | None = None   # a train event waiting for an answer (eventrun.py)
    event_log: list[str] = []       # what the last train events did


class Question(msgspec.Struct, frozen=True):
    """What a train event asks (18xx.games' pending options, token purchases and removals):
    `kind` "choose" (one of `choices`), "discard" (a train id among `choices`), "remove" (a
    token among `spots`, or pass when `can_pass`), "sell" (one of the emergency `sales`) or
    "bankrupt" (option 0 or 1); `entity` answers (a player or a corporation its controller speaks for)."""

    kind: str
    topic: str                      # pick_exchange_pres | pick_exchange_corp | share_offer | offer_again
    #                                 | tokens | price | upgrade | remove | discard
    entity: str
    text: str
    choices: list[int | str] = []
    spots: list[tuple[str, int, int]] = []   # (hex, city, slot) of removable tokens
    can_pass: bool = False
    # kind "sell": (seller, certificates, percent, price per share) of the emergency sales open
    sales: list[tuple[str, list[str], int, int | float]] = []
    # the player who answers when `entity` has no controller yet (a merger's new corporation)
    by: str = ""


class EventRun(msgspec.Struct, frozen=True):
    """Train events under way: they re-run from `base` with `answers` (see eventrun.py)."""

    events: list[str]
    base: State
    answers: list[str]
    question: Question
    log: list[str] = []
