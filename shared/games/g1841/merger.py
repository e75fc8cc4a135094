"""Mergers and transformations (18xx.games `merger_values`, `merger_start` and its exchange,
`merger_tokens_start`/`_finish`, `merger_finish`, `transform_start`, `transform_shares`,
`transform_tokens`, `transform_finish`; facts, own code): the Tuscan merge's steps and the
operating turn's own (`stage` "plain"). A merger:

- sets the new corporation's price (two majors: the rightmost price below their sum, at most
  250, or the dearer above 250, the merging president choosing when both are; two minors:
  below their mean);
- moves cash, trains and certificates of others to it (the merging pair's cross holdings back);
- exchanges shares: minors' 40 % for the president's certificate (the first) or two shares, 20 %
  for one; majors' pairs for a share (first pass, where a player may pay to take the
  president's certificate), then single shares for cash at half the price, a share for half the
  price, or the president's certificate;
- in the Tuscan merge, with nobody president, the president's certificate goes to the pool for
  up to two pool shares (a plain merger must end with a president and no new circular chain);
- tokens: duplicates come off (one of two in yellow Firenze by choice), then the president (or
  the decider) removes tokens down to what the merger keeps (`board/events.merger_removal`).

The merged corporations close, or (general ones) are available to start again.
"""

from __future__ import annotations

import msgspec

from shared.engine import RuleError
from shared.games.core18xx.board import network as NW
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.market import Cell
from shared.games.core18xx.money.state import MoneyState
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import holders as H
from shared.games.g1841 import transfers as X
from shared.games.g1841.board import events as BE
from shared.games.g1841.eventrun import Run
from shared.games.g1841.state import Question

replace = msgspec.structs.replace
TITLE = "Tuscan Merge - "


# --- prices ----------------------------------------------------------------------------------

def rightmost_below(money: MoneyState, value: float) -> Cell:
    """`find_rightmost_share_price`: the dearest cell below `value` in each row; of those, the
    one furthest right (the first such row wins ties)."""
    best_col, best = -1, None
    for row in money.market.rows:
        cells = [c for c in row if c is not None]
        row_col, row_best = 0, cells[0]
        for col, cell in enumerate(cells):
            if cell.price > row_best.price and cell.price < value:
                row_col, row_best = col, cell
        if row_col > best_col:
            best_col, best = row_col, row_best
    assert best is not None
    return best


def merger_values(money: MoneyState, a: str, b: str) -> list[Cell]:
    pa, pb = money.price_of(a), money.price_of(b)
    cell = money.market.at
    ca, cb = money.corps[a].price, money.corps[b].price
    assert ca is not None and cb is not None
    if money.corps[a].type == "major":
        if pa > 250 and pb > 250:
            return sorted({pa: cell(ca), pb: cell(cb)}.values(), key=lambda c: c.price)
        if pa > 250:
            return [cell(ca)]
        if pb > 250:
            return [cell(cb)]
        return [rightmost_below(money, min(pa + pb, 250))]
    return [rightmost_below(money, (pa + pb) / 2.0)]


# --- the merger ------------------------------------------------------------------------------

def _pct(r: Run, holder: str, a: str, b: str) -> int:
    book = r.s.money.book
    return book.percent_of(holder, a) + book.percent_of(holder, b)


def _pres_in_treasury(r: Run, sym: str) -> str | None:
    cert = r.s.money.book.president_cert(sym)
    return cert.id if r.s.money.book.owner[cert.id] == sym else None


def pres_upgrade_cost(r: Run, percent: int, target: str) -> int:
    return int(r.s.money.price_of(target) * (40 - percent) / 20.0)


def full_upgrade_cost(r: Run, target: str) -> int:
    return int(r.s.money.price_of(target) / 2.0)


