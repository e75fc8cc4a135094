"""Emergency money for a forced train purchase in 1841 (18xx.games `G1841::Step::BuyTrain`,
`EmergencyAssist`, `G1841::Game` `emr_*`, `emergency_issuable_bundles`, `emr_can_sell?`):

- A corporation that must buy a train (none, a route, trains in the depot) and whose chain of
  corporations (it, its owner if a corporation, ...) cannot pay the cheapest depot train must
  first sell shares its chain holds, at half the share price: the first corporation of the
  chain with anything to sell, shares of other corporations before its own treasury shares,
  never a bundle worth a share more than what is still needed (`emr_shares_next`).
- Then the chain's cash and the controlling player's pay what it lacks (`sweep_cash`), for the
  cheapest depot train only; if that is still short the player sells his own shares at half
  price (each sale's proceeds swept into the corporation), keeping what the presidency rules
  make him keep (`emr_can_sell?`).
- When nothing is left to sell and the money does not reach, the player goes bankrupt.
A sale moves the price down a row per share, as any sale.
"""

from __future__ import annotations

import math

import msgspec

from shared.engine import RuleError
from shared.games.core18xx.money import control as C
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.state import MoneyState
from shared.games.g1841 import holders as H
from shared.games.g1841.state import State

replace = msgspec.structs.replace
Bundle = tuple[str, tuple[str, ...], int, int]     # (corporation, certificates, percent, price)


def cheapest(game: State) -> int:
    depot = game.depot
    return min((depot.types[t.name].price for t in depot.offered()), default=0)


def chain_corps(money: MoneyState, corp: str) -> list[str]:
    """The corporation and the corporations above it (18xx.games `chain_of_corps`)."""
    out = [corp]
    for holder in C.chain_of_control(money, corp):
        if holder is None or holder not in money.corps or holder in out:
            break
        out.append(holder)
    return out


def _can_sell_any_amount(game: State, owner: str, sym: str, active: str) -> bool:
    money = game.money
    return (owner == sym or money.book.president_of(sym) != owner
            or (not (sym == active or H.in_chain(money, active, sym)) and H.pres_change_ok(game, sym)))


def _minimum_to_retain(game: State, owner: str, sym: str, active: str) -> int:
    """What a president must keep (`corp_minimum_to_retain`): the most another holder who may
    preside holds, over `player_share_holders`, which counts corporations in 1841."""
    if _can_sell_any_amount(game, owner, sym, active):
        return 0
    holders = game.money.book.holders(sym)
    return max((p for h, p in holders.items() if h not in (owner, sym, S.POOL, S.BANK)), default=0)


def share_price(game: State, sym: str) -> int | float:
    """The price per share of an emergency sale, as 18xx.games records it (half the market
    price, a whole number when it is one)."""
    half = game.money.price_of(sym) / 2
    return int(half) if half == int(half) else half


def half_price(money: MoneyState, sym: str, percent: int) -> int:
    shares = percent / money.book.normal_percent(sym)
    return math.ceil(money.price_of(sym) / 2.0 * shares)


def _bundles(game: State, owner: str, active: str) -> list[Bundle]:
    """Bundles `owner` may sell in an emergency for `active` (`emr_valid_bundles`)."""
    money = game.money
    out = []
    for sym, certs in money.book.by_company(owner).items():
        corp = money.corps.get(sym)
        if corp is None or not corp.ipoed or corp.closed or corp.price is None:
            continue
        most = money.book.percent_of(owner, sym) - _minimum_to_retain(game, owner, sym, active)
        any_amount = _can_sell_any_amount(game, owner, sym, active)
        pres = money.book.president_cert(sym).id
        for ids, percent in S.bundles(tuple(certs), money.book.normal_percent(sym)):
            if percent != sum(money.book.certs[i].percent for i in ids):
                continue    # part of a president's certificate: not offered in an emergency here
            # no market limit in an emergency (`emr_valid_bundles` reads none)
            if percent > most or (pres in ids and not any_amount):
                continue
            # a president's certificate may go to the pool though nobody can take it over: the
            # corporation is then frozen (`emr_valid_bundles` asks only `can_sell_any_amount?`)
            out.append((sym, ids, percent, half_price(money, sym, percent)))
    return out


