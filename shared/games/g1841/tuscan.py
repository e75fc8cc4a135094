"""The Tuscan merge (the first 4-train, not in lite): when two or more of SFLP, SFMA and SSFL
have floated they become SFLi (18xx.games `event_tuscan_merge!`, `tuscan_merge_start`,
`merger_start` and its exchange, `merger_tokens_start`/`_finish`, `merger_finish`,
`transform_start` and its offers, `tuscan_merge_finish`; facts, own code).

The steps (`board/events.tuscan_merge_steps`): the two minors merge into a holding major (the
first general major not started), or the one floated minor transforms into it; then the
holding and SSFL merge into SFLi (without SSFL the two minors merge straight into SFLi). The
player who decides where the rules leave a choice to nobody is the controller of the Tuscan
corporation first in the operating order. A merger:

- sets the new corporation's price (`merger_values`: two majors, the rightmost price below their
  sum, at most 250, or the dearer above 250; two minors, below their mean);
- moves cash, trains and certificates of others to it (the merging pair's cross holdings back);
- exchanges shares: minors' 40 % for the president's certificate (the first) or two shares, 20 %
  for one; majors' pairs for a share (first pass, where a player may pay to take the
  president's certificate), then single shares for cash at half the price, a share for half the
  price, or the president's certificate;
- with nobody president, the president's certificate goes to the pool for up to two pool shares;
- tokens: duplicates come off, then the president (or the decider) removes tokens down to
  five, never Pisa's or Firenze's; SFLi without a president removes them by rule.

The merged corporations close (the holding is available to start again). SFLi operates in this
round (default game, or `sfli_run_variant`) unless one of the three had operated already.
"""

from __future__ import annotations

import msgspec

from shared.games.core18xx.board import network as NW
from shared.games.core18xx.board import state as B
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.market import Cell
from shared.games.core18xx.money.state import MoneyState
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import transfers as X
from shared.games.g1841.board import events as BE
from shared.games.g1841.board.stations import version
from shared.games.g1841.eventrun import Run
from shared.games.g1841.money import corp_info
from shared.games.g1841.state import Question

replace = msgspec.structs.replace
TUSCANS = ("SFLP", "SFMA", "SSFL")
SFLI = "SFLi"
TITLE = "Tuscan Merge - "


def run(r: Run) -> None:
    s = r.s
    floated = [c for c in TUSCANS if s.money.corps[c].floated and not s.money.corps[c].closed]
    if not BE.tuscan_merge_happens(floated):
        r.say("-- Event: The Tuscan Merge will not occur - 2 or more Tuscan corporations are not active --")
        from shared.games.g1841 import flow
        r.s = flow.close_unstarted(r.s, [SFLI])
        return
    op = s.operating
    will_run = version(s.variant) == 2 or s.options.sfli_run_variant
    if op is not None and any(c in op.order and op.order.index(c) <= op.index for c in TUSCANS):
        will_run = False
    r.say("-- Event: The Tuscan Merge begins --")
    first = next(c for c in s.money.operating_order() if c in floated)
    r.say(f"{first} has best stock value")
    decider = X.player_of(s, first)
    if decider is None and op is not None and op.turn is not None:
        decider = X.player_of(s, op.turn.corp)
    decider = decider or s.money.players[0]
    r.say(f"{X.name(s, decider)} will perform Tuscan Merge operations")
    holding = _holding(r)
    for kind, corps, target in BE.tuscan_merge_steps(floated, holding):
        if kind == "merge":
            merge(r, decider, corps[0], corps[1], target, "first" if target != SFLI else "last")
        else:
            transform(r, decider, corps[0], target)
    _finish(r, will_run)


def _holding(r: Run) -> str:
    info = corp_info(r.s.variant)
    for sym, c in r.s.money.corps.items():
        if c.type == "major" and not info[sym].historical and not c.closed and not c.floated:
            return sym
    return "Holding"


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
    title = f"{TITLE}merging {a} with {b} to form {target}: "
    r.say(f"-- Tuscan Merge: {a} and {b} will merge and form {target} --")
    prices = merger_values(r.s.money, a, b)
    cell = prices[0]
    if len(prices) > 1:
        q = Question("choose", "price", decider, f"{title}choose share price for the new corporation "
                     f"({prices[0].price} or {prices[-1].price})", choices=["first", "last"])
        cell = prices[0] if r.ask(q) == "first" else prices[-1]
    r.s = replace(r.s, money=X.start_at(r.s.money, target, cell.coord))
    r.say(f"{target} share price will be {cell.price}")
    holders = X.holder_list(r.s, decider, lambda h: _pct(r, h, a, b) >= 10, (a, b, target))
    pairs = [h for h in holders if _pct(r, h, a, b) >= 20]
    tokens_a, tokens_b = r.s.tokens.get(a, 0), r.s.tokens.get(b, 0)
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
                                f"{a}/{b} held by {X.name(r.s, entity)}", choices=options))
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
    if pres is not None:
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
        removed += 1
        _removals(r, asks, a, b, (oo,), 1, 1)
    count = 4
    if stage == "last":
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
        _, coord, city = answer.split(":")
        owner = next(o for o in B.slots(m, r.s.board, coord)[int(city)] if o in (a, b))
        r.say(f"{X.name(r.s, asks)} removes {owner} token from {coord}")
        r.s = replace(r.s, board=B.remove_token(m, r.s.board, owner, coord, int(city)))
        done += 1


def _finish_merger(r: Run, a: str, b: str, target: str, count: int) -> None:
    s = r.s
    m = BS.the_map(s)
    left = {h for c in (a, b) for h, _ in NW.token_nodes(m, s.board, c)}
    order = [h for c in (a, b) for h in s.token_order.get(c, []) if h in left]
    board = BE.merged_tokens(s.board, [a, b], target)
    tokens = {**s.tokens, target: X.initial_tokens(s, target) + max(count - 2, 0)}
    r.s = replace(s, board=board, tokens=tokens, token_order={**s.token_order, target: order})
    X.restart(r, a)
    X.restart(r, b)


# --- the transformation ----------------------------------------------------------------------

def transform(r: Run, decider: str, corp: str, target: str) -> None:
    title = f"{TITLE}transforming {corp}: "
    r.say(f"-- Tuscan Merger: {corp} will transform to a major and form {target} --")
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
    if r.s.tokens.get(target, 0) < 2:
        r.s = replace(r.s, tokens={**r.s.tokens, target: 2})
    X.restart(r, corp)


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


def _finish(r: Run, will_run: bool) -> None:
    s = r.s
    op = s.operating
    r.say(f"{SFLI} will {'' if will_run else 'not '}run this OR")
    if will_run and op is not None:
        rest = {*op.order[op.index + 1:], SFLI}
        order = [*op.order[:op.index + 1], *(c for c in s.money.operating_order() if c in rest)]
        r.s = replace(s, operating=replace(op, order=order))
    r.say("-- Tuscan Merge complete --")