def merge(r: Run, decider: str, a: str, b: str, target: str, stage: str) -> None:
    """`a` and `b` merge into `target`; `stage` "first"/"last" are the Tuscan merge's two
    mergers (or its only one: "last"), "plain" a merger of the operating turn, `a` merging."""
    tuscan = stage != "plain"
    title = f"{TITLE if tuscan else ''}merging {a} with {b} to form {target}: "
    r.say(f"-- Tuscan Merge: {a} and {b} will merge and form {target} --" if tuscan
          else f"{a} and {b} will merge and form {target}")
    prices = merger_values(r.s.money, a, b)
    cell = prices[0]
    if len(prices) > 1:
        q = Question("choose", "price", decider if tuscan else a, f"{title}choose share price for the new corporation "
                     f"({prices[0].price} or {prices[-1].price})", choices=["first", "last"])
        cell = prices[0] if r.ask(q) == "first" else prices[-1]
    r.s = replace(r.s, money=X.start_at(r.s.money, target, cell.coord))
    r.say(f"{target} share price will be {cell.price}")
    holders = X.holder_list(r.s, decider, lambda h: _pct(r, h, a, b) >= 10, (a, b, target))
    pairs = [h for h in holders if _pct(r, h, a, b) >= 20]
    tokens_a, tokens_b = r.s.tokens.get(a, 0), r.s.tokens.get(b, 0)
    r.speaker = decider
    X.move_assets(r, a, b, target)
    X.move_assets(r, b, a, target)
    if r.s.money.corps[a].type == "major":
        for entity in pairs:
            _exchange(r, entity, a, b, target, title, first_pass=True)
        for entity in [h for h in holders if _pct(r, h, a, b) >= 10]:
            _exchange(r, entity, a, b, target, title, first_pass=False)
    else:
        _minor_exchange(r, pairs, a, b, target)
    _tokens(r, decider, a, b, target, stage, tokens_a, tokens_b)


def _old_shares(r: Run, entity: str, a: str, b: str) -> list:
    held = X.certs(r.s.money, entity, a) + X.certs(r.s.money, entity, b)
    held.sort(key=lambda c: c.percent)
    held.reverse()
    return held


def _back(r: Run, cert) -> None:
    r.s = X.move(r.s, [cert.id], cert.corporation, False)


def _exchange(r: Run, entity: str, a: str, b: str, target: str, title: str, first_pass: bool) -> None:
    tp = _pct(r, entity, a, b)
    if tp == 0:
        return
    pres = _pres_in_treasury(r, target)
    is_player = entity in r.s.players
    cash = r.s.money.cash.get(entity, 0)
    if first_pass:
        options = ["no"]
        if not (tp >= 40 or pres is None or not is_player or cash < pres_upgrade_cost(r, tp, target)):
            options = ["pres", "no"]
    else:
        normal = X.first_of(r.s.money, target, target, plain=True)
        has_target = bool(r.s.money.book.held(entity, target))
        has_player = X.player_of(r.s, entity) is not None
        options = ["cash"]
        if is_player and pres is not None and cash >= pres_upgrade_cost(r, tp, target):
            options.append("pres")
        if has_player and cash >= full_upgrade_cost(r, target) and (
                normal is not None or (pres is not None and has_target)):
            options.append("full")
    answer = options[0]
    if len(options) > 1:
        answer = r.ask(Question("choose", "upgrade", entity, f"{title}decision for the outgoing {tp}% of "
                                f"{a}/{b} held by {X.name(r.s, entity)}", choices=[*options]))
    _do_exchange(r, entity, a, b, target, answer)


