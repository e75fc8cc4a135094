"""Who controls what: holders, presidents and the chain of control.

Any holder (a player or a corporation) may own certificates (`ShareBook` holders are plain
strings). A corporation's *owner* is the holder of its president's certificate; its
*controller* is the player at the top of the chain of owners (a corporation owned by a
corporation owned by a player is that player's). A chain that ends in the pool or the
company's own treasury, or loops back on itself, has no controller: the corporation is
*frozen* (it operates without anyone to decide for it; 1841).

Facts (18xx.games `g_1841/game.rb`: `chain_of_control`, `controller`, `controlled_corporations`,
`frozen?`, `num_certs`, `cert_limit`; `game/base.rb`: `acting_for_entity`). Titles whose only
presidents are players (`MoneyRules.presidents == "players"`) get the same answers as before:
every owner is a player, and the chain is one step long.
"""

from __future__ import annotations

from shared.games.core18xx.memo import Memo
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.state import MoneyState


def is_corporation(money: MoneyState, holder: str) -> bool:
    return holder in money.corps


def owner(money: MoneyState, sym: str) -> str | None:
    """The holder of `sym`'s president's certificate once the company is started (None before)."""
    corp = money.corps[sym]
    if not corp.ipoed or corp.closed:
        return None
    return money.book.president_of(sym)


def _shared(money: MoneyState) -> dict[str, dict]:
    """The corporations' chains, controllers and the players' corporations, shared by every
    money state with the same owners: they read only which holder owns each started
    corporation, the corporations' order and the players (a state changes its cash, prices and
    plain shares far more often: an 1841 game has some 2,500 money states and 80 such owners)."""
    found = money.answers.get("_control")
    if found is None:
        book = money.book
        owners = tuple(None if not c.ipoed or c.closed else book.president_of(sym) for sym, c in money.corps.items())
        key = (tuple(money.corps), owners, tuple(money.players))
        found = _CONTROL.get(key, ())
        if found is None:
            found = _CONTROL.put(key, (), {"chain": {}, "controller": {}, "controlled_by": {}})
        money.answers["_control"] = found
    return found


_CONTROL = Memo(256)
_DONE = object()    # `controlled_by` answered for every player


def chain_of_control(money: MoneyState, sym: str) -> tuple[str | None, ...]:
    """The owners from `sym` upward: its owner, that owner's owner, ... ending at a player, the
    pool, a treasury (the company holding its own certificate) or None (a loop, or not started)."""
    known = _shared(money)["chain"]
    chain = known.get(sym)
    if chain is None:
        chain = known[sym] = _chain(money, sym)
    return chain


def _chain(money: MoneyState, sym: str) -> tuple[str | None, ...]:
    chain: list[str | None] = []
    seen = {sym}
    holder = owner(money, sym)
    while True:
        chain.append(holder)
        if holder is None or not is_corporation(money, holder):
            return tuple(chain)
        if holder in seen:
            chain.append(None)
            return tuple(chain)
        seen.add(holder)
        holder = owner(money, holder)


def controller(money: MoneyState, holder: str) -> str | None:
    """The player who decides for `holder`: a player decides for himself; a corporation's
    controller is the player ending its chain of control, or None (frozen)."""
    if holder not in money.corps:
        return holder if holder in money.cash and holder not in (S.POOL, S.BANK) else None
    known = _shared(money)["controller"]
    if holder in known:
        return known[holder]
    last = chain_of_control(money, holder)[-1]
    found = known[holder] = last if last is not None and last in money.players else None
    return found


def frozen(money: MoneyState, sym: str) -> bool:
    """Started, and no player at the top of its chain of control."""
    corp = money.corps[sym]
    return corp.ipoed and not corp.closed and controller(money, sym) is None


def controlled_by(money: MoneyState, player: str) -> list[str]:
    """The corporations `player` controls, directly or through a chain, in the title's order."""
    known = _shared(money)["controlled_by"]
    if not known:
        # every controller's at once (None: the frozen ones), one pass over the corporations
        known[_DONE] = []
        for sym in money.corps:
            known.setdefault(controller(money, sym), []).append(sym)
    return list(known.get(player, ()))


def may_act_for(money: MoneyState, player: str, entity: str) -> bool:
    """May `player` make `entity`'s decisions (18xx.games `acting_for_entity`)?"""
    return controller(money, entity) == player
