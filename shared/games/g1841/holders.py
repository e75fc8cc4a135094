"""Who owns, controls and may trade what in 1841: the questions every round asks, over the
core's control chains (`core18xx/money/control.py`).

Facts (18xx.games `g_1841/game.rb`): `player_controlled_percentage` (a buyer's 60 % counts what
the player at the top of its chain holds and what every corporation he controls holds),
`in_chain?`, `pres_change_ok?` (a historical corporation's presidency cannot change hands before
phase 4), `corporation_available?` (historical corporations while startable, general ones from
phase 3), `concession_ok?` (a historical corporation needs its concession's owner until phase 4),
circular chains refused (`process_buy_shares`, `sell_shares`: a trade that makes a new circular
chain of ownership raises).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from shared.games.core18xx.money import control as C
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.state import MoneyState
from shared.games.g1841.money import corp_info, phase_number

if TYPE_CHECKING:
    from shared.games.g1841.state import State


def phase(state: State) -> int:
    return phase_number(state.depot)


def historical(state: State, sym: str) -> bool:
    return corp_info(state.variant)[sym].historical


def major(state: State, sym: str) -> bool:
    return state.money.corps[sym].type == "major"


def live(state: State, sym: str) -> bool:
    c = state.money.corps[sym]
    return c.ipoed and not c.closed


def controlled_percentage(money: MoneyState, buyer: str, sym: str) -> int:
    """What the player deciding for `buyer` holds of `sym`, himself and through every corporation
    he controls (`sym` itself aside)."""
    human = C.controller(money, buyer)
    if human is None:
        return money.book.percent_of(buyer, sym)
    total = money.book.percent_of(human, sym)
    for corp in C.controlled_by(money, human):
        if corp != sym:
            total += money.book.percent_of(corp, sym)
    return total


def in_chain(money: MoneyState, entity: str, other: str) -> bool:
    """Is `other` among the owners above corporation `entity`?"""
    return C.is_corporation(money, entity) and other in C.chain_of_control(money, entity)


def circular(money: MoneyState) -> frozenset[str]:
    """Started corporations whose chain of control loops."""
    out = set()
    for sym, corp in money.corps.items():
        if corp.ipoed and not corp.closed:
            chain = C.chain_of_control(money, sym)
            if chain and chain[-1] is None and len(chain) > 1:
                out.add(sym)
    return frozenset(out)


def makes_loop(before: MoneyState, after: MoneyState) -> bool:
    """Whether `after` has a circular chain `before` has not. A chain follows owners, the
    holders of presidents' certificates: with the same corporations and every started one's
    owner unchanged (most trades move plain shares), every chain is as it was."""
    if after.corps is before.corps:
        a, z = before.book, after.book
        if all(a.president_of(sym) == z.president_of(sym)
               for sym, corp in before.corps.items() if corp.ipoed and not corp.closed):
            return False
    return bool(circular(after) - circular(before))


def move_makes_loop(money: MoneyState, cert_ids: Sequence[str], to: str) -> bool:
    """`makes_loop` of the certificates moving to `to`: only a president's certificate moving
    changes an owner, so plain shares are answered without building the book after."""
    book = money.book
    if not any(book.certs[c].president for c in cert_ids):
        return False
    return makes_loop(money, msgspec.structs.replace(money, book=book.moved(list(cert_ids), to)))


def pres_change_ok(state: State, sym: str) -> bool:
    return phase(state) >= 4 or not historical(state, sym)


def available(state: State, sym: str, closed_too: bool = False) -> bool:
    """May `sym` be founded (`corporation_available?`, not started); `closed_too`: a closed
    one as well, as 18xx.games' `can_par?` reads it."""
    info = corp_info(state.variant)[sym]
    corp = state.money.corps[sym]
    if (corp.ipoed or corp.closed) and not (closed_too and corp.closed):
        return False
    return (info.historical and info.startable) or (not info.historical and phase(state) >= 3)


def concession_ok(state: State, founder: str, sym: str) -> bool:
    if phase(state) >= 4 or not historical(state, sym):
        return True
    return state.money.companies.get(sym) == founder


def seat_of(state: State, player: str) -> int:
    return state.players.index(player)


def decider(state: State, entity: str) -> str | None:
    """The player who decides for `entity` (a player decides for himself)."""
    return C.controller(state.money, entity)


def treasury_in_18xx_order(money: MoneyState, sym: str) -> list[S.Cert]:
    """The certificates `sym` holds in the order 18xx.games lists a corporation's `shares`: its
    own first (placed at creation), then by corporation in the game's corporation order (its
    `shares_by_corporation` keys are made in that order by the first sweep over all of them)."""
    groups = money.book.by_company(sym)
    order = [sym, *(s for s in money.corps if s != sym)]
    return [c for s in order for c in groups.get(s, ())]


def in_arrival_order(book: S.ShareBook, sym: str, holders: list[str]) -> list[str]:
    """`holders` in the order 18xx.games keeps a corporation's `share_holders` (a hash keyed as
    each first came to hold it), read here as the arrival of the earliest certificate each
    holds now (a holder who sold out and bought again is placed by his new certificates)."""
    def first(h: str) -> int:
        return min((book.seq.get(c.id, 0) for c in book.held(h, sym)), default=1 << 62)
    return sorted(holders, key=first)


def pool_presidency(money: MoneyState, sym: str, presidents: list[str]) -> S.ShareBook:
    """With the president's certificate in the pool (an emergency or bankrupt sale), the first
    holder to hold its percent, the most of any, takes it, swapping shares worth it into the
    pool (18xx.games `SharePool#transfer_shares` with `allow_president_sale`: the pool as
    previous president, at distance 0 from all, over `player_share_holders`, which with 1841's
    `corporation_can_ipo` counts the other corporations as well as the players), ties in
    `share_holders` order (`in_arrival_order`)."""
    book = money.book
    if not presidents or book.owner[book.president_cert(sym).id] != S.POOL:
        return book
    return S.settle_presidency(book, sym, in_arrival_order(book, sym, [p for p in presidents if p != sym]), S.POOL)