def _do_exchange(r: Run, entity: str, a: str, b: str, target: str, answer: str) -> None:
    share_list = _old_shares(r, entity, a, b)
    tp = _pct(r, entity, a, b)
    who = X.name(r.s, entity)
    if tp > 10:
        if answer == "pres":
            for c in share_list:
                _back(r, c)
            cost = pres_upgrade_cost(r, tp, target)
            r.say(f"{who} upgrades to a president share for {cost}")
            r.s = X.pay(r.s, entity, target, cost)
            pres = _pres_in_treasury(r, target)
            assert pres is not None
            r.s = X.move(r.s, [pres], entity, True)
            return
        while _pct(r, entity, a, b) > 10:
            share0 = share_list.pop(0)
            _back(r, share0)
            if share0.percent < 20:
                _back(r, share_list.pop(0))
            new = X.first_of(r.s.money, target, target, plain=True)
            if new is not None:
                r.say(f"{who} exchanges 20% of old shares for a share of {target}")
                r.s = X.move(r.s, [new.id], entity, True)
                continue
            pres = _pres_in_treasury(r, target)
            ten = X.first_of(r.s.money, entity, target)
            if pres is not None and ten is not None:
                r.say(f"{who} exchanges 20% of old shares for president share of {target}")
                r.s = X.move(r.s, [ten.id], target, True)
                r.s = X.move(r.s, [pres], entity, True)
            else:
                price = r.s.money.price_of(target)
                r.say(f"Out of 10% shares for {who} to exchange pairs of old shares for. "
                      f"Will sell 2 old shares for {price}")
                r.s = X.pay(r.s, S.BANK, entity, price)
        return
    last = share_list[0]
    _back(r, last)
    cost = full_upgrade_cost(r, target)
    pres = _pres_in_treasury(r, target)
    new = X.first_of(r.s.money, target, target, plain=True)
    if answer == "pres":
        assert pres is not None
        cost = pres_upgrade_cost(r, tp, target)
        r.say(f"{who} upgrades to a president share for {cost}")
        r.s = X.pay(r.s, entity, target, cost)
        r.s = X.move(r.s, [pres], entity, True)
    elif answer == "full":
        r.say(f"{who} upgrades to full share for {cost}")
        r.s = X.pay(r.s, entity, target, cost)
        if new is not None:
            r.s = X.move(r.s, [new.id], entity, True)
        else:
            ten = X.first_of(r.s.money, entity, target)
            assert pres is not None and ten is not None
            r.s = X.move(r.s, [ten.id], target, True)
            r.s = X.move(r.s, [pres], entity, True)
    elif entity != S.POOL:
        r.say(f"{who} sells share of {last.corporation} for {cost}")
        r.s = X.pay(r.s, S.BANK, entity, cost)
    else:
        r.say(f"{who} discards share of {last.corporation}")


def _minor_exchange(r: Run, holders: list[str], a: str, b: str, target: str) -> None:
    for entity in holders:
        who = X.name(r.s, entity)
        for old in _old_shares(r, entity, a, b):
            pres = _pres_in_treasury(r, target)
            plain = [c for c in r.s.money.book.held(target, target) if not c.president]
            _back(r, old)
            if pres is not None and old.percent > 20:
                r.say(f"{who} exchanges 40% share of {old.corporation} for president share of {target}")
                r.s = X.move(r.s, [pres], entity, True)
            elif old.percent > 20:
                r.say(f"{who} exchanges 40% share of {old.corporation} for 2 shares of {target}")
                for c in plain[:2]:
                    r.s = X.move(r.s, [c.id], entity, True)
            elif plain:
                r.say(f"{who} exchanges 20% share of {old.corporation} for a share of {target}")
                r.s = X.move(r.s, [plain[0].id], entity, True)


# --- tokens ----------------------------------------------------------------------------------

