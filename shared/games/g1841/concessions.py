"""1841's concession auction as pure functions over a frozen state (not yet wired as a title).

Two auctions, as 18xx.games plays them (lib/engine/step/concession_auction.rb and
g_1841/step/concession_auction.rb for the default game; step/waterfall_auction.rb and
g_1841/step/blind_auction.rb for `version_1`):

- **Default (v2): nominate and bid.** Players take turns in seating order. On his turn a player
  passes, or nominates any unsold concession with a bid (at least L.20, at most his cash). Every
  other player with more cash than that bid joins the auction, asked in turn order from the
  nominator's left; the lowest bidder still in must raise (by L.5 or more, up to his cash) or
  drop out; the last one left buys it at his bid, and the turn passes to the nominator's left.
  The round ends when every player has passed on his turn since his last bid, or nothing is
  left. Then players are ordered by least cash (ties: the one holding the lowest-numbered
  concession first, a player holding none before any, then the former order).
- **version_1: blind bids, then a waterfall.** Each player in turn secretly bids on every
  concession at once (0, or L.20 or more; the total at most his cash). Then: a concession
  nobody bid on stays unsold; a unique highest bid buys it at that price; otherwise only the tied
  highest bids stay. Players are re-ordered by total bid, highest first (ties: the higher bids
  in concession order, then the later seat first). The tied concessions are then settled in
  concession order: the tied bidder first in that order raises or drops out, then the next
  lowest, until one is left, who buys it; a bidder's cash on hand less his other open bids caps
  his raise.

Concessions are named by their symbols, given in the game's order (Bayard first).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from shared.engine import RuleError

replace = msgspec.structs.replace

MIN_BID = 20            # G1841 ConcessionAuction/BlindAuction MIN_BID
MIN_INCREMENT = 5       # G1841 MIN_BID_INCREMENT


class Bid(msgspec.Struct, frozen=True):
    player: str
    price: int          # a player asked but not yet bidding holds a negative placeholder


class Auction(msgspec.Struct, frozen=True):
    kind: Literal["v2", "blind"]
    players: tuple[str, ...]                    # current order
    cash: dict[str, int]
    concessions: tuple[str, ...]                # the game's order (for tie-breaks)
    unsold: tuple[str, ...]                     # still to settle, in that order
    turn: int = 0                               # index in `players` of the player whose turn it is
    passed: frozenset[str] = frozenset()
    auctioning: str | None = None
    bids: dict[str, tuple[Bid, ...]] = {}       # concession -> open bids
    owners: dict[str, str] = {}                 # concession -> buyer
    prices: dict[str, int] = {}                 # concession -> price paid
    blind: dict[str, tuple[int, ...]] = {}      # version_1: each player's sealed bids, concession order
    done: bool = False


def new_auction(players: list[str], cash: dict[str, int], concessions: list[str], blind: bool = False) -> Auction:
    return Auction("blind" if blind else "v2", tuple(players), dict(cash), tuple(concessions), tuple(concessions))


# --- who acts, and what he may do ------------------------------------------------------------

def _next_bid(a: Auction) -> Bid | None:
    bids = a.bids.get(a.auctioning or "", ())
    if a.auctioning is None or not bids:
        return None
    if a.kind == "v2":
        return min(bids, key=lambda b: b.price)
    # 18xx.games BlindAuction#next_bid: lowest price, then earliest in the player order
    return min(bids, key=lambda b: (b.price, a.players.index(b.player)))


def to_act(a: Auction) -> str | None:
    """The player who must act now (None once the auction is over)."""
    if a.done:
        return None
    bid = _next_bid(a)
    return bid.player if bid is not None else a.players[a.turn]


def committed(a: Auction, player: str) -> int:
    """Cash promised in open bids (version_1's waterfall counts every concession's)."""
    return sum(b.price for bids in a.bids.values() for b in bids if b.player == player and b.price > 0)


def min_bid(a: Auction) -> int:
    """The least bid the player to act may make: a nomination's, or a raise in the auction."""
    bids = a.bids.get(a.auctioning or "", ())
    return max(b.price for b in bids) + MIN_INCREMENT if a.auctioning is not None and bids else MIN_BID


