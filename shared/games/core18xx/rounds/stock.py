"""The stock round: sell then buy (or start a company), turn by turn until everyone passes.

Follows 18xx.games `Round::Stock`, `Step::BuySellParShares`, `Step::BuySellParSharesViaBid`
(minors started by auction), with what titles change as `StockRules` data:
- On his turn a player may sell any number of bundles (not in the first stock round, not after
  buying, the pool may not exceed its limit, the presidency only if someone can take it), then make
  one purchase: a share from a company's treasury or the pool (not of a company he sold this round),
  or start a company: majors by par (from `majors_from_phase`), and with `minors_by_auction`
  minors by auction (only the first minor of the queue, opening bid at least `minor_min_bid`,
  raised by `bid_increment`; players who cannot afford the next bid drop out; the winner pays
  his bid into the minor, which pars at the highest par price not above half the bid, capped at
  `max_minor_par`).
- A player with nothing possible is passed over and counts as having passed. A turn ends after a
  purchase when nothing else is possible, or on `pass`; ending a turn in which he did something
  counts the player as not passed, passing without having done anything marks him passed; the
  round ends when all players are passed. Starting a minor ends
  the turn of the player who opened the auction (as done: he is not marked passed).
- At the end: with `close_unstarted_minor` the first queued minor closes if none started this
  round; every floated company whose shares are all held by players moves up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import msgspec

from shared.engine import AmountRange, LegalAction, RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.money import control as C
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.state import MoneyState

T = TypeVar("T")


class StockRules(msgspec.Struct, frozen=True):
    """A title's stock-round rules (defaults: the base game, majors by par in any phase)."""
    minors_by_auction: bool = False     # minors start by auction (BuySellParSharesViaBid)
    minor_min_bid: int = 100
    max_minor_par: int = 10_000
    bid_increment: int = 5
    majors_from_phase: int = 0          # phase name number ("D" counts as after)
    close_unstarted_minor: bool = False
    # corporations buy and sell other companies' shares on their controller's turn (1841's
    # corporate share steps); the purchase or sale is the turn's, as a player's own would be
    corporations_trade: bool = False


class MinorAuction(msgspec.Struct, frozen=True):
    corporation: str
    bids: list[tuple[str, int]]         # (player, price), one per player, oldest first
    active: list[str]                   # players still in, in round order
    triggerer: str


class StockRound(msgspec.Struct, frozen=True):
    entity_index: int = 0
    passed: list[str] = []
    actions: list[str] = []             # purchase/sale kinds done this turn
    sold: dict[str, list[str]] = {}     # player -> companies sold this round
    auction: MinorAuction | None = None
    minor_started: bool = False
    step_passed: bool = False           # the turn is over (pass, or a minor was won)
    finished: bool = False
    minor_order: list[str] = []         # minors not yet started, in queue order
    phase: str = "2"


PURCHASES = ("buy_shares", "par", "bid_won")


def _bought(sr: StockRound) -> bool:
    return not _PURCHASE_KINDS.isdisjoint(sr.actions)


_PURCHASE_KINDS = frozenset(PURCHASES)


def _sold(sr: StockRound) -> bool:
    return "sell_shares" in sr.actions


def seated(money: MoneyState) -> list[str]:
    """The players a round turns over, in priority order: bankrupt players take no turns
    (18xx.games' stock and merger rounds select `players.reject(&:bankrupt)`)."""
    if not money.bankrupt:
        return money.players
    return [p for p in money.players if p not in money.bankrupt]


def current_player(money: MoneyState, sr: StockRound) -> str:
    return seated(money)[sr.entity_index]


def active_player(money: MoneyState, sr: StockRound) -> str | None:
    if sr.finished:
        return None
    if sr.auction is not None:
        a = sr.auction
        highest = max(a.bids, key=lambda b: b[1])[0]
        order = a.active
        if highest in order:
            return order[(order.index(highest) + 1) % len(order)]
        return order[0]
    return current_player(money, sr)


