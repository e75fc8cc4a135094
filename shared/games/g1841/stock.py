"""1841's stock round (18xx.games `G1841::Step::BuySellParShares`, `BaseBuySellParShares`,
`Round::Stock`), for players and, on their controller's turn, the corporations they control.

- On his turn a player sells any bundles first (only of corporations that have operated:
  `SELL_AFTER = :operate`; the pool holds at most 50 %; a historical corporation's president's
  certificate stays put before phase 4), then makes one purchase: a certificate from a
  corporation's treasury or the pool at the market price (not of a corporation he sold this
  round), or founds a corporation. The purchase ends his turn.
- Founding: a par price (majors: any par cell; minors: the plain 'p' cells) at most half the
  founder's cash; the founder takes the president's certificate (20 % of a major, 40 % of a minor)
  for two shares' price, paid into the corporation, which floats at once. In the same turn he may
  buy more of it from its treasury up to 40 % (`can_buy_multiple?`). Historical corporations
  are startable until the first 4-train and need their concession before phase 4; general ones
  from phase 3.
- Limits: the certificate limit (a corporation 5), and 60 % of a corporation counting what the
  player controls through corporations; no trade that makes a circular chain of ownership.
- A turn in which the player did nothing and passed marks him passed; the round ends when all
  are passed. At its end: each floated corporation with every share held outside the pool and
  treasury moves up, one with shares in the pool moves down (two if frozen); Bayard pays its
  owner; concessions whose corporation was not founded go back to the bank.
"""

from __future__ import annotations

from typing import Any

import msgspec

from shared.engine import RuleError
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.state import MoneyState
from shared.games.core18xx.rounds.stock import seated
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import holders as H
from shared.games.g1841.state import State, StockRound

replace = msgspec.structs.replace
FOUNDING_LIMIT = 40


def current(state: State) -> str | None:
    sr = state.stock
    if sr is None or state.round != "stock" or state.founding:
        return None
    order = seated(state.money)
    return order[sr.index % len(order)]


def traders(state: State, player: str) -> list[str]:
    """Who trades in the player's stock-round turn: the player alone. His corporations trade in
    their own operating turns (18xx.games' stock-round step acts for its current entity only,
    `BuySellParShares#actions`; the seed's corporations buy and sell in their turns)."""
    return [player]


# --- what may be sold -------------------------------------------------------------------------

def sellable(state: State, seller: str, own: bool = False) -> list[tuple[str, tuple[str, ...], int]]:
    """(corporation, certificates, percent) bundles `seller` may sell to the pool now (`own`: a
    corporation's share step also sells its own treasury shares: G1841
    `CorporateBuySellParShares#can_sell_any?`)."""
    money, sr = state.money, state.stock
    if sr is None or sr.bought:
        return []
    book = money.book
    out = []
    mine = book.by_company(seller)
    for sym in sorted(mine, key=lambda s: list(money.corps).index(s)):
        corp = money.corps[sym]
        if (sym == seller and not own) or not corp.ipoed or corp.closed or sym not in state.operated:
            continue
        room = money.pool_limit(sym) - book.percent_of(S.POOL, sym)
        pres = book.president_cert(sym).id
        for ids, percent in S.bundles(tuple(mine[sym]), book.normal_percent(sym)):
            if percent > room:
                break
            if pres in ids and not (H.pres_change_ok(state, sym)
                                    and S.can_dump(book, seller, sym, ids, money.presidents(sym))):
                continue
            if H.makes_loop(money, replace(money, book=book.moved(list(ids), S.POOL))):
                continue
            out.append((sym, ids, percent))
    return out


# --- what may be bought -----------------------------------------------------------------------

def can_gain(money: MoneyState, buyer: str, sym: str, percent: int) -> bool:
    if money.counts_for_limit(sym) and money.num_certs(buyer) >= money.cert_limit_of(buyer):
        return False
    return H.controlled_percentage(money, buyer, sym) + percent <= money.corps[sym].max_ownership_percent


def buyable(state: State, buyer: str) -> list[str]:
    """Certificates `buyer` may buy now (the smallest plain one from each source)."""
    money, sr = state.money, state.stock
    if sr is None:
        return []
    if sr.bought and sr.started is None:
        return []
    out = []
    for sym, corp in money.corps.items():
        if not corp.ipoed or corp.closed or sym == buyer or sym in sr.sold.get(buyer, []):
            continue
        if sr.started is not None and (sym != sr.started or buyer != money.book.president_of(sym)):
            continue
        if sr.started is not None and money.book.percent_of(buyer, sym) >= FOUNDING_LIMIT:
            continue
        if C_in_chain(money, buyer, sym):
            continue
        sources = (sym,) if sr.started is not None else (sym, S.POOL)
        for holder in sources:
            cert = money.book.smallest_plain(holder, sym)
            if cert is None:
                continue
            if money.cash[buyer] < money.cert_price(sym, cert.percent) or not can_gain(money, buyer, sym, cert.percent):
                continue
            after = replace(money, book=money.book.moved([cert.id], buyer))
            if H.makes_loop(money, after):
                continue
            out.append(cert.id)
    return out


