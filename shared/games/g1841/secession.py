"""The Ferdinandea secession (the first 4-train): IRSFF, if it has floated and no corporation
connects its Milano and Venezia, splits into SB and SFL (version 1: the minors SFV and SFL);
otherwise those two close (18xx.games `event_ferd_secession!`, `secession_start` and what
follows it; facts, own code).

The split: both new corporations take IRSFF's place on the market (version 1 on a column a
minor may stand on), its tokens by region (`board/events.secession_tokens`), its trains by
turns (the longest to the Austrian half), nine tenths of its cash to the Austrian half, its
certificates of others by turns (the dearest first). IRSFF's president then holds both
presidents' certificates if he had 40 %, else he picks one and the other goes to the first
holder of a pair; every pair of IRSFF shares becomes a share of each, every single share one
of either (its holder picks while both have shares left). Then each new corporation offers its
treasury shares to its holders, and again while they accept; in the default game each may buy
tokens at L.50 up to five. IRSFF closes; the two operate in this round if IRSFF had not yet.
"""

from __future__ import annotations

import msgspec

from shared.games.core18xx.board import network as NW
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import data as D
from shared.games.g1841 import holders as H
from shared.games.g1841 import transfers as X
from shared.games.g1841.board import events as BE
from shared.games.g1841.board.stations import version
from shared.games.g1841.eventrun import Run
from shared.games.g1841.state import Question

replace = msgspec.structs.replace
OLD = "IRSFF"
TITLE = "Ferdinandea Secession: "


def run(r: Run) -> None:
    s = r.s
    newa, newb = BE.secession_corporations(s.variant)
    irsff = s.money.corps[OLD]
    if not irsff.floated or irsff.closed:
        r.say("-- Event: The Ferdinandea Secession will not occur - IRSFF is not active --")
        _close_unstarted(r, [newa, newb])
        return
    if BE.milano_venezia_connected(BS.the_map(s), s.board, s.variant):
        r.say("-- Event: The Ferdinandea Secession will not occur - Milano and Venezia are connected --")
        _close_unstarted(r, [newa, newb])
        return
    r.say("-- Event: The Ferdinandea Secession begins - Milano and Venezia are not connected --")
    _split(r, newa, newb)


def _close_unstarted(r: Run, syms: list[str]) -> None:
    from shared.games.g1841 import flow
    r.s = flow.close_unstarted(r.s, syms)


def _decider(r: Run) -> str:
    """IRSFF's controller, or (IRSFF frozen) the player of the corporation operating now."""
    s = r.s
    who = X.player_of(s, OLD)
    if who is None and s.operating is not None and s.operating.turn is not None:
        who = X.player_of(s, s.operating.turn.corp)
    return who or s.money.players[0]


def _split(r: Run, newa: str, newb: str) -> None:
    decider = _decider(r)
    s = r.s
    money = s.money
    price = money.corps[OLD].price
    assert price is not None
    right = int(D.entities(s.variant)["rightmost_minor_column"])
    if money.corps[newa].type == "minor" and price[1] > right:
        cell = (price[0], right)
        r.say(f"New price for {newa} and {newb} will be {money.market.at(cell).price}")
        money = X.without_marker(money, OLD)
        money = X.start_at(X.start_at(money, newa, cell), newb, cell)
    else:
        money = X.take_place_of(money, OLD, [newa, newb])
    r.s = s = replace(s, money=money)
    _tokens(r, newa, newb)
    _trains(r, newa, newb)
    _cash(r, newa, newb)
    _treasury(r, newa, newb)
    _presidents(r, decider, newa, newb)
    _offers(r, decider, newa, newb)
    if version(r.s.variant) == 2:
        for corp in (newa, newb):
            _buy_tokens(r, decider, corp)
    _finish(r, newa, newb)


def _tokens(r: Run, newa: str, newb: str) -> None:
    s = r.s
    m = BS.the_map(s)
    placed = NW.token_nodes(m, s.board, OLD)
    order_hexes = s.token_order.get(OLD, [])
    order = sorted(placed, key=lambda n: order_hexes.index(n[0]) if n[0] in order_hexes else len(order_hexes))
    unplaced = max(s.tokens.get(OLD, 0) - len(placed), 0)
    split = BE.secession_tokens(m, s.board, s.variant, unplaced, order)
    token_order = {k: v for k, v in s.token_order.items() if k != OLD}
    for corp in (newa, newb):
        mine = [h for h, _ in order if any(corp in row for row in B.slots(m, split.board, h))]
        token_order[corp] = mine
        for h in mine:
            r.say(f"Replaced {OLD} token in {h} with {corp} token")
    tokens = {k: v for k, v in s.tokens.items() if k != OLD}
    tokens.update(split.tokens)
    r.s = replace(s, board=split.board, token_order=token_order, tokens=tokens)


