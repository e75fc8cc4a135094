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
from shared.games.core18xx.memo import Memo
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


def must_sell(state: State, seller: str) -> bool:
    """18xx.games `must_sell?` (`BaseBuySellParShares`, `CorporateBuySellParShares`): with
    something to sell, a holder over its certificate limit, or whose deciding player controls
    more than 60 % of a corporation it can sell, or (a corporation) holding shares of one above
    it in its chain of control, may only sell (any bundle it can) until none of that holds."""
    money = state.money
    own = seller in money.corps
    if not sellable(state, seller, own=own):
        return False
    if money.num_certs(seller) > money.cert_limit_of(seller):
        return True
    for sym in {s for s, _ids, _p in sellable(state, seller) if s != seller}:
        if H.controlled_percentage(money, seller, sym) > money.corps[sym].max_ownership_percent:
            return True
        if own and H.in_chain(money, seller, sym):
            return True
    return False


# --- what may be sold -------------------------------------------------------------------------

# the sales and purchases open to a holder are asked by the step's "is it open?", the check
# that it must sell, the listing and apply's check of a decision, of one state
_SELLABLE = Memo(64)
_BUYABLE = Memo(64)


def sellable(state: State, seller: str, own: bool = False) -> list[tuple[str, tuple[str, ...], int]]:
    key = (id(state), seller, own)
    found = _SELLABLE.get(key, (state,))
    if found is None:
        found = _SELLABLE.put(key, (state,), _sellable(state, seller, own))
    return list(found)


def _sellable(state: State, seller: str, own: bool) -> list[tuple[str, tuple[str, ...], int]]:
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
            if H.move_makes_loop(money, ids, S.POOL):
                continue
            out.append((sym, ids, percent))
    return out


# --- what may be bought -----------------------------------------------------------------------

def can_gain(money: MoneyState, buyer: str, sym: str, percent: int) -> bool:
    if money.counts_for_limit(sym) and money.num_certs(buyer) >= money.cert_limit_of(buyer):
        return False
    return H.controlled_percentage(money, buyer, sym) + percent <= money.corps[sym].max_ownership_percent


def buyable(state: State, buyer: str) -> list[str]:
    key = (id(state), buyer)
    found = _BUYABLE.get(key, (state,))
    if found is None:
        found = _BUYABLE.put(key, (state,), _buyable(state, buyer))
    return list(found)


def _buyable(state: State, buyer: str) -> list[str]:
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
            if H.move_makes_loop(money, (cert.id,), buyer):
                continue
            out.append(cert.id)
    return out


def from_players(state: State, buyer: str) -> list[tuple[str, str, tuple[str, ...], int]]:
    """With `p2p_purchases`, the (seller, corporation, certificates, percent) bundles `buyer` may
    buy from other players on his turn, at a price he names (G1841 `BuySellParShares`:
    `flexible_bundles`, `can_sell_to_player?`, `flexible_can_buy_shares?`): not once he has
    bought, not of a corporation he sold this round, a historical president's certificate only
    from phase 4, within his limits, and no new circular chain. A bundle with the president's
    certificate is the seller's whole holding (see the README's readings)."""
    money, sr = state.money, state.stock
    if not state.options.p2p_purchases or sr is None or sr.bought or buyer not in money.players \
            or money.cash[buyer] < 1:
        return []
    book = money.book
    out = []
    for seller in money.players:
        if seller == buyer:
            continue
        for sym, certs in book.by_company(seller).items():
            corp = money.corps.get(sym)
            if corp is None or not corp.ipoed or corp.closed or sym in sr.sold.get(buyer, []):
                continue
            pres = book.president_cert(sym).id
            whole = sum(c.percent for c in certs)
            for ids, percent in S.bundles(tuple(certs), book.normal_percent(sym)):
                if pres in ids and (percent != whole or not H.pres_change_ok(state, sym)):
                    continue
                if not can_gain(money, buyer, sym, percent):
                    continue
                if H.makes_loop(money, replace(money, book=_p2p_book(state, buyer, seller, sym, ids))):
                    continue
                out.append((seller, sym, ids, percent))
    return out