def _next_shares(game: State, owner: str, active: str, needed: int) -> list[Bundle]:
    if needed <= 0:
        return []
    money = game.money
    found = [b for b in _bundles(game, owner, active)
             if b[3] < needed + half_price(money, b[0], money.book.normal_percent(b[0]))]
    others = [b for b in found if b[0] != owner]
    return others or [b for b in found if b[0] == owner]


def issuable(game: State, corp: str, needed: int | None = None) -> list[tuple[str, Bundle]]:
    """(seller, bundle) the chain of corporations must sell before the player pays
    (`emergency_issuable_bundles`), toward `needed` (the cheapest depot train unless given)."""
    needed = cheapest(game) if needed is None else needed
    for c in chain_corps(game.money, corp):
        needed -= game.money.cash[c]
        if needed <= 0:
            return []
        found = _next_shares(game, c, corp, needed)
        if found:
            return [(c, b) for b in found]
    return []


def player_bundles(game: State, corp: str) -> list[Bundle]:
    """The controlling player's own emergency sales. Any corporation's, operated or not: G1841's
    `BuyTrain#can_sell?` asks only `emr_can_sell?`, not the sale timing (a corporation just
    formed by a merger is sold in 1841_game_end_bankrupt's action 594)."""
    player = C.controller(game.money, corp)
    if player is None:
        return []
    return _bundles(game, player, corp)


def has_run(game: State, sym: str) -> bool:
    """18xx.games' `Corporation#operated?` (what `SELL_AFTER = :operate` reads): it has an
    operating history, which its first turn starts at the dividend step (run or skipped)."""
    if sym in game.operated:
        return True
    op = game.operating
    return op is not None and op.turn is not None and op.turn.corp == sym and op.turn.paid


def sell(game: State, seller: str, corp: str, cert_ids: list[str], bundles: list[Bundle]) -> State:
    """Sell one of `bundles` of `seller`'s at half price and sweep the proceeds (and the chain's
    cash) into `corp` up to the cheapest depot train."""
    match = next((b for b in bundles if set(b[1]) == set(cert_ids)), None)
    if match is None:
        raise RuleError("cannot_sell_bundle", f"{seller} cannot sell that bundle for {corp}'s train")
    return replace(game, money=sweep(sold(game, seller, match), corp, seller, cheapest(game)))