def _trains(r: Run, newa: str, newb: str) -> None:
    # `old.trains.sort_by(&:name).reverse` over IRSFF's trains in the order they came to it
    # (the sort kept that order among equal names in the games checked)
    trains = T.acquired(r.s.depot, OLD)
    trains.sort(key=lambda t: t.name)
    trains.reverse()
    for i, t in enumerate(trains):
        to = newa if i % 2 == 0 else newb
        r.s = X.give_train(r.s, t, to)
        r.say(f"{to} receives a {t.name} train from {OLD}")


def _cash(r: Run, newa: str, newb: str) -> None:
    cash = r.s.money.cash.get(OLD, 0)
    cashb = cash // 10
    casha = cash - cashb
    for corp, amount in ((newa, casha), (newb, cashb)):
        if amount > 0:
            r.s = X.pay(r.s, OLD, corp, amount)
            r.say(f"{corp} receives {amount} from {OLD}")


def _treasury(r: Run, newa: str, newb: str) -> None:
    money = r.s.money
    # 18xx.games sorts `corporate_shares` (its share order: `treasury_in_18xx_order`) by price,
    # stably, and reverses: the dearest first, ties in reverse order
    held = [c for c in H.treasury_in_18xx_order(money, OLD) if c.corporation != OLD]
    held.sort(key=lambda c: money.cert_price(c.corporation, c.percent))
    held.reverse()
    for i, cert in enumerate(held):
        to = newa if i % 2 == 0 else newb
        r.say(f"Moving {cert.percent}% share of {cert.corporation} from {OLD} to {to} treasury")
        r.s = X.move(r.s, [cert.id], to, True, corporate=True)


def _president_cert(r: Run, corp: str) -> str | None:
    cert = r.s.money.book.president_cert(corp)
    return cert.id if r.s.money.book.owner[cert.id] == corp else None


def _presidents(r: Run, decider: str, newa: str, newb: str) -> None:
    book = r.s.money.book
    old_owner = book.president_of(OLD)
    presa, presb = book.president_cert(newa).id, book.president_cert(newb).id
    if old_owner != S.POOL:
        mine = X.certs(r.s.money, old_owner, OLD)
        if book.percent_of(old_owner, OLD) >= 40:
            pres = next(c for c in mine if c.president)
            plain = [c for c in mine if not c.president][:2]
            for c in (pres, *plain):
                r.s = X.move(r.s, [c.id], OLD, False)
            r.s = X.move(r.s, [presa], old_owner, True)
            r.s = X.move(r.s, [presb], old_owner, True)
            r.say(f"Transferred president shares of {newa} and {newb} to {X.name(r.s, old_owner)}")
            _pairs(r, decider, newa, newb, newb)
        else:
            asks = old_owner if X.player_of(r.s, OLD) else decider
            q = Question("choose", "pick_exchange_pres", asks,
                         f"{TITLE}choose corporation to exchange IRSFF president share for {X.name(r.s, old_owner)}",
                         choices=["a", "b"])
            new, other = (newa, newb) if r.ask(q) == "a" else (newb, newa)
            pres = next(c for c in X.certs(r.s.money, old_owner, OLD) if c.president)
            r.s = X.move(r.s, [pres.id], OLD, False)
            r.s = X.move(r.s, [book.president_cert(new).id], old_owner, True)
            r.say(f"Transferred president share of {new} to {X.name(r.s, old_owner)}")
            _pairs(r, decider, newa, newb, other)
        return
    # IRSFF's president's certificate is in the pool: 18xx.games moves the Austrian half's
    # to the pool (twice; the other half's stays in its treasury)
    r.s = X.move(r.s, [presa], S.POOL, True)
    _singles(r, decider, newa, newb)