def C_in_chain(money: MoneyState, buyer: str, sym: str) -> bool:
    """A corporation may not buy a corporation above it in its own chain."""
    return H.in_chain(money, buyer, sym)


def par_cells(state: State, founder: str, sym: str) -> list[str]:
    money = state.money
    minor = money.corps[sym].type == "minor"
    return [c.id for c in money.market.par_cells()
            if c.price * 2 <= money.cash[founder] and (not minor or c.kinds[0] == "par")]


def parable(state: State, founder: str) -> list[str]:
    sr = state.stock
    if sr is None or sr.bought:
        return []
    money = state.money
    out = []
    for sym in money.corps:
        if sym == founder or not H.available(state, sym) or not H.concession_ok(state, founder, sym):
            continue
        pres = money.book.president_cert(sym)
        if not can_gain(money, founder, sym, pres.percent) or not par_cells(state, founder, sym):
            continue
        if not BS.places_homes_itself(state, sym) and not BS.home_choices(state, sym, None):
            continue    # nowhere for its home token (18xx.games does not ask, and would fail)
        out.append(sym)
    return out


def company_price(state: State, company: str) -> int:
    """A concession bought from the bank costs its value, and with it comes its corporation's
    president's certificate if that lies in the pool, at two shares' price (G1841
    `can_buy_company?`, `process_buy_company`)."""
    from shared.games.g1841.money import company_values
    money = state.money
    price = company_values(state.variant)[company]
    if company in money.corps and money.corps[company].ipoed:
        pres = money.book.president_cert(company)
        if money.book.owner[pres.id] == S.POOL:
            price += 2 * money.price_of(company)
    return price


def buyable_companies(state: State, player: str) -> list[str]:
    """Concessions the bank holds that `player` may buy (from the second stock round)."""
    money, sr = state.money, state.stock
    if sr is None or sr.bought or money.turn < 2 or player not in money.players:
        return []
    out = []
    for company, owner in money.companies.items():
        if owner != S.BANK or money.cash[player] < company_price(state, company):
            continue
        if company in money.corps and money.corps[company].ipoed:
            pres = money.book.president_cert(company)
            if money.book.owner[pres.id] == S.POOL and not can_gain(money, player, company, pres.percent):
                continue
        out.append(company)
    return out


def buy_company(state: State, player: str, company: str, price: int) -> State:
    if company not in buyable_companies(state, player) or price != company_price(state, company):
        raise RuleError("cannot_buy_company", f"{player} cannot buy {company} for {price} now")
    money = state.money
    book = money.book
    if company in money.corps and money.corps[company].ipoed:
        pres = money.book.president_cert(company)
        if money.book.owner[pres.id] == S.POOL:
            book = book.moved([pres.id], player)
    cash = S.pay(money.cash, player, S.BANK, price)
    money = replace(money, cash=cash, book=book, companies={**money.companies, company: player})
    sr = state.stock
    assert sr is not None
    return end_turn(replace(state, money=money, stock=_acted(sr, player, True)))


def can_pass(state: State) -> bool:
    return current(state) is not None


# --- actions ----------------------------------------------------------------------------------

def _acted(sr: StockRound, player: str, bought: bool) -> StockRound:
    return replace(sr, acted=True, bought=sr.bought or bought, passed=[p for p in sr.passed if p != player],
                   last=player)


def sell(state: State, player: str, seller: str, cert_ids: list[str], percent: int | None) -> State:
    offered = sellable(state, seller, own=seller in state.money.corps and state.round == "operating")
    sym = state.money.book.certs[cert_ids[0]].corporation if cert_ids and cert_ids[0] in state.money.book.certs else ""
    total = sum(state.money.book.certs[c].percent for c in cert_ids if c in state.money.book.certs)
    percent = total if percent is None else percent
    if not any(s == sym and set(ids) == set(cert_ids) and p == percent for s, ids, p in offered):
        raise RuleError("cannot_sell_bundle", f"{seller} cannot sell that bundle now")
    money = state.money
    book, cash, moved = S.sell(money.book, money.cash, seller, cert_ids, percent, money.price_of(sym),
                               money.presidents(sym) if H.pres_change_ok(state, sym) else [], money.pool_limit(sym))
    money = replace(money, book=book, cash=cash).move_price(sym, "down", moved)
    sr = state.stock
    assert sr is not None
    sold = {**sr.sold, seller: [*sr.sold.get(seller, []), sym]}
    return replace(state, money=money, stock=replace(_acted(sr, player, False), sold=sold))


