"""Share, cash, train and market moves the train events make (18xx.games `g_1841/game.rb`:
`simple_transfer_share`, the share pool's `transfer_shares` with a presidency check,
`secession_share_holder_list`, `merger_share_holder_list`, `active_share_holder_list`,
`can_buy_share?`, `share_offer_next`, `move_assets`, `restart_corporation!`; facts, own code).

18xx.games picks "the first" certificate of a holder in the order it arrived; the core's
`ShareBook` keeps that order, so `first_of` is its `shares_of(...).first`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import control as C
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.money.shares import Cert
from shared.games.core18xx.money.state import MoneyState
from shared.games.g1841 import holders as H
from shared.games.g1841.money import corp_info
from shared.games.g1841.state import State

if TYPE_CHECKING:
    from shared.games.g1841.eventrun import Run

replace = msgspec.structs.replace
MAX_TOKENS = 5


def name(state: State, holder: str) -> str:
    if holder == S.POOL:
        return "Market"
    if holder in state.players:
        return state.seats[state.players.index(holder)]
    return holder


def certs(money: MoneyState, holder: str, sym: str) -> list[Cert]:
    return list(money.book.held(holder, sym))


def first_of(money: MoneyState, holder: str, sym: str, plain: bool = False) -> Cert | None:
    return next((c for c in money.book.held(holder, sym) if not (plain and c.president)), None)


def move(state: State, cert_ids: list[str], to: str, president_change: bool, corporate: bool = False) -> State:
    """Certificates change hands without payment; with `president_change` the presidency
    passes to a holder who now has more than the president (18xx.games `transfer_shares`).
    `corporate`: its `corporate_transfer` (the secession's dealing of a treasury), where the
    president's certificate moved to `to` is swapped for shares that go to `to` as well."""
    money = state.money
    if not cert_ids:
        return state
    sym = money.book.certs[cert_ids[0]].corporation
    before = money.book.president_of(sym)
    book = money.book.moved(cert_ids, to)
    if president_change and before in (sym, S.POOL):
        book = _unowned_presidency(book, money.presidents(sym), sym, to)
    elif president_change and before in money.presidents(sym):
        receiver = to if corporate and money.book.president_cert(sym).id in cert_ids else None
        book = S.settle_presidency(book, sym, money.presidents(sym), before, receiver)
    return replace(state, money=replace(money, book=book))


def _unowned_presidency(book: S.ShareBook, presidents: list[str], sym: str, to: str) -> S.ShareBook:
    """The president's certificate in the treasury or the pool: the first holder to reach its
    size takes it, handing two shares' worth to where it lay. From the treasury the receiver
    goes first; from the pool (the pool as previous president, at distance 0 from all) the
    holders go in the order of `share_holders`, where they first came to hold the
    corporation (`in_arrival_order`): a receiver new to it last (the differential's game 15:
    SFTN, not the merger's new CGTF, takes SFTG; game 72: SSFL before P1)."""
    pres = book.president_cert(sym)
    percents = {p: book.percent_of(p, sym) for p in presidents}
    best = max(percents.values(), default=0)
    if best < pres.percent:
        return book
    leaders = [p for p in presidents if percents[p] == best]
    if book.owner[pres.id] == S.POOL:
        winner = H.in_arrival_order(book, sym, leaders)[0]
    else:
        winner = to if to in leaders else leaders[0]
    lay = book.owner[pres.id]
    swap, swapped = [], 0
    for cert in book.held(winner, sym):
        if swapped >= pres.percent:
            break
        swap.append(cert.id)
        swapped += cert.percent
    return book.moved(swap, lay).moved([pres.id], winner)


def pay(state: State, payer: str, payee: str, amount: int) -> State:
    if amount <= 0:
        return state
    return replace(state, money=replace(state.money, cash=S.pay(state.money.cash, payer, payee, amount)))


def player_of(state: State, entity: str) -> str | None:
    """18xx.games' `entity.player`: a player himself, a corporation's controller, else None."""
    return C.controller(state.money, entity) if entity != S.POOL else None


def rotated(state: State, first: str) -> list[str]:
    players = state.money.players
    at = players.index(first) if first in players else 0
    return players[at:] + players[:at]


def holder_list(state: State, priority: str, holds: Callable[[str], bool], skip: tuple[str, ...]) -> list[str]:
    """Holders asked in turn: each player from `priority` on, followed by the corporations he
    controls; then the pool; then the frozen corporations (`skip` never)."""
    money = state.money
    out: list[str] = []
    for p in rotated(state, priority):
        if holds(p):
            out.append(p)
        out += [c for c in C.controlled_by(money, p) if c not in skip and holds(c)]
    if holds(S.POOL):
        out.append(S.POOL)
    out += [c for c in money.corps if c not in skip and C.frozen(money, c) and holds(c)]
    return out


def active_holders(state: State, priority: str, corp: str) -> list[str]:
    """Players from `priority` holding `corp`, each followed by the corporations he controls
    that hold it (`active_share_holder_list`, corporations included)."""
    money = state.money
    out: list[str] = []
    for p in rotated(state, priority):
        if money.book.held(p, corp):
            out.append(p)
        out += [c for c in C.controlled_by(money, p) if c != corp and money.book.held(c, corp)]
    return out


def can_buy_share(state: State, entity: str, corp: str) -> bool:
    """May `entity` buy a treasury share of `corp` at its price (`can_buy_share?`)?"""
    money = state.money
    if not money.book.held(corp, corp) or money.cash.get(entity, 0) < money.price_of(corp):
        return False
    if entity in money.corps and (entity == corp or corp in C.chain_of_control(money, entity)):
        return False
    if money.counts_for_limit(corp) and money.num_certs(entity) >= money.cert_limit_of(entity):
        return False
    return H.controlled_percentage(money, entity, corp) + 10 <= money.corps[corp].max_ownership_percent


def share_offers(run: Run, corp: str, entities: list[str], title: str) -> None:
    """Offer one treasury share of `corp` to each entity in turn (`share_offer_next`)."""
    from shared.games.g1841.state import Question
    for entity in entities:
        if not can_buy_share(run.s, entity, corp):
            run.say(f"{name(run.s, entity)} cannot buy a share of {corp} and is skipped")
            continue
        price = run.s.money.price_of(corp)
        q = Question("choose", "share_offer", entity, f"{title}optional purchase of a share of {corp} for {price}",
                     choices=["no", "yes"])
        if run.ask(q) == "no":
            run.say(f"{name(run.s, entity)} declines to buy a share of {corp}")
            continue
        cert = first_of(run.s.money, corp, corp)
        assert cert is not None
        run.s = pay(run.s, entity, corp, price)
        run.s = move(run.s, [cert.id], entity, True)
        run.say(f"{name(run.s, entity)} buys a share of {corp}")


# --- market ----------------------------------------------------------------------------------

def without_marker(money: MoneyState, sym: str) -> MoneyState:
    tokens = {k: v for k, v in money.tokens.items() if k != sym}
    corps = {**money.corps, sym: replace(money.corps[sym], price=None, par=None)}
    return replace(money, tokens=tokens, corps=corps)


def start_at(money: MoneyState, sym: str, coord: tuple[int, int]) -> MoneyState:
    """`sym` started (ipoed, floated) at `coord`, arriving last there (`set_par` on any cell)."""
    money = money.set_par(sym, coord, par_cell_only=False)
    return replace(money, corps={**money.corps, sym: replace(money.corps[sym], floated=True)})


def take_place_of(money: MoneyState, old: str, new: list[str]) -> MoneyState:
    """`new` take `old`'s place on its market cell, in that order (`secession_replace_price_tokens`)."""
    mark = money.tokens[old]
    coord = money.corps[old].price
    assert coord is not None
    n = len(new)
    tokens = {s: (replace(t, arrived=t.arrived + n - 1) if t.arrived > mark.arrived else t)
              for s, t in money.tokens.items() if s != old}
    corps = dict(money.corps)
    for i, sym in enumerate(new):
        tokens[sym] = replace(mark, corporation=sym, arrived=mark.arrived + i)
        corps[sym] = replace(corps[sym], price=coord, par=coord, ipoed=True, floated=True)
    corps[old] = replace(corps[old], price=None, par=None)
    return replace(money, tokens=tokens, corps=corps, arrivals=money.arrivals + n - 1)


# --- assets ----------------------------------------------------------------------------------

def move_trains(state: State, frm: str, to: str) -> State:
    """`frm`'s trains join `to`'s after them, in the order `frm` got them (`concat`)."""
    trains = dict(state.depot.trains)
    seq = T.next_seq(trains)
    for i, t in enumerate(T.acquired(state.depot, frm)):
        trains[t.id] = replace(t, owner=to, seq=seq + i)
    return replace(state, depot=replace(state.depot, trains=trains))


def give_train(state: State, train: T.Train, to: str) -> State:
    trains = {**state.depot.trains, train.id: replace(train, owner=to, seq=T.next_seq(state.depot.trains))}
    return replace(state, depot=replace(state.depot, trains=trains))


def move_assets(run: Run, frm: str, other: str | None, target: str) -> None:
    """Everything of `frm` but its own unsold shares and its tokens goes to `target`; its
    shares of `other` go back to `other`'s treasury (`move_assets`)."""
    s = run.s
    if other is not None:
        cross = certs(s.money, frm, other)
        if cross:
            run.say(f"Removing {len(cross)} share(s) of {other} in {frm} treasury")
            s = move(s, [c.id for c in cross], other, False)
    for sym, held in list(s.money.book.by_company(frm).items()):
        if sym == frm or not held:
            continue
        run.say(f"Moving {sum(c.percent for c in held)}% of shares of {sym} from {frm} to {target} treasury")
        is_pres = any(c.president for c in held)
        s = move(s, [c.id for c in held], target, not is_pres)
    cash = s.money.cash.get(frm, 0)
    if cash > 0:
        run.say(f"Moving {cash} from {frm} to {target} treasury")
        s = pay(s, frm, target, cash)
    run.say(f"Moving {s.depot.count_owned(frm)} train(s) from {frm} to {target}")
    run.s = move_trains(s, frm, target)


def done_this_round(run: Run, *syms: str) -> None:
    """A merger's or transformation's corporations do not operate again this round, even
    started anew (G1841 `merger_finish`/`transform_finish` set `done_this_round`, which the
    operating round's `skip_entity?` reads)."""
    op = run.s.operating
    if op is not None:
        run.s = replace(run.s, operating=replace(op, done=[*op.done, *(c for c in syms if c not in op.done)]))


def restart(run: Run, sym: str) -> None:
    """A corporation merged away: a historical one closes; a general one is available to
    start again, with its shares back in its treasury in order and one or two tokens
    (`restart_corporation!`)."""
    s = run.s
    money = without_marker(s.money, sym)
    operated = [c for c in s.operated if c != sym]
    token_order = {k: v for k, v in s.token_order.items() if k != sym}
    board = B.unreserve(s.board, sym)
    if corp_info(s.variant)[sym].historical:
        run.say(f"{sym} closes")
        corps = {**money.corps, sym: replace(money.corps[sym], closed=True)}
        run.s = replace(s, money=replace(money, corps=corps), operated=operated, token_order=token_order,
                        board=board, tokens={k: v for k, v in s.tokens.items() if k != sym})
        return
    run.say(f"{sym} is available to start")
    corp = money.corps[sym]
    corps = {**money.corps, sym: replace(corp, ipoed=False, floated=False)}
    mine = sorted((c.id for c in money.book.held(sym, sym)), key=lambda cid: int(cid.rsplit("_", 1)[1]))
    money = replace(money, corps=corps, book=money.book.moved(mine, sym))
    tokens = {k: v for k, v in s.tokens.items() if k != sym}
    run.s = replace(s, money=money, operated=operated, token_order=token_order, board=board, tokens=tokens)


def initial_tokens(state: State, sym: str) -> int:
    return 2 if state.money.corps[sym].type == "major" else 1