def _p2p_book(state: State, buyer: str, seller: str, sym: str, ids: tuple[str, ...]) -> S.ShareBook:
    """The book after `buyer` takes `ids` from `seller` (18xx.games `transfer_shares` of a
    player-to-player purchase): the president's certificate bought goes to whoever now holds
    most, the next from the seller breaking ties, the buyer receiving the shares swapped for it;
    plain shares settle the presidency as any purchase does."""
    money = state.money
    book = money.book
    pres = book.president_cert(sym)
    previous = book.president_of(sym)
    presidents = money.presidents(sym) if H.pres_change_ok(state, sym) else []
    book = book.moved(list(ids), buyer)
    if pres.id not in ids:
        if previous in presidents:
            return S.settle_presidency(book, sym, presidents, previous)
        return H.pool_presidency(replace(money, book=book), sym, presidents)
    # the buyer holds the certificate now; a larger holder (ties: the nearest after the seller)
    # takes it, paying the buyer for it in shares
    percents = {p: book.percent_of(p, sym) for p in presidents}
    best = max(percents.values(), default=0)
    leaders = [p for p in presidents if percents[p] == best and best >= pres.percent]
    if not leaders:
        return book
    new = min(leaders, key=lambda p: S.seat_distance(presidents, seller, p))
    return book if new == buyer else S.swap_presidency(book, sym, new, buyer)


def buy_from_player(state: State, player: str, cert_ids: list[str], percent: int | None,
                    total_price: int | None) -> State:
    money = state.money
    match = [b for b in from_players(state, player)
             if set(b[2]) == set(cert_ids) and (percent is None or b[3] == percent)]
    if not match:
        raise RuleError("cannot_buy_share", f"{player} cannot buy those shares from a player now")
    if type(total_price) is not int or not 1 <= total_price <= money.cash[player]:
        raise RuleError("bad_price", f"name a price from 1 to {money.cash[player]}")
    seller, sym, _, _ = match[0]
    # the certificates move in the order the purchase names them (18xx.games' bundle), and a
    # presidency the buyer takes swaps back the first of them
    book = _p2p_book(state, player, seller, sym, tuple(cert_ids))
    money = replace(money, book=book, cash=S.pay(money.cash, player, seller, total_price))
    sr = state.stock
    assert sr is not None
    return end_turn(replace(state, money=money, stock=_acted(sr, player, True)))


def C_in_chain(money: MoneyState, buyer: str, sym: str) -> bool:
    """A corporation may not buy a corporation above it in its own chain."""
    return H.in_chain(money, buyer, sym)


def par_cells(state: State, founder: str, sym: str) -> list[str]:
    money = state.money
    minor = money.corps[sym].type == "minor"
    return [c.id for c in money.market.par_cells()
            if c.price * 2 <= money.cash[founder] and (not minor or c.kinds[0] == "par")]


def parable(state: State, founder: str, homes: bool = True) -> list[str]:
    """The corporations `founder` may found; `homes=False`: also those with no free home city,
    which 18xx.games offers as well (its `home_token_locations` for a general major names
    cities full or not) and which keep a founder in his turn there (`offers_par`)."""
    return [sym for sym in state.money.corps if _may_found(state, founder, sym, homes)]


def can_par(state: State, founder: str, homes: bool = True) -> bool:
    """`bool(parable(...))`, stopping at the first corporation he may found."""
    return any(_may_found(state, founder, sym, homes) for sym in state.money.corps)


def _may_found(state: State, founder: str, sym: str, homes: bool) -> bool:
    sr = state.stock
    if sr is None or sr.bought:
        return False
    money = state.money
    if sym == founder or not H.available(state, sym) or not H.concession_ok(state, founder, sym):
        return False
    pres = money.book.president_cert(sym)
    if not can_gain(money, founder, sym, pres.percent) or not par_cells(state, founder, sym):
        return False
    # nowhere for its home token (18xx.games does not ask, and would fail)
    return not homes or BS.places_homes_itself(state, sym) or bool(BS.home_choices(state, sym, None))


def offers_par(state: State, founder: str) -> bool:
    """Whether 18xx.games' step offers `founder` a founding (a par with no free home city
    included, which we do not offer: he stays in his turn to pass, as there). Its
    `can_ipo_any?` asks `can_buy?` of the corporation's first treasury certificate, which for a
    corporation started anew (its own certificates back in its treasury in a new order) may be
    a plain share: a founding he cannot pay for keeps him in his turn too. Its `can_par?` asks
    only `!ipoed`, which `close!` resets: a closed historical corporation counts there (it is
    never founded anew here)."""
    if can_par(state, founder, homes=False):
        return True
    sr = state.stock
    if sr is None or sr.bought:
        return False
    money = state.money
    cash = money.cash[founder]
    for sym in money.corps:
        if sym == founder or not H.concession_ok(state, founder, sym):
            continue
        if not H.available(state, sym, closed_too=True):
            continue
        held = H.treasury_in_18xx_order(money, sym)
        if held and cash >= money.cert_price(sym, held[0].percent) and can_gain(money, founder, sym, held[0].percent):
            return True
    return False