def _tokens(r: Run, decider: str, a: str, b: str, target: str, stage: str, tokens_a: int, tokens_b: int) -> None:
    pres = _pres_in_treasury(r, target)
    if stage == "plain":
        if pres is not None or X.player_of(r.s, target) is None:
            raise RuleError("no_president", f"this merger and exchange leave {target} without a president")
        # the merging pair hold their own presidents' certificates now, on their way out
        if H.circular(r.s.money) - H.circular(r.base.money) - {a, b}:
            raise RuleError("circular", "this merger and exchange create a circular chain of ownership")
    elif pres is not None:
        r.say(f"No one has become president of {target}")
        pool = [c.id for c in r.s.money.book.held(S.POOL, target)][:2]
        r.say(f"Moving {len(pool)} {target} shares from Market to IPO")
        r.s = X.move(r.s, pool, target, False)
        r.say(f"Moving {target} president's share from IPO to Market")
        r.s = X.move(r.s, [pres], S.POOL, True)
    m = BS.the_map(r.s)
    dups = BE.merger_duplicates(m, r.s.board, a, b)
    for coord, city in dups:
        r.say(f"Removing duplicate token in hex {coord}")
        r.s = replace(r.s, board=B.remove_token(m, r.s.board, b, coord, city))
    removed = len(dups)
    asks = target if X.player_of(r.s, target) else decider
    oo = BE.shared_hex(m, r.s.board, a, b)
    if oo is not None:
        r.say(f"{a} and {b} both have tokens in {oo}. Must remove one.")
        # counted twice, as 18xx.games counts it: the removal destroys the token (one fewer of
        # the two corporations' tokens) and it is also counted among the duplicates
        removed += 2
        _removals(r, asks, a, b, (oo,), 1, 1)
    count = 4
    if stage == "plain":
        removal = BE.merger_removal(m, r.s.board, r.s.variant, a, b, tokens_a, tokens_b, removed)
        count = removal.tokens
        if removal.most > 0:
            r.say(f"Must remove {removal.fewest} to {removal.most} tokens of {a} and/or {b} from map")
            _removals(r, asks, a, b, removal.hexes, removal.fewest, removal.most)
    elif stage == "last":
        removal = BE.merger_removal(m, r.s.board, r.s.variant, a, b, tokens_a, tokens_b, removed, tuscan="last")
        count = removal.tokens
        if X.player_of(r.s, target) is None:
            r.say(f"{target} tokens are removed/replaced automatically:")
            for coord, city in BE.tuscan_frozen_removals(m, r.s.board, r.s.variant, a, b):
                owner = next(o for o in B.slots(m, r.s.board, coord)[city] if o in (a, b))
                r.say(f"Removing {owner} token in {coord}")
                r.s = replace(r.s, board=B.remove_token(m, r.s.board, owner, coord, city))
        elif removal.most > 0:
            r.say(f"Must remove {removal.fewest} to {removal.most} tokens of {a} and/or {b} from map")
            _removals(r, asks, a, b, removal.hexes, removal.fewest, removal.most)
    _finish_merger(r, a, b, target, count)
    if stage == "plain":
        # the Tuscan merge places SFLi in the round itself (`tuscan_merge_post_merge`)
        X.done_this_round(r, a, b, target)


def _removals(r: Run, asks: str, a: str, b: str, hexes: tuple[str, ...], fewest: int, most: int) -> None:
    """Remove between `fewest` and `most` of a's and b's tokens from `hexes`, one at a time;
    never the last token in a city that is no pass (step/remove_tokens.rb)."""
    m = BS.the_map(r.s)
    done = 0
    while done < most:
        nodes = NW.token_nodes(m, r.s.board, a) + NW.token_nodes(m, r.s.board, b)
        cities = [n for n in nodes if n[0] not in m.no_start_hexes]
        spots = []
        for coord, city in nodes:
            if coord not in hexes or cities == [(coord, city)]:
                continue
            row = B.slots(m, r.s.board, coord)[city]
            slot = next(i for i, o in enumerate(row) if o in (a, b))
            spots.append((coord, city, slot))
        q = Question("remove", "remove", asks, f"remove tokens of {a} and/or {b} ({done} of {fewest} to {most})",
                     spots=spots, can_pass=done >= fewest)
        answer = r.ask(q)
        if answer == "pass":
            return
        _, coord, city_no = answer.split(":")
        owner = next(o for o in B.slots(m, r.s.board, coord)[int(city_no)] if o in (a, b))
        r.say(f"{X.name(r.s, asks)} removes {owner} token from {coord}")
        r.s = replace(r.s, board=B.remove_token(m, r.s.board, owner, coord, int(city_no)))
        done += 1


def _finish_merger(r: Run, a: str, b: str, target: str, count: int) -> None:
    s = r.s
    m = BS.the_map(s)
    # each corporation's hexes where it still has a token (both had one in a shared hex)
    order = [h for c in (a, b) for h in s.token_order.get(c, [])
             if h in {x for x, _ in NW.token_nodes(m, s.board, c)}]
    board = BE.merged_tokens(s.board, [a, b], target)
    tokens = {**s.tokens, target: X.initial_tokens(s, target) + max(count - 2, 0)}
    r.s = replace(s, board=board, tokens=tokens, token_order={**s.token_order, target: order})
    X.restart(r, a)
    X.restart(r, b)


# --- the transformation ----------------------------------------------------------------------

