"""Small synthetic 18xx positions for the core's tests: a made-up title with four or five
corporations of ten 10 % shares (president's 20 %), a tiny market, and players with cash.
Nothing here comes from a real title."""

from __future__ import annotations

import msgspec

from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.market import Market
from shared.games.core18xx.money.rules import MoneyRules
from shared.games.core18xx.money.state import Corp, MoneyState

MARKET = [["40", "50p", "60p", "70p", "80", "90", "100e"]]
SHARES = [20] + [10] * 8
PLAIN_RULES = MoneyRules()


def money(players: list[str], corps: list[str], rules: MoneyRules = PLAIN_RULES,
          cash: int = 1000, cert_limit: int = 12) -> MoneyState:
    book = S.new_book([(sym, SHARES) for sym in corps])
    wallet = {p: cash for p in players}
    wallet.update({sym: 0 for sym in corps})
    wallet[S.BANK] = 10_000
    return MoneyState(players=list(players), cash=wallet, book=book,
                      corps={sym: Corp(sym=sym, type="major", float_percent=60, max_ownership_percent=60)
                             for sym in corps},
                      market=Market.from_codes(MARKET), cert_limit=cert_limit, rules=rules)


def started(m: MoneyState, sym: str, president: str, price_column: int = 2) -> MoneyState:
    """`sym` parred at the market's column `price_column` with `president` holding its 20 %."""
    m = m.set_par(sym, (0, price_column))
    return msgspec.structs.replace(m, book=m.book.moved([f"{sym}_0"], president))


def give(m: MoneyState, sym: str, holder: str, count: int) -> MoneyState:
    """Hand `count` ordinary shares of `sym` from its treasury to `holder` (no payment)."""
    ids = [c.id for c in m.book.certs_of(sym, sym) if not c.president][:count]
    return msgspec.structs.replace(m, book=m.book.moved(ids, holder))