def _phase_allows_majors(sr: StockRound, rules: StockRules) -> bool:
    return sr.phase == "D" or (sr.phase.isdigit() and int(sr.phase) >= rules.majors_from_phase)


def _first_minor(money: MoneyState, sr: StockRound) -> str | None:
    return next((m for m in sr.minor_order if not money.corps[m].ipoed and not money.corps[m].closed), None)


# --- what a player may do ------------------------------------------------------------------

def _per_money(money: MoneyState, name: str, key: object, make: Callable[[], T]) -> T:
    """`make()` cached on the (immutable) money state under `key`, which must name everything
    else it reads (`dict=True`: the cache is neither encoded nor compared). Asked several times
    of one money state within a decision (the legality check, the action itself, the skip of
    players with nothing to do): answers are read only."""
    cache = money.answers.setdefault(name, {})
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = make()
    return hit


def sellable(money: MoneyState, sr: StockRound, player: str) -> list[tuple[str, list[str], int]]:
    """(company, certificates, percent) bundles `player` may sell now."""
    return [(sym, list(ids), percent) for sym, ids, percent in _sells(money, sr, player)]


def _sells(money: MoneyState, sr: StockRound, player: str) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    """`sellable`, read only."""
    if money.turn <= 1 or _bought(sr):
        return ()
    return _sellable_of(money, player)


def _sellable_of(money: MoneyState, player: str) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    return _per_money(money, "_sellable", player, lambda: tuple(_sellable(money, player)))


def _sellable(money: MoneyState, player: str) -> list[tuple[str, tuple[str, ...], int]]:
    out = []
    book = money.book
    # the companies held, in the order the first certificate of each arrived (a holder's
    # certificates of a company are in arrival order, so its first is its earliest)
    mine = book.by_company(player)
    held = sorted(mine, key=lambda sym: book.seq.get(mine[sym][0].id, 0))
    for sym in held:
        corp = money.corps[sym]
        if not corp.ipoed or corp.closed:
            continue
        room = money.pool_limit(sym) - book.percent_of(S.POOL, sym)
        pres = book.president_cert(sym).id
        dump: bool | None = None    # may the president's certificate go? (the same for every bundle)
        for ids, percent in S.bundles(tuple(mine[sym]), book.normal_percent(sym)):
            if percent > room:
                break       # the bundles come smallest first
            if pres in ids:
                if dump is None:
                    dump = S.can_dump(book, player, sym, ids, money.presidents(sym))
                if not dump:
                    continue
            out.append((sym, ids, percent))
    return out


def buyable(money: MoneyState, sr: StockRound, player: str) -> list[tuple[str, str]]:
    """(company, certificate) purchases open to `player`: the smallest cert from each source."""
    return list(_buys(money, sr, player))


def _buys(money: MoneyState, sr: StockRound, player: str) -> tuple[tuple[str, str], ...]:
    """`buyable`, read only."""
    if _bought(sr):
        return ()
    sold = tuple(sr.sold.get(player, []))
    return _per_money(money, "_buyable", (player, sold), lambda: tuple(_purchases(money, player, sold)))


def _buys_of(money: MoneyState, sr: StockRound, player: str, sym: str) -> tuple[tuple[str, str], ...]:
    """`buyable` of company `sym` alone, read only: what the legality check of a purchase of
    `sym` needs (no other company's purchase can match it), without the whole list."""
    corp = money.corps.get(sym)
    sold = sr.sold.get(player, [])
    if _bought(sr) or corp is None or not corp.ipoed or corp.closed or sym in sold:
        return ()
    known = money.answers.get("_buyable", {}).get((player, tuple(sold)))
    if known is not None:
        return tuple(p for p in known if p[0] == sym)
    return _per_money(money, "_buyable_of", (player, sym), lambda: tuple(_company_purchases(money, player, sym)))