def sold(game: State, seller: str, bundle: Bundle, any_presidency: bool = False) -> MoneyState:
    """`bundle` of `seller`'s sold to the pool at its half price, the price moving down a
    row per share (`sell_shares_and_change_price`); the presidency moves where the rules let
    it (`pres_change_ok?`), or anywhere with `any_presidency` (a bankrupt's first sales call
    it with its default `allow_president_change: true`, a historical one's before phase 4 too)."""
    sym, ids, percent, price = bundle
    money = game.money
    presidents = money.presidents(sym) if any_presidency or H.pres_change_ok(game, sym) else []
    before = money.book.president_of(sym)
    book = money.book.moved(list(ids), S.POOL)
    if before in presidents:
        book = S.settle_presidency(book, sym, presidents, before)
    elif before == S.POOL:
        # the certificate already lay in the pool: the sale's presidency check hands it to
        # the player now holding most (a bankrupt's sales: the differential's game 24)
        book = H.pool_presidency(replace(money, book=book), sym, presidents)
    money = replace(money, book=book, cash=S.pay(money.cash, S.BANK, seller, price))
    return money.move_price(sym, "down", percent // money.book.normal_percent(sym))


def bankruptcy_sales(game: State, player: str, corp: str) -> State:
    """A bankrupt president's first sales (G1841 `Step::Bankrupt`): of each corporation, in
    the operating order as it stood, the largest bundle the emergency rules let him sell, at
    half price and moving the price; what he still holds goes after, without moving prices."""
    held = game.money.book.by_company(player)
    order = game.money.operating_order()
    # parred but not yet floated corporations have a price too: after the operating order
    rest = sorted((s for s in held if s not in order and s in game.money.corps and game.money.corps[s].price is not None),
                  key=lambda s: -game.money.price_of(s))
    for sym in [s for s in order if s in held] + rest:
        bundles = [b for b in _bundles(game, player, corp) if b[0] == sym]
        if bundles:
            game = replace(game, money=sold(game, player, max(bundles, key=lambda b: b[3]), any_presidency=True))
    return game


def raisable_cash(money: MoneyState, corp: str) -> int:
    """The cash `corp` and everyone up its chain of control have (what `sweep` can gather)."""
    total = money.cash[corp]
    for holder in C.chain_of_control(money, corp):
        if holder is None or holder not in money.cash or holder in (S.POOL, S.BANK):
            break
        total += money.cash[holder]
    return total


def cash_before_selling(game: State, corp: str, needed: int) -> int:
    """18xx.games `emergency_cash_before_selling`: the cash of `corp` and of each holder up its
    chain of control in turn, up to the first that has shares to sell toward what is still
    needed (its cash counted)."""
    money = game.money
    total = 0
    for holder in [corp, *C.chain_of_control(money, corp)]:
        if holder is None or holder not in money.cash or holder in (S.POOL, S.BANK):
            break
        total += money.cash[holder]
        needed -= money.cash[holder]
        if _next_shares(game, holder, corp, needed):
            return total
    return total


def sweep(money: MoneyState, corp: str, seller: str, cost: int) -> MoneyState:
    """Move the chain's cash into `corp` toward `cost`, up to and including `seller`."""
    if corp == seller:
        return money
    cash = dict(money.cash)
    for holder in C.chain_of_control(money, corp):
        if holder is None or holder not in cash or holder in (S.POOL, S.BANK):
            break
        amount = min(max(cost - cash[corp], 0), cash[holder])
        cash[holder] -= amount
        cash[corp] += amount
        if holder == seller:
            break
    return replace(money, cash=cash)


def _best(bundles: list[Bundle]) -> dict[str, int]:
    out: dict[str, int] = {}
    for sym, _ids, _percent, price in bundles:
        out[sym] = max(out.get(sym, 0), price)
    return out


def buying_power(game: State, corp: str) -> int:
    """What the president and the chain could raise for `corp`'s train (18xx.games
    `total_emr_buying_power`): the player's cash and half the value of the largest bundle he
    may sell of each corporation, the corporation's cash and what the chain of corporations
    holds and may sell in an emergency beyond the cash met before the first sale."""
    money = game.money
    player = C.controller(money, corp)
    total = 0
    if player is not None:
        total += money.cash[player]
        # G1841 `liquidity(emergency: true)`: per corporation the dearest bundle the active step
        # would let him sell (`sellable_bundles` asks its `can_sell?`: the train step's
        # `emr_can_sell?`), at its full price halved and truncated
        dearest: dict[str, int] = {}
        for sym, _ids, percent, _half in _bundles(game, player, corp):
            dearest[sym] = max(dearest.get(sym, 0), percent)
        for sym, percent in dearest.items():
            total += int(money.price_of(sym) * percent / money.book.normal_percent(sym) / 2)
    chain = chain_corps(money, corp)
    issuable_cash = sum(money.cash[c] + sum(_best(_bundles(game, c, corp)).values()) for c in chain)
    before, needed = 0, cheapest(game)
    for c in chain:
        before += money.cash[c]
        needed -= money.cash[c]
        if _next_shares(game, c, corp, needed):
            break
    return total + money.cash[corp] + issuable_cash - before


def may_declare_bankruptcy(game: State, corp: str) -> bool:
    """The Bankrupt step takes a declaration whenever the buying power falls short of the
    cheapest depot train (`can_go_bankrupt?`), sales or no sales left."""
    return buying_power(game, corp) < cheapest(game)


def can_go_bankrupt(game: State, corp: str) -> bool:
    total = game.money.cash[corp]
    for holder in C.chain_of_control(game.money, corp):
        if holder is None or holder not in game.money.cash or holder in (S.POOL, S.BANK):
            break
        total += game.money.cash[holder]
    return total < cheapest(game) and not issuable(game, corp) and not player_bundles(game, corp)