def _pairs(r: Run, decider: str, newa: str, newb: str, other: str) -> None:
    """Every holder of two IRSFF shares or more swaps each pair for the other half's
    president's certificate (the first) or a share of each (`secession_exchange_pairs`)."""
    other_pres = _president_cert(r, other)
    holders = X.holder_list(r.s, decider, lambda h: r.s.money.book.percent_of(h, OLD) >= 20, (OLD,))
    for sh in holders:
        while r.s.money.book.percent_of(sh, OLD) > 10:
            two = X.certs(r.s.money, sh, OLD)[:2]
            for c in two:
                r.s = X.move(r.s, [c.id], OLD, False)
            if other_pres is not None and sh == S.POOL:
                r.s = X.move(r.s, [other_pres], S.POOL, False)
                r.say(f"{other} president share moved to share pool")
                other_pres = None
            elif other_pres is not None:
                r.s = X.move(r.s, [other_pres], sh, True)
                r.say(f"Transferred president share of {other} to {X.name(r.s, sh)}")
                other_pres = None
            else:
                for corp in (newa, newb):
                    cert = X.first_of(r.s.money, corp, corp)
                    if cert is not None:
                        r.s = X.move(r.s, [cert.id], sh, True)
                        r.say(f"Transferred share of {corp} to {X.name(r.s, sh)}")
    if other_pres is not None:
        r.s = X.move(r.s, [other_pres], S.POOL, True)
        r.say(f"{other} president share moved to share pool")
    _singles(r, decider, newa, newb)


def _singles(r: Run, decider: str, newa: str, newb: str) -> None:
    holders = X.holder_list(r.s, decider, lambda h: r.s.money.book.percent_of(h, OLD) >= 10, (OLD,))
    for sh in holders:
        a_left = bool(r.s.money.book.held(newa, newa))
        b_left = bool(r.s.money.book.held(newb, newb))
        if not a_left and not b_left:
            break
        if a_left and b_left and (sh == S.POOL or X.player_of(r.s, sh)):
            asks = decider if sh == S.POOL else sh
            q = Question("choose", "pick_exchange_corp", asks,
                         f"{TITLE}choose share that {X.name(r.s, sh)} will exchange an IRSFF share for",
                         choices=["a", "b"])
            choice = r.ask(q)
        else:
            choice = "a" if a_left else "b"
        new = newa if choice == "a" else newb
        old_share = X.certs(r.s.money, sh, OLD)[0]
        new_share = X.first_of(r.s.money, new, new)
        assert new_share is not None
        r.s = X.move(r.s, [old_share.id], OLD, False)
        r.s = X.move(r.s, [new_share.id], sh, True)
        r.say(f"{X.name(r.s, sh)} exchanges a share of {OLD} for a share of {new}")


def _offers(r: Run, decider: str, newa: str, newb: str) -> None:
    """A round of offers for each, then again for either while its president (or the
    decider) wants it and someone can buy (`secession_post_offer`)."""
    def offer(corp: str) -> None:
        holders = X.active_holders(r.s, X.player_of(r.s, corp) or decider, corp)
        r.say(f"Starting round of share purchases of {corp}" if holders else f"Skipping round of share purchases of {corp}")
        X.share_offers(r, corp, holders, TITLE)

    offer(newa)
    offer(newb)
    done = {newa: False, newb: False}
    corp = newb
    while not all(done.values()):
        corp = newb if corp == newa else newa
        if done[corp]:
            continue
        priority = X.player_of(r.s, corp) or decider
        if not any(X.can_buy_share(r.s, h, corp) for h in X.active_holders(r.s, priority, corp)):
            done[corp] = True
            continue
        asks = corp if X.player_of(r.s, corp) else decider
        q = Question("choose", "offer_again", asks, f"{TITLE}perform another share purchase round for {corp}?",
                     choices=["y", "n"])
        if r.ask(q) == "y":
            r.say(f"Another round of purchases for {corp} was approved")
            offer(corp)
        else:
            r.say(f"Another round of purchases for {corp} was declined")
            done[corp] = True


def _buy_tokens(r: Run, decider: str, corp: str) -> None:
    cost = int(D.entities(r.s.variant)["secession_token_cost"])
    have = r.s.tokens.get(corp, 0)
    most = BE.secession_purchase_limit(have, r.s.money.cash[corp])
    if most == 0:
        r.say(f"{corp} cannot buy additional tokens")
        return
    asks = corp if X.player_of(r.s, corp) else decider
    q = Question("choose", "tokens", asks, f"number of additional tokens to buy for {corp} at {cost} each",
                 choices=list(range(0, most + 1)))
    count = int(r.ask(q))
    r.s = X.pay(r.s, corp, S.BANK, cost * count)
    r.s = replace(r.s, tokens={**r.s.tokens, corp: have + count})


def _finish(r: Run, newa: str, newb: str) -> None:
    s = r.s
    op = s.operating
    if op is not None and OLD in op.order and op.order.index(OLD) > op.index:
        r.say(f"{newa} and {newb} will run this OR")
        at = op.order.index(OLD)
        order = [*op.order[:at], newa, newb, *op.order[at + 1:]]
        s = replace(s, operating=replace(op, order=order))
    else:
        r.say(f"{newa} and {newb} will not run this OR")
    r.s = s
    X.restart(r, OLD)
    r.say("-- Ferdinandea Secession Complete --")
