"""The state of one game: msgspec structs, so snapshots can store them.

Never mutate a state you were given: `draft` returns the deep working copy an action changes.
Hidden parts (barons, deck order, the bag's future, the RNG) live here too; `view.py` is the
one place that removes them.
"""

from __future__ import annotations

import msgspec

from .advanced.state import Adv
from .rng import Rng

# Phases
BARON = "baron"  # every seat picks one of its two baron cards (simultaneous, secret)
AUCTION = "auction"  # first-player auction
ACTION = "action"  # the player in turn chooses an action
BUILD = "build"  # a build action is under way (lay_track ... end_build)
INSPECT = "inspect"  # a delivery waits for the Railway Inspector holder's answer
OVER = "over"


class Link(msgspec.Struct, kw_only=True):
    id: int
    owner: int  # seat
    a: str  # endpoint hex (city or town) the link starts from
    start_edge: int  # edge of `a` the link leaves through
    hexes: list[str]  # track hexes in order from `a`
    exit: int  # edge of the last hex the link points through (its open end while incomplete)
    b: str | None = None  # other endpoint once complete
    complete: bool = False
    turn: int = 0  # turn it was started (incomplete track is removed at the end of that turn's rounds)


class Seg(msgspec.Struct, array_like=True):
    link: int
    e1: int
    e2: int


class Player(msgspec.Struct, kw_only=True):
    name: str
    cash: int = 0
    shares: int = 0
    engine: int = 1
    vp: int = 0  # position on the income/VP track
    baron: str = ""  # chosen baron id (secret until the end)
    baron_draw: list[str] = []  # the two drawn (secret)
    hand: list[str] = []  # held operations cards (Tunnel Engineer, Railway Inspector)
    bonus: list[list] = []  # [name, vp] of cards and major lines won
    delivered: dict[str, int] = {}  # colour -> cubes delivered
    passenger: list[str] = []  # colours delivered while the Passenger Line card is on display
    stopped: bool = False  # has been stopped by a Railway Inspector
    mountain_tiles: int = 0


class Auction(msgspec.Struct, kw_only=True):
    to_act: int
    high_bid: int = 0
    high_bidder: int = -1
    passed: list[int] = []  # in the order they passed
    bids: list[int] = []  # each seat's last bid (first-to-pass: passers pay half of it)


class Build(msgspec.Struct, kw_only=True):
    tiles: int = 0
    spent: int = 0
    tunnel: bool = False  # a Tunnel Engineer card is in use for this build


class Pending(msgspec.Struct, kw_only=True):
    seat: int  # the deliverer
    city: str
    color: str
    path: list[int]
    holder: int  # seat asked whether to play its Railway Inspector
    card: str


class State(msgspec.Struct, kw_only=True):
    board: str
    bidding: str = "traditional"  # table option: "traditional" | "first_to_pass" (BGA)
    players: list[Player]
    rng: Rng
    phase: str
    turn: int = 1
    round: int = 1
    order: list[int] = []  # seats in action order this turn
    pos: int = 0  # index in `order` of the player to act
    first: int = 0
    auction: Auction | None = None
    build: Build | None = None
    pending: Pending | None = None
    cubes: dict[str, list[str]] = {}  # city hex -> cubes (sorted colours)
    bag: dict[str, int] = {}
    empty: list[str] = []  # hexes with an empty-city marker
    urban: dict[str, str] = {}  # urbanized town hex -> its new city colour
    new_cities: list[str] = []  # urbanize tiles left (colours)
    links: list[Link] = []
    track: dict[str, list[Seg]] = {}
    deck: list[str] = []  # operations card ids, top first (secret order)
    display: list[str] = []
    discard: list[str] = []
    baron_pool: list[str] = []  # barons not dealt or set aside (secret)
    majors: dict[str, int] = {}  # major line id -> seat that claimed it
    ending: bool = False  # the empty-city threshold was reached
    final_turn: int = 0  # once ending: the last turn to be played (BGA: this turn, then one more)
    end_reason: str = ""
    log: list[str] = []  # public event lines (never hidden facts)
    adv: Adv | None = None  # the advanced share game (table option game=advanced); None = standard


_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(State)


def draft(state: State) -> State:
    return _dec.decode(_enc.encode(state))


def card_kind(card_id: str) -> str:
    """Operations card ids are '<kind>#<n>'."""
    return card_id.split("#", 1)[0]