def max_bid(a: Auction, player: str) -> int:
    if a.kind == "v2":
        return a.cash[player]
    own = next((b.price for b in a.bids.get(a.auctioning or "", ()) if b.player == player), 0)
    return a.cash[player] - committed(a, player) + own


def in_blind_phase(a: Auction) -> bool:
    return a.kind == "blind" and len(a.blind) < len(a.players)


class Move(msgspec.Struct, frozen=True):
    """A move open to the player to act: a bid on `concession` from `low` to `high`, a pass,
    or (version_1) sealed bids, each 0 or from `low`, totalling at most `high`."""

    kind: Literal["bid", "pass", "blind_bid"]
    concession: str | None = None
    low: int = 0
    high: int = 0


def moves(a: Auction, player: str) -> list[Move]:
    """What `player` may do now (nothing unless he is to act)."""
    if to_act(a) != player:
        return []
    if in_blind_phase(a):
        return [Move("blind_bid", None, MIN_BID, a.cash[player])]
    low, high = min_bid(a), max_bid(a, player)
    targets = [a.auctioning] if a.auctioning is not None else ([] if a.kind == "blind" else list(a.unsold))
    bids = [Move("bid", c, low, high) for c in targets if low <= high]
    return [*bids, Move("pass")]


def _check_turn(a: Auction, player: str) -> None:
    if a.done:
        raise RuleError("auction_over", "the concession auction has ended")
    if to_act(a) != player:
        raise RuleError("not_your_turn", f"{to_act(a)} acts now, not {player}")


# --- version 2: nominate, bid, pass ----------------------------------------------------------

def bid(a: Auction, player: str, concession: str, price: int) -> Auction:
    """A nomination (no auction running) or a raise in the running auction."""
    _check_turn(a, player)
    if in_blind_phase(a):
        raise RuleError("blind_bids_first", "every player places his sealed bids first")
    if a.auctioning is not None and concession != a.auctioning:
        raise RuleError("wrong_concession", f"{a.auctioning} is being auctioned")
    if concession not in a.unsold:
        raise RuleError("not_for_sale", f"{concession} is not for sale")
    if a.kind == "blind" and a.auctioning is None:
        raise RuleError("no_auction", "nothing is up for auction")
    low, high = min_bid(a), max_bid(a, player)
    if not low <= price <= high:
        raise RuleError("bad_bid", f"a bid on {concession} must be from {low} to {high}, not {price}")
    passed = a.passed - {player}
    if a.auctioning is not None:
        # a raise settles nothing: 18xx.games resolves an auction only when someone drops out
        return replace(a, passed=passed, bids=_with_bid(a.bids, concession, Bid(player, price)))
    # a nomination: every other player who could outbid it is asked, from the nominator's left
    n = len(a.players)
    start = a.players.index(player)
    asked = [Bid(player, price)]
    for step in range(1, n):
        other = a.players[(start + step) % n]
        if a.cash[other] > price:
            asked.append(Bid(other, step - n))
    return replace(a, passed=passed, auctioning=concession, bids={**a.bids, concession: tuple(asked)})


def pass_(a: Auction, player: str) -> Auction:
    """Drop out of the running auction, or pass one's turn to nominate."""
    _check_turn(a, player)
    if in_blind_phase(a):
        raise RuleError("blind_bids_first", "every player places his sealed bids first")
    if a.auctioning is not None:
        left = tuple(b for b in a.bids[a.auctioning] if b.player != player)
        return _settle(replace(a, bids={**a.bids, a.auctioning: left}))
    passed = a.passed | {player}
    a = replace(a, passed=passed, turn=(a.turn + 1) % len(a.players))
    return _finish(a) if passed >= set(a.players) else a


def _with_bid(bids: dict[str, tuple[Bid, ...]], concession: str, new: Bid) -> dict[str, tuple[Bid, ...]]:
    return {**bids, concession: (*(b for b in bids[concession] if b.player != new.player), new)}


def _buy(a: Auction, concession: str, who: Bid) -> Auction:
    bids = {k: v for k, v in a.bids.items() if k != concession}
    return replace(a, cash={**a.cash, who.player: a.cash[who.player] - who.price}, bids=bids,
                   owners={**a.owners, concession: who.player}, prices={**a.prices, concession: who.price},
                   unsold=tuple(c for c in a.unsold if c != concession), auctioning=None)