def transform(r: Run, decider: str, corp: str, target: str, tuscan: bool) -> None:
    """The minor `corp` becomes the major `target`: its assets and tokens, its price, a share
    of the major for each of its shares; then two rounds of offers of the major's treasury
    shares; then tokens (the Tuscan merge: a second one free; else bought, `transform_tokens`)."""
    title = f"{TITLE if tuscan else ''}transforming {corp}: "
    r.say(f"-- Tuscan Merger: {corp} will transform to a major and form {target} --" if tuscan
          else f"{corp} will transform to a major and form {target}")
    X.move_assets(r, corp, None, target)
    s = r.s
    board = BE.merged_tokens(s.board, [corp], target)
    tokens = {**s.tokens, target: s.tokens.get(corp, 1)}
    order = {**s.token_order, target: list(s.token_order.get(corp, []))}
    price = s.money.corps[corp].price
    assert price is not None
    r.s = replace(s, board=board, tokens=tokens, token_order=order, money=X.start_at(s.money, target, price))
    _transform_shares(r, decider, corp, target)
    owner = X.player_of(r.s, target) or decider
    r.say("First round of share purchase (players and corporations)")
    X.share_offers(r, target, X.active_holders(r.s, owner, target), title)
    r.say("Second round of share purchase (all players)")
    players = [p for p in X.rotated(r.s, X.player_of(r.s, target) or decider) if p not in r.s.money.bankrupt]
    X.share_offers(r, target, players, title)
    if tuscan:
        if r.s.tokens.get(target, 0) < 2:
            r.s = replace(r.s, tokens={**r.s.tokens, target: 2})
    else:
        lingering = _transform_tokens(r, decider, target)
        X.restart(r, corp)
        X.done_this_round(r, corp, target)
        if lingering is not None:
            # after `transform_finish`, as 18xx.games' step asks
            _lingering_token_money(r, *lingering)
        return
    X.restart(r, corp)


def _transform_tokens(r: Run, decider: str, target: str) -> tuple[str, str, int] | None:
    """The transformed major's tokens; what `_lingering_token_money` is then asked with."""
    have = r.s.tokens.get(target, 0)
    cash = r.s.money.cash[target]
    first, further, fewest, most = BE.transform_token_options(have, cash)
    if most == 0:
        r.say(f"{target} cannot buy additional tokens")
        return None

    def price(n: int) -> int:
        return 0 if n == 0 else first + (n - 1) * further

    counts = [n for n in range(fewest, most + 1) if n == fewest or price(n) <= cash]
    asks = target if X.player_of(r.s, target) else decider
    from shared.games.g1841 import emergency as EM
    # G1841 `transform_tokens` flags the required token's emergency money by
    # `emergency_cash_before_selling`, which stops counting at the first holder with shares to
    # sell (the new major itself, mostly), though the president's cash may cover it
    flagged = (counts == [1] and EM.cash_before_selling(r.s, target, first) < first
               and EM.raisable_cash(r.s.money, target) >= first)
    # (short even of the chain's cash, 18xx.games' count raises: no way on there, ours sells)
    n = int(r.ask(Question("choose", "tokens", asks, f"number of additional tokens to buy for {target}",
                           choices=list(counts))))
    total = price(n)
    if not _token_money(r, asks, target, total):
        return None
    if total > r.s.money.cash[target]:
        r.s = replace(r.s, money=_sweep(r.s.money, target, total))
    r.s = X.pay(r.s, target, S.BANK, total)
    r.s = replace(r.s, tokens={**r.s.tokens, target: have + n})
    return (asks, target, first) if flagged else None


def _lingering_token_money(r: Run, asks: str, target: str, needed: int) -> None:
    """18xx.games clears the token's emergency flag only in `TokenEmergencyMoney`'s sale, not
    when the count's `sweep_cash` paid for it: its step then still asks the new major (or, with
    nothing it may sell, its president while his cash is under the amount) to sell, each sale
    swept into the major, until `emergency_cash_before_selling` reaches the amount again. We
    play that out so that tables agree with 18xx.games; nothing to sell ends it."""
    from shared.games.core18xx.money import control as C
    from shared.games.g1841 import emergency as EM
    while EM.cash_before_selling(r.s, target, needed) < needed:
        offers = EM.issuable(r.s, target, needed)
        player = C.controller(r.s.money, target)
        if not offers and player is not None and r.s.money.cash[player] < needed:
            offers = [(player, b) for b in EM.player_bundles(r.s, target)]
        if not offers:
            return
        _emergency_sale(r, asks, target, needed, offers,
                        f"{target} must still raise {needed} (18xx.games' token emergency money)")