def _purchases(money: MoneyState, player: str, sold: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    for sym, corp in money.corps.items():
        if not corp.ipoed or corp.closed or sym in sold:
            continue
        yield from _company_purchases(money, player, sym)


def _company_purchases(money: MoneyState, player: str, sym: str) -> Iterator[tuple[str, str]]:
    """The purchases of (an open, not sold) `sym` open to `player`: from its treasury, then the pool."""
    book = money.book
    for holder in (sym, S.POOL):
        cert = book.smallest_plain(holder, sym)
        if cert is None:
            continue
        if money.cash[player] >= money.cert_price(sym, cert.percent) and money.can_gain(player, sym, cert.percent):
            yield sym, cert.id


def _any_buyable(money: MoneyState, sr: StockRound, player: str) -> bool:
    """bool(buyable(...)), stopping at the first purchase unless the list is known."""
    if _bought(sr):
        return False
    sold = tuple(sr.sold.get(player, []))
    known = money.answers.get("_buyable", {}).get((player, sold))
    if known is not None:
        return bool(known)
    return next(_purchases(money, player, sold), None) is not None


def _can_start(money: MoneyState, sr: StockRound, player: str, sym: str) -> bool:
    pres = money.book.president_cert(sym)
    return (money.cash[player] >= money.cert_price(sym, pres.percent)
            and money.can_gain(player, sym, pres.percent))


def can_bid_minor(money: MoneyState, sr: StockRound, player: str, rules: StockRules) -> str | None:
    if not rules.minors_by_auction or _bought(sr) or _sold(sr) or money.cash[player] < rules.minor_min_bid:
        return None
    minor = _first_minor(money, sr)
    if minor is None or not _can_start(money, sr, player, minor):
        return None
    return minor


def parable_majors(money: MoneyState, sr: StockRound, player: str, rules: StockRules) -> list[str]:
    if _bought(sr) or _sold(sr) or not _phase_allows_majors(sr, rules):
        return []
    return [s for s, c in money.corps.items()
            if c.type == "major" and not c.ipoed and not c.closed and _can_start(money, sr, player, s)]


def must_sell(money: MoneyState, sr: StockRound, player: str, sells: Sequence[object] | None = None) -> bool:
    """Over the certificate limit, or over the holding limit in a company he could sell: the
    player may only sell. (`sells`: `sellable(money, sr, player)` when the caller has it.)"""
    if not (_sells(money, sr, player) if sells is None else sells):
        return False
    # any bundles at all are all of them, a function of the money state and the player alone
    return _per_money(money, "_over_limits", player, lambda: _over_limits(money, player))


def _over_limits(money: MoneyState, player: str) -> bool:
    if money.num_certs(player) > money.cert_limit:
        return True
    return any(not money.holding_ok(player, s) for s in {sym for sym, _, _ in _sellable_of(money, player)})


def available(money: MoneyState, sr: StockRound, player: str, rules: StockRules) -> list[str]:
    # asked several times of the same (immutable) money and round within one decision (the
    # legality check, the action itself, the skip of players with nothing to do): cached on
    # the money state, the entry holding `sr` and `rules` so their ids stay theirs
    known = _known_kinds(money, sr, player, rules)
    if known is not None:
        return list(known)
    kinds = _available(money, sr, player, rules)
    money.answers.setdefault("_available", {})[(id(sr), player, id(rules))] = (sr, rules, tuple(kinds))
    return kinds


def _known_kinds(money: MoneyState, sr: StockRound, player: str, rules: StockRules) -> tuple[str, ...] | None:
    hit = money.answers.get("_available", {}).get((id(sr), player, id(rules)))
    return hit[2] if hit is not None and hit[0] is sr and hit[1] is rules else None


def is_open(money: MoneyState, sr: StockRound, player: str, rules: StockRules, kind: str | None = None) -> bool:
    """`kind in available(...)` (any kind: `bool(available(...))`), working out only what that
    needs: whether a player has anything to do, or may pass or sell, does not list every
    purchase open to him (the skip of idle players asks it of every next player)."""
    # asked again of the same states by the legality check, the action, the end of the turn
    # and `settle`: answers cached on the money state like `available`'s
    answers = money.answers.setdefault("_is_open", {})
    key = (id(sr), player, id(rules), kind)
    hit = answers.get(key)
    if hit is not None and hit[0] is sr and hit[1] is rules:
        return hit[2]
    known = _known_kinds(money, sr, player, rules)
    if known is not None:
        return bool(known) if kind is None else kind in known
    answer = _is_open(money, sr, player, rules, kind)
    answers[key] = (sr, rules, answer)
    return answer


def _is_open(money: MoneyState, sr: StockRound, player: str, rules: StockRules, kind: str | None) -> bool:
    if sr.finished:
        return False
    if sr.auction is not None:
        return player == active_player(money, sr) and kind in (None, "bid", "pass")
    if sr.step_passed or player != current_player(money, sr):
        return False
    sells = _sells(money, sr, player)
    if must_sell(money, sr, player, sells):
        return kind in (None, "sell_shares")
    if kind == "sell_shares":
        return bool(sells)
    if kind == "buy_shares":
        return _any_buyable(money, sr, player)
    if kind == "par":
        return bool(parable_majors(money, sr, player, rules))
    if kind == "bid":
        return bool(can_bid_minor(money, sr, player, rules))
    if kind not in (None, "pass"):
        return False
    # `pass` comes with any other kind (as in _available)
    return (bool(sells) or bool(can_bid_minor(money, sr, player, rules))
            or bool(parable_majors(money, sr, player, rules)) or _any_buyable(money, sr, player))


def _available(money: MoneyState, sr: StockRound, player: str, rules: StockRules) -> list[str]:
    if sr.finished:
        return []
    if sr.auction is not None:
        return ["bid", "pass"] if player == active_player(money, sr) else []
    if sr.step_passed or player != current_player(money, sr):
        return []
    sells = _sells(money, sr, player)
    if must_sell(money, sr, player, sells):
        return ["sell_shares"]
    kinds = []
    if _buys(money, sr, player):
        kinds.append("buy_shares")
    if parable_majors(money, sr, player, rules):
        kinds.append("par")
    if sells:
        kinds.append("sell_shares")
    if can_bid_minor(money, sr, player, rules):
        kinds.append("bid")
    if kinds:
        kinds.append("pass")
    return kinds


# --- turn flow -----------------------------------------------------------------------------

def start(money: MoneyState, minor_order: list[str], phase: str, rules: StockRules) -> tuple[MoneyState, StockRound]:
    sr = StockRound(minor_order=list(minor_order), phase=phase)
    return _start_entity(money, sr, rules)


def _start_entity(money: MoneyState, sr: StockRound, rules: StockRules) -> tuple[MoneyState, StockRound]:
    # Skip (and mark passed) players with nothing to do, as 18xx.games' skip_steps does.
    players = seated(money)
    for _ in range(len(players) + 1):
        sr = msgspec.structs.replace(sr, actions=[], step_passed=False)
        player = current_player(money, sr)
        if is_open(money, sr, player, rules):
            return money, sr
        sr = _mark(sr, player, passed=True)
        if all(p in sr.passed for p in players):
            return _finish(money, sr, rules)
        sr = msgspec.structs.replace(sr, entity_index=(sr.entity_index + 1) % len(players))
    raise RuleError("stuck", "no player can act")  # unreachable: all would be passed


def _mark(sr: StockRound, player: str, passed: bool) -> StockRound:
    others = [p for p in sr.passed if p != player]
    return msgspec.structs.replace(sr, passed=[*others, player] if passed else others)


def _after_action(money: MoneyState, sr: StockRound, rules: StockRules) -> tuple[MoneyState, StockRound]:
    if sr.auction is not None:
        return money, sr
    if not sr.step_passed and is_open(money, sr, current_player(money, sr), rules):
        return money, sr
    if not sr.step_passed:
        # Nothing left to do after acting: 18xx.games skips the step, which passes it; having
        # acted this turn, the player is counted as not passed.
        sr = _mark(sr, current_player(money, sr), passed=not sr.actions)
    players = seated(money)
    if all(p in sr.passed for p in players):
        return _finish(money, sr, rules)
    sr = msgspec.structs.replace(sr, entity_index=(sr.entity_index + 1) % len(players))
    return _start_entity(money, sr, rules)


def _finish(money: MoneyState, sr: StockRound, rules: StockRules) -> tuple[MoneyState, StockRound]:
    sr = msgspec.structs.replace(sr, entity_index=(sr.entity_index + 1) % len(seated(money)), finished=True)
    if rules.close_unstarted_minor and not sr.minor_started:
        first = _first_minor(money, sr)
        if first is not None:
            corps = dict(money.corps)
            corps[first] = msgspec.structs.replace(corps[first], closed=True)
            money = msgspec.structs.replace(money, corps=corps)
    for sym in money.operating_order():
        holders = money.book.holders(sym)
        if sum(p for h, p in holders.items() if h in money.players) == 100:
            money = money.move_price(sym, "up")
    return money, sr


def priority_after(money: MoneyState, sr: StockRound) -> list[str]:
    """Player order for what follows: 18xx.games rotates its players (bankrupt ones kept in
    place) to the player at the round's final entity index among those who take turns."""
    at = money.players.index(seated(money)[sr.entity_index])
    return money.players[at:] + money.players[:at]


# --- actions -------------------------------------------------------------------------------

def do_pass(money: MoneyState, sr: StockRound, player: str, rules: StockRules) -> tuple[MoneyState, StockRound]:
    if not is_open(money, sr, player, rules, "pass"):
        raise RuleError("cannot_pass", "you cannot pass now")
    if sr.auction is not None:
        a = sr.auction
        a = msgspec.structs.replace(a, active=[p for p in a.active if p != player],
                                    bids=[b for b in a.bids if b[0] != player])
        return _resolve_auction(money, msgspec.structs.replace(sr, auction=a), rules)
    sr = _mark(sr, player, passed=not sr.actions)
    sr = msgspec.structs.replace(sr, step_passed=True)
    return _after_action(money, sr, rules)


def _trader(money: MoneyState, sr: StockRound, player: str, entity: str | None, rules: StockRules) -> str:
    """Who holds the shares a purchase or sale moves: the player, or (`corporations_trade`) a
    corporation he controls, on his own turn (18xx.games `acting_for_entity`)."""
    if entity is None or entity == player:
        return player
    if not rules.corporations_trade or entity not in money.corps:
        raise RuleError("not_a_trader", f"{entity} cannot trade shares")
    if C.controller(money, entity) != player:
        raise RuleError("not_controller", f"{player} does not control {entity}")
    if sr.finished or sr.auction is not None or sr.step_passed or player != current_player(money, sr):
        raise RuleError("not_your_turn", "it is not your turn")
    return entity


def do_buy(money: MoneyState, sr: StockRound, player: str, cert_ids: list[str],
           rules: StockRules, entity: str | None = None) -> tuple[MoneyState, StockRound]:
    buyer = _trader(money, sr, player, entity, rules)
    if buyer == player and not is_open(money, sr, player, rules, "buy_shares"):
        raise RuleError("cannot_buy", "you cannot buy shares now")
    if len(cert_ids) != 1:
        raise RuleError("one_share", "buy one share at a time")
    cert = money.book.certs.get(cert_ids[0])
    if cert is None:
        raise RuleError("unknown_share", f"no share {cert_ids[0]}")
    if cert.corporation == buyer:
        raise RuleError("own_shares", f"{buyer} cannot buy its own shares here")
    options = {cid for _, cid in _buys_of(money, sr, buyer, cert.corporation)}
    holder = money.book.owner[cert.id]
    # any normal cert of the same source and size is as good as the one offered
    ok = any(money.book.owner[o] == holder and money.book.certs[o].corporation == cert.corporation
             and money.book.certs[o].percent == cert.percent for o in options) and not cert.president
    if not ok:
        raise RuleError("cannot_buy_share", f"{cert.id} is not for sale to you")
    price = money.price_of(cert.corporation)
    book, cash = S.buy(money.book, money.cash, buyer, [cert.id], price, money.presidents(cert.corporation))
    money = msgspec.structs.replace(money, book=book, cash=cash).check_float(cert.corporation)
    sr = msgspec.structs.replace(sr, actions=[*sr.actions, "buy_shares"])
    return _after_action(money, sr, rules)


def do_sell(money: MoneyState, sr: StockRound, player: str, cert_ids: list[str], percent: int | None,
            rules: StockRules, entity: str | None = None) -> tuple[MoneyState, StockRound]:
    seller = _trader(money, sr, player, entity, rules)
    if seller == player and not is_open(money, sr, player, rules, "sell_shares"):
        raise RuleError("cannot_sell", "you cannot sell shares now")
    if not cert_ids or any(c not in money.book.certs for c in cert_ids):
        raise RuleError("unknown_share", "name the shares to sell")
    sym = money.book.certs[cert_ids[0]].corporation
    total = sum(money.book.certs[c].percent for c in cert_ids if c in money.book.certs)
    percent = total if percent is None else percent
    if sym == seller or not any(s == sym and set(ids) == set(cert_ids) and p == percent
                                for s, ids, p in _sells(money, sr, seller)):
        raise RuleError("cannot_sell_bundle", f"you cannot sell that bundle of {sym}")
    book, cash, moved = S.sell(money.book, money.cash, seller, cert_ids, percent, money.price_of(sym),
                               money.presidents(sym), money.pool_limit(sym))
    money = msgspec.structs.replace(money, book=book, cash=cash).move_price(sym, "down", moved)
    sold = dict(sr.sold)
    sold[seller] = [*sold.get(seller, []), sym]
    sr = msgspec.structs.replace(sr, actions=[*sr.actions, "sell_shares"], sold=sold)
    return _after_action(money, sr, rules)


def do_par(money: MoneyState, sr: StockRound, player: str, sym: str, price_id: str,
           rules: StockRules, entity: str | None = None) -> tuple[MoneyState, StockRound]:
    """`player` (or, `corporations_trade`, a corporation he controls: it founds `sym` and
    presides it) starts `sym` at a par price."""
    founder = _trader(money, sr, player, entity, rules)
    if sym == founder or sym not in parable_majors(money, sr, founder, rules):
        raise RuleError("cannot_par", f"you cannot start {sym} now")
    try:
        cell = money.market.by_id(price_id)
    except KeyError as exc:
        raise RuleError("bad_par", str(exc)) from None
    if not cell.can_par or cell.price * 2 > money.cash[founder]:
        raise RuleError("bad_par", f"you cannot par {sym} at {cell.price}")
    money = money.set_par(sym, cell.coord)
    pres = money.book.president_cert(sym)
    book, cash = S.buy(money.book, money.cash, founder, [pres.id], cell.price, money.presidents(sym))
    money = msgspec.structs.replace(money, book=book, cash=cash).check_float(sym)
    sr = msgspec.structs.replace(sr, actions=[*sr.actions, "par"])
    return _after_action(money, sr, rules)


def do_bid(money: MoneyState, sr: StockRound, player: str, sym: str, price: int,
           rules: StockRules) -> tuple[MoneyState, StockRound]:
    if not is_open(money, sr, player, rules, "bid"):
        raise RuleError("cannot_bid", "you cannot bid now")
    a = sr.auction
    if a is None:
        minor = can_bid_minor(money, sr, player, rules)
        if sym != minor:
            raise RuleError("not_first_minor", f"only {minor} can be started now")
        minimum = rules.minor_min_bid
    else:
        if sym != a.corporation:
            raise RuleError("in_auction", f"bid on {a.corporation} or pass")
        minimum = max(b[1] for b in a.bids) + rules.bid_increment
    if price < minimum:
        raise RuleError("bid_too_low", f"the minimum bid is {minimum}")
    if (price - minimum) % rules.bid_increment:
        raise RuleError("bid_step", f"raise in steps of {rules.bid_increment}")
    if price > _max_bid(money, player, sym):
        raise RuleError("not_enough_cash", f"you can bid at most {_max_bid(money, player, sym)}")
    if a is None:
        bids = [(player, price)]
        nxt = price + rules.bid_increment
        active = [p for p in seated(money) if p == player or _max_bid(money, p, sym) >= nxt]
        a = MinorAuction(corporation=sym, bids=bids, active=active, triggerer=player)
    else:
        bids = [b for b in a.bids if b[0] != player] + [(player, price)]
        nxt = price + rules.bid_increment
        active = [p for p in a.active if p == player or _max_bid(money, p, sym) >= nxt]
        bids = [b for b in bids if b[0] in active]
        a = msgspec.structs.replace(a, bids=bids, active=active)
    return _resolve_auction(money, msgspec.structs.replace(sr, auction=a), rules)


def _max_bid(money: MoneyState, player: str, sym: str) -> int:
    pres = money.book.president_cert(sym)
    return money.cash[player] if money.can_gain(player, sym, pres.percent) else 0


def _resolve_auction(money: MoneyState, sr: StockRound, rules: StockRules) -> tuple[MoneyState, StockRound]:
    a = sr.auction
    assert a is not None
    if len(a.active) > 1:
        return money, sr
    if a.active and a.bids:
        winner, price = a.bids[0]
        money = _win_minor(money, a.corporation, winner, price, rules)
        sr = msgspec.structs.replace(sr, actions=[*sr.actions, "bid_won"], minor_started=True)
    sr = msgspec.structs.replace(sr, auction=None)
    # The win ends the opener's turn; having "done" something he is not marked passed.
    sr = _mark(sr, current_player(money, sr), passed=not sr.actions)
    sr = msgspec.structs.replace(sr, step_passed=True)
    return _after_action(money, sr, rules)


def _win_minor(money: MoneyState, sym: str, winner: str, price: int, rules: StockRules) -> MoneyState:
    par_cap = min(price // 2, rules.max_minor_par)
    cell = next((c for c in money.market.par_cells() if c.price <= par_cap and c.price * 2 <= money.cash[winner]), None)
    if cell is None:
        raise RuleError("no_par", f"no par price at most {par_cap}")
    money = money.set_par(sym, cell.coord)
    pres = money.book.president_cert(sym)
    cash = S.pay(money.cash, winner, sym, price)
    money = msgspec.structs.replace(money, book=money.book.moved([pres.id], winner), cash=cash)
    return money.check_float(sym)


# --- legal actions -------------------------------------------------------------------------

_KIND_TYPES: dict[str, type] = {"sell_shares": A.SellShares, "buy_shares": A.BuyShares, "par": A.Par,
                                 "bid": A.Bid, "pass": A.Pass}


def for_action(money: MoneyState, sr: StockRound, player: str, rules: StockRules,
               action: A.Action) -> list[LegalAction]:
    """The families that could cover `action` (what its legality check needs): those of its
    type, and of purchases only those of the company its first certificate names (an offer of
    another company's certificate never matches it)."""
    company = None
    if isinstance(action, A.BuyShares):
        cert = money.book.certs.get(action.shares[0]) if action.shares else None
        company = cert.corporation if cert is not None else ""
    return legal(money, sr, player, rules, only=type(action), company=company)


def legal(money: MoneyState, sr: StockRound, player: str, rules: StockRules,
          only: type | None = None, company: str | None = None) -> list[LegalAction]:
    """What `player` may do now; with `only`, just the families of that action type, and with
    `company`, of purchases only that company's (see `for_action`)."""
    if only is None:
        kinds = available(money, sr, player, rules)
    else:
        kinds = [k for k, t in _KIND_TYPES.items() if t is only and is_open(money, sr, player, rules, k)]
    out: list[LegalAction] = []
    who: dict[str, Any] = {"entity": player, "entity_type": "player"}
    if "sell_shares" in kinds:
        for _sym, ids, percent in sellable(money, sr, player):
            out.append(LegalAction(action=A.SellShares(**who, shares=ids, percent=percent)))
    if "buy_shares" in kinds:
        buys = _buys(money, sr, player) if company is None else _buys_of(money, sr, player, company)
        for _sym, cid in buys:
            out.append(LegalAction(action=A.BuyShares(**who, shares=[cid], percent=money.book.certs[cid].percent)))
    if "par" in kinds:
        for sym in parable_majors(money, sr, player, rules):
            for cell in money.market.par_cells():
                if cell.price * 2 <= money.cash[player]:
                    out.append(LegalAction(action=A.Par(**who, corporation=sym, share_price=cell.id)))
    if "bid" in kinds:
        a = sr.auction
        minor = a.corporation if a is not None else can_bid_minor(money, sr, player, rules)
        if minor is not None:
            low = rules.minor_min_bid if a is None else max(b[1] for b in a.bids) + rules.bid_increment
            high = _max_bid(money, player, minor)
            high -= (high - low) % rules.bid_increment
            if high >= low:
                out.append(LegalAction(action=A.Bid(**who, corporation=minor, price=low),
                                       range=AmountRange(field="price", min=low, max=high, step=rules.bid_increment)))
    if rules.corporations_trade and kinds and only in (None, A.BuyShares, A.SellShares, A.Par):
        out += _corporate_legal(money, sr, player, rules, only)
    if "pass" in kinds:
        out.append(LegalAction(action=A.Pass(**who)))
    return out


def _corporate_legal(money: MoneyState, sr: StockRound, player: str, rules: StockRules,
                     only: type | None) -> list[LegalAction]:
    """Purchases, sales and pars of the corporations `player` controls (never of their own
    shares)."""
    out: list[LegalAction] = []
    if _bought(sr):
        return out
    for corp in C.controlled_by(money, player):
        who: dict[str, Any] = {"entity": corp, "entity_type": "corporation"}
        if only in (None, A.SellShares) and money.turn > 1:
            for sym, ids, percent in _sellable_of(money, corp):
                if sym != corp:
                    out.append(LegalAction(action=A.SellShares(**who, shares=list(ids), percent=percent)))
        if only in (None, A.BuyShares):
            for sym, cid in _purchases(money, corp, tuple(sr.sold.get(corp, []))):
                if sym != corp:
                    out.append(LegalAction(action=A.BuyShares(**who, shares=[cid],
                                                              percent=money.book.certs[cid].percent)))
        if only in (None, A.Par):
            for sym in parable_majors(money, sr, corp, rules):
                out += [LegalAction(action=A.Par(**who, corporation=sym, share_price=cell.id))
                        for cell in money.market.par_cells() if sym != corp and cell.price * 2 <= money.cash[corp]]
    return out


def apply(money: MoneyState, sr: StockRound, player: str, action: A.Action,
          rules: StockRules) -> tuple[MoneyState, StockRound]:
    """Apply one of the stock round's decisions (an `actions` struct) for `player`."""
    if isinstance(action, A.Pass):
        return do_pass(money, sr, player, rules)
    if isinstance(action, A.Bid):
        if action.corporation is None:
            raise RuleError("bad_bid", "name the minor to bid on")
        return do_bid(money, sr, player, action.corporation, action.price, rules)
    entity = action.entity if action.entity_type == "corporation" else None
    if entity is not None and not isinstance(entity, str):  # no corporation is named by a number
        raise RuleError("not_a_trader", f"{entity} cannot trade shares")
    if isinstance(action, A.BuyShares):
        return do_buy(money, sr, player, action.shares, rules, entity)
    if isinstance(action, A.SellShares):
        return do_sell(money, sr, player, action.shares, action.percent, rules, entity)
    if isinstance(action, A.Par):
        return do_par(money, sr, player, action.corporation, action.share_price, rules, entity)
    raise RuleError("wrong_round", f"{type(action).__name__} is not a stock-round action")