def company_price(state: State, company: str) -> int:
    """What a concession bought from the bank costs in all: its value, and with it comes its
    corporation's president's certificate if that lies in the pool, at two shares' price (G1841
    `can_buy_company?`, `process_buy_company`)."""
    return company_value(state, company) + president_extra(state, company)


def company_value(state: State, company: str) -> int:
    from shared.games.g1841.money import company_values
    return company_values(state.variant)[company]


def president_extra(state: State, company: str) -> int:
    """What the bank charges on top of a concession's value for the president's certificate that
    comes with it from the pool (18xx.games `process_buy_company`'s `extra`, paid beside the
    action's price: the price a `BuyCompany` names is the value alone)."""
    money = state.money
    if company in money.corps and money.corps[company].ipoed:
        pres = money.book.president_cert(company)
        if money.book.owner[pres.id] == S.POOL:
            return 2 * money.price_of(company)
    return 0


def _pres_with(state: State, company: str) -> str | None:
    """The president's certificate that goes with a concession (G1841 `company_president_share`):
    its corporation's, where the concession's owner holds it (the pool for the bank's)."""
    money = state.money
    if company not in money.corps or not money.corps[company].ipoed or money.corps[company].closed:
        return None
    owner = money.companies.get(company)
    where = S.POOL if owner == S.BANK else owner
    pres = money.book.president_cert(company)
    return pres.id if money.book.owner[pres.id] == where else None


def buyable_companies(state: State, player: str) -> list[str]:
    """Concessions `player` may buy (G1841 `can_buy_company?`): the bank's from the second stock
    round at `company_price`; with `p2p_purchases` another player's at any price from L.1 to his
    cash. Whoever takes a corporation's president's certificate with it must have room for it."""
    money, sr = state.money, state.stock
    if sr is None or sr.bought or player not in money.players:
        return []
    out = []
    for company, owner in money.companies.items():
        if owner == S.BANK:
            if money.turn < 2 or money.cash[player] < company_price(state, company):
                continue
        elif owner == player or owner not in money.players or not state.options.p2p_purchases \
                or money.cash[player] < 1:
            continue
        pres = _pres_with(state, company)
        if pres is not None and not can_gain(money, player, company, money.book.certs[pres].percent):
            continue
        out.append(company)
    return out


def company_prices(state: State, player: str, company: str) -> tuple[int, int]:
    """The price range of a concession `player` may buy: the bank's fixed at its value (the
    president's certificate that comes with it is charged beside: `president_extra`), a player's
    L.1 to all his cash (18xx.games' `BuyCompanyFromOtherPlayer` input)."""
    if state.money.companies.get(company) == S.BANK:
        price = company_value(state, company)
        return price, price
    return 1, state.money.cash[player]


def buy_company(state: State, player: str, company: str, price: int) -> State:
    low, high = company_prices(state, player, company) if company in state.money.companies else (1, 0)
    if company not in buyable_companies(state, player) or not low <= price <= high:
        raise RuleError("cannot_buy_company", f"{player} cannot buy {company} for {price} now")
    money = state.money
    book = money.book
    seller = money.companies[company]
    pres = _pres_with(state, company)
    if pres is not None:
        # the president's certificate moves with the concession, no presidency check (18xx.games
        # `transfer_shares(..., allow_president_change: false)`, the buyer made its owner)
        book = book.moved([pres], player)
    extra = president_extra(state, company) if seller == S.BANK else 0
    cash = S.pay(money.cash, player, seller, price + extra)
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
    money = replace(money, book=H.pool_presidency(money, sym, presidents))
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
        held = H.treasury_in_18xx_order(money, sym)
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
    if sellable(state, player) or asked_to_buy(state, player) or offers_par(state, player) \
            or buyable_companies(state, player):
        return state
    return end_turn(state)


def has_moves(state: State, player: str) -> bool:
    """Could `player` do anything but pass at the start of a turn of his?"""
    sr = state.stock
    assert sr is not None
    state = replace(state, stock=replace(sr, acted=False, bought=False, started=None))
    # (18xx.games asks of the player alone: his corporations' trades do not keep him in)
    return bool(sellable(state, player) or asked_to_buy(state, player) or offers_par(state, player)
                or buyable_companies(state, player) or from_players(state, player))