def buy(state: State, player: str, buyer: str, cert_id: str, ends_turn: bool = True) -> State:
    money = state.money
    cert = money.book.certs.get(cert_id)
    if cert is None:
        raise RuleError("unknown_share", f"no share {cert_id}")
    holder = money.book.owner[cert_id]
    same = [c for c in buyable(state, buyer)
            if money.book.owner[c] == holder and money.book.certs[c].corporation == cert.corporation
            and money.book.certs[c].percent == cert.percent]
    if not same or cert.president:
        raise RuleError("cannot_buy_share", f"{cert_id} is not for sale to {buyer} now")
    sym = cert.corporation
    presidents = money.presidents(sym) if H.pres_change_ok(state, sym) else []
    book, cash = S.buy(money.book, money.cash, buyer, [cert_id], money.price_of(sym), presidents)
    money = replace(money, book=book, cash=cash)
    sr = state.stock
    assert sr is not None
    state = replace(state, money=money, stock=_acted(sr, player, True))
    if sr.started is None:
        return end_turn(state) if ends_turn else state
    if not buyable(state, buyer):
        return finish_founding(state)
    return state


def par(state: State, player: str, founder: str, sym: str, price_id: str) -> State:
    if sym not in parable(state, founder) or price_id not in par_cells(state, founder, sym):
        raise RuleError("cannot_par", f"{founder} cannot found {sym} at {price_id} now")
    money = state.money
    cell = money.market.by_id(price_id)
    money = money.set_par(sym, cell.coord)
    pres = money.book.president_cert(sym)
    book, cash = S.buy(money.book, money.cash, founder, [pres.id], cell.price, [])
    money = replace(money, book=book, cash=cash).check_float(sym)
    sr = state.stock
    assert sr is not None
    state = replace(state, money=money, stock=replace(_acted(sr, player, True), started=sym))
    if not buyable(state, founder):
        return finish_founding(state)
    return state


def pass_(state: State, player: str) -> State:
    sr = state.stock
    assert sr is not None
    if sr.started is not None:
        return finish_founding(state)
    if not sr.acted:
        sr = replace(sr, passed=[*sr.passed, player])
    return end_turn(replace(state, stock=sr))


def finish_founding(state: State) -> State:
    """The founding turn's purchases are over: the new corporation's home and tokens follow."""
    from shared.games.g1841 import founding as F
    sr = state.stock
    assert sr is not None and sr.started is not None
    return F.begin(replace(state, stock=replace(sr, started=None)), sr.started)


def end_turn(state: State) -> State:
    """The next player's turn, or the end of the round once every player is passed."""
    sr = state.stock
    assert sr is not None
    order = seated(state.money)
    if all(p in sr.passed for p in order):
        from shared.games.g1841 import flow
        return flow.end_stock_round(state)
    sr = replace(sr, index=(sr.index + 1) % len(order), acted=False, bought=False, started=None)
    state = replace(state, stock=sr)
    # a player with nothing to do but pass is passed over, as having passed (18xx.games skips a
    # step with no actions for its entity)
    player = order[sr.index]
    if not has_moves(state, player):
        passed = sr.passed if player in sr.passed else [*sr.passed, player]
        return end_turn(replace(state, stock=replace(sr, passed=passed)))
    return state


def asked_to_buy(state: State, player: str) -> bool:
    """Whether 18xx.games' stock-round step offers `player` a purchase (its `can_buy_any?`),
    which keeps him in his turn (he passes) even where no purchase is legal: from the pool, per
    corporation, the smallest certificate he can pay for and gain; from a corporation's
    treasury, the smallest of all the certificates it holds, its own and others' (which
    `can_buy?` then refuses), the sale-this-round check made on the first of them."""
    money, sr = state.money, state.stock
    if sr is None or (sr.bought and sr.started is None):
        return False
    sold = sr.sold.get(player, [])
    cash = money.cash[player]

    def fits(cert: Any) -> bool:
        return cash >= money.cert_price(cert.corporation, cert.percent) and can_gain(money, player, cert.corporation,
                                                                                      cert.percent)
    pool = money.book.by_company(S.POOL)
    for sym, certs in pool.items():
        if certs and sym not in sold and fits(min(certs, key=lambda c: c.percent)):
            return True
    for sym, corp in money.corps.items():
        if not corp.ipoed or corp.closed:
            continue
        held = [c for group in money.book.by_company(sym).values() for c in group]
        if not held or held[0].corporation in sold:
            continue
        if fits(min(held, key=lambda c: c.percent)):
            return True
    return False


def done_if_stuck(state: State, player: str) -> State:
    """After a sale, a player left with nothing to do but pass ends his turn (18xx.games' stock
    round moves on once its step has no action for him: `Round::Stock#after_process`)."""
    sr = state.stock
    if state.round != "stock" or sr is None or current(state) != player:
        return state
    if sellable(state, player) or asked_to_buy(state, player) or parable(state, player) \
            or buyable_companies(state, player):
        return state
    return end_turn(state)


def has_moves(state: State, player: str) -> bool:
    """Could `player` do anything but pass at the start of a turn of his?"""
    sr = state.stock
    assert sr is not None
    state = replace(state, stock=replace(sr, acted=False, bought=False, started=None))
    # (18xx.games asks of the player alone: his corporations' trades do not keep him in)
    return bool(sellable(state, player) or asked_to_buy(state, player) or parable(state, player)
                or buyable_companies(state, player))