def _emergency_sale(r: Run, asks: str, target: str, needed: int, offers: list, text: str) -> None:
    """Ask which of `offers` (seller, bundle) is sold; sell it at half price and sweep the
    proceeds into `target` toward `needed`."""
    from shared.games.g1841 import emergency as EM
    from shared.games.g1841 import eventrun as EV
    sales = [(seller, list(b[1]), b[2], EM.share_price(r.s, b[0])) for seller, b in offers]
    answer = r.ask(Question("sell", "token_emr", asks, text, sales=sales))
    seller, bundle = next((seller, b) for seller, b in offers if EV.sale_answer(seller, list(b[1])) == answer)
    r.say(f"{X.name(r.s, seller)} sells {bundle[2]}% of {bundle[0]} for {bundle[3]} (emergency money)")
    r.s = replace(r.s, money=EM.sweep(EM.sold(r.s, seller, bundle), target, seller, needed))


def _token_money(r: Run, asks: str, target: str, total: int) -> bool:
    """The required token's emergency money (G1841 `TokenEmergencyMoney`, `Bankrupt`): while the
    new major and everyone up its chain of control have less cash than the token costs, the
    chain of corporations sells what the emergency rules let it (others' shares first, no bundle
    a share larger than needed), then the president sells his own, at half price, each sale's
    proceeds swept into the major. With nothing left to sell the president goes bankrupt and the
    major gets the token free, its cash going to the bank ("rules limbo" in 18xx.games). False:
    the token came by the bankruptcy."""
    from shared.games.core18xx.money import control as C
    from shared.games.g1841 import emergency as EM
    from shared.games.g1841 import flow
    while EM.raisable_cash(r.s.money, target) < total:
        offers = EM.issuable(r.s, target, total)
        player = C.controller(r.s.money, target)
        if not offers and player is not None:
            offers = [(player, b) for b in EM.player_bundles(r.s, target)]
        if not offers:
            answer = r.ask(Question("bankrupt", "token_emr", asks, f"{target} cannot raise {total} for its token: "
                                    f"its president goes bankrupt"))
            r.say(f"Giving {target} a discounted token due to bankruptcy")
            r.s = flow.bankrupt(r.s, target, int(answer.split(":")[1]))
            if r.s.money.cash[target] > 0:
                r.s = X.pay(r.s, target, S.BANK, r.s.money.cash[target])
            r.s = replace(r.s, tokens={**r.s.tokens, target: r.s.tokens.get(target, 0) + 1})
            return False
        _emergency_sale(r, asks, target, total, offers,
                        f"{target} needs {total} for its token: sell shares (emergency money)")
    return True


def _sweep(money: MoneyState, corp: str, total: int) -> MoneyState:
    """The chain of control pays what the corporation lacks (`sweep_cash`)."""
    from shared.games.core18xx.money import control as C
    from shared.games.g1841 import emergency as EM
    money = EM.sweep(money, corp, C.controller(money, corp) or "", total)
    if money.cash[corp] < total:
        raise RuleError("cannot_afford", f"{corp} cannot pay {total} for its tokens")
    return money


def _transform_shares(r: Run, decider: str, corp: str, target: str) -> None:
    money = r.s.money
    start = X.player_of(r.s, corp) or decider
    possible = [*X.rotated(r.s, start), *money.corps, S.POOL]
    pres_holder = money.book.president_of(corp)
    old_pres = money.book.president_cert(corp).id
    new_pres = money.book.president_cert(target).id
    r.say(f"{X.name(r.s, pres_holder)} swaps president share of {corp} for {target}")
    r.s = X.move(r.s, [old_pres], corp, False)
    r.s = X.move(r.s, [new_pres], pres_holder, True)
    for sh in possible:
        if sh == corp:
            continue
        held = X.certs(r.s.money, sh, corp)
        held.sort(key=lambda c: c.percent)
        held.reverse()
        for cert in held:
            r.s = X.move(r.s, [cert.id], corp, False)
            new = X.first_of(r.s.money, target, target)
            if new is not None:
                r.say(f"{X.name(r.s, sh)} swaps share of {corp} for {target}")
                r.s = X.move(r.s, [new.id], sh, True)