def _settle(a: Auction) -> Auction:
    """After a drop-out: a lone bidder left buys (v2 then moves the turn on)."""
    if a.kind == "blind":
        return _waterfall(a)
    assert a.auctioning is not None
    bids = a.bids[a.auctioning]
    if len(bids) != 1:
        # 18xx.games: with nobody left at all, the nomination lapses and the nominator's turn goes on
        return a if bids else replace(a, auctioning=None, bids={k: v for k, v in a.bids.items() if k != a.auctioning})
    a = replace(_buy(a, a.auctioning, bids[0]), turn=(a.turn + 1) % len(a.players))
    return _finish(a) if not a.unsold else a


def _finish(a: Auction) -> Auction:
    if a.kind == "blind":
        return replace(a, done=True, auctioning=None)
    return replace(a, done=True, players=least_cash_order(a), turn=0)


def least_cash_order(a: Auction) -> tuple[str, ...]:
    """18xx.games G1841#init_reorder_players: least cash first; then the lowest-numbered
    concession held (none before any); then the former order."""
    def lowest(p: str) -> int:
        held = [a.concessions.index(c) for c, o in a.owners.items() if o == p]
        return min(held) if held else -1
    return tuple(sorted(a.players, key=lambda p: (a.cash[p], lowest(p), a.players.index(p))))


# --- version 1: sealed bids, then the waterfall ----------------------------------------------

def blind_bid(a: Auction, player: str, bids: list[int]) -> Auction:
    """A player's sealed bids, one per concession in the game's order (0 for none)."""
    _check_turn(a, player)
    if not in_blind_phase(a):
        raise RuleError("not_blind", "no sealed bids are taken now")
    if len(bids) != len(a.concessions):
        raise RuleError("bad_bid", f"one bid per concession ({len(a.concessions)}), not {len(bids)}")
    if any(b < 0 or 0 < b < MIN_BID for b in bids):
        raise RuleError("bad_bid", f"each bid is 0 or at least {MIN_BID}")
    if sum(bids) > a.cash[player]:
        raise RuleError("bad_bid", f"the bids total {sum(bids)}, more than {player}'s {a.cash[player]}")
    a = replace(a, blind={**a.blind, player: tuple(bids)}, turn=(a.turn + 1) % len(a.players))
    return _open_blind(a) if len(a.blind) == len(a.players) else a


def _open_blind(a: Auction) -> Auction:
    order = a.players
    placed: dict[str, tuple[Bid, ...]] = {}
    for i, concession in enumerate(a.concessions):
        bids = tuple(Bid(p, a.blind[p][i]) for p in order if a.blind[p][i] > 0)
        if bids:
            placed[concession] = bids
    a = replace(a, unsold=tuple(c for c in a.concessions if c in placed), bids=placed)
    for concession in list(a.unsold):
        bids = a.bids[concession]
        top = max(b.price for b in bids)
        tied = tuple(b for b in bids if b.price == top)
        a = _buy(a, concession, tied[0]) if len(tied) == 1 else replace(a, bids={**a.bids, concession: tied})
    totals = {p: sum(a.blind[p]) for p in order}
    # 18xx.games sorts by (total, each bid in concession order, seat) and reverses it
    ranked = sorted(order, key=lambda p: (totals[p], *a.blind[p], order.index(p)), reverse=True)
    return _waterfall(replace(a, players=tuple(ranked), turn=0))


def _waterfall(a: Auction) -> Auction:
    """Settle tied concessions in order: a lone bidder buys; two or more bid it up."""
    while a.unsold:
        concession = a.unsold[0]
        bids = a.bids.get(concession, ())
        if len(bids) == 1:
            a = _buy(a, concession, bids[0])
            continue
        # a tie keeps two or more bids until drop-outs leave one, so none is never left here
        assert len(bids) > 1, concession
        return replace(a, auctioning=concession)
    return _finish(a)


def unsold(a: Auction) -> tuple[str, ...]:
    """Concessions nobody bought (they go to the bank when the auction ends)."""
    return tuple(c for c in a.concessions if c not in a.owners)
