"""What follows a founding (18xx.games `G1841::Step::CorpStart`, `HomeToken`, `BuyNewTokens`):

- A historical corporation's home token(s) go down by themselves on its home hex(es) (SFMA's
  in the default game is placed by a decision, in Firenze's cities). A general corporation
  chooses its home city: a major among the token cities of the map outside the historical
  corporations' cities and Lugano (until phase 4) and the Austrian zones (until phase 4), then
  may place a second token in the same zone (pass: none); a minor among those cities that are
  not major cities and hold no token yet.
- Then the corporation buys its tokens: 2-5 for a major, 1-2 for a minor (the home tokens among
  them), the first at the token price and each further one at it too; a count beyond the
  minimum needs the cash, the minimum is always allowed: the shortfall is raised by selling
  treasury shares to the pool at half price (G1841 `auto_emr`).
"""

from __future__ import annotations

import math

import msgspec

from shared.engine import RuleError
from shared.games.core18xx.money import shares as S
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import holders as H
from shared.games.g1841.money import corp_info
from shared.games.g1841.state import Founding, State

replace = msgspec.structs.replace


def begin(state: State, corp: str) -> State:
    info = corp_info(state.variant)[corp]
    if BS.places_homes_itself(state, corp):
        state = _placed(replace(state, board=BS.historical_homes(state, corp)), corp, list(info.homes))
        return _next(replace(state, founding=[Founding(corp, "tokens")]))
    steps = [Founding(corp, "home")]
    if H.major(state, corp) and not info.historical:
        steps.append(Founding(corp, "home2"))
    return _next(replace(state, founding=[*steps, Founding(corp, "tokens")]))


def _placed(state: State, corp: str, hexes: list[str]) -> State:
    return replace(state, token_order={**state.token_order, corp: [*state.token_order.get(corp, []), *hexes]})


def _next(state: State) -> State:
    """Skip a second home with no hex to go to; finish when nothing is left. A second home
    whose hexes are all full is still asked (only a pass is left): 18xx.games bails out only
    when its `home_token_locations` is empty, not when their cities are full."""
    while state.founding and state.founding[0].kind == "home2" and not _second_home_hexes(state):
        state = replace(state, founding=state.founding[1:])
    if state.founding or state.round == "operating":
        return state
    from shared.games.g1841 import stock
    return stock.end_turn(state)


def _second_home_hexes(state: State) -> list[str]:
    step = state.founding[0]
    placed = state.token_order.get(step.corp)
    return BS.home_hexes(state, step.corp, placed[0] if placed else None)


def home_spots(state: State) -> list[tuple[str, int]]:
    step = state.founding[0]
    first = None
    if step.kind == "home2":
        placed = state.token_order.get(step.corp)
        first = placed[0] if placed else None
    return BS.home_choices(state, step.corp, first)


def token_choices(state: State) -> dict[int, int]:
    """Number of tokens -> total price."""
    return BS.purchase_options(state, state.founding[0].corp)


def place(state: State, coord: str, city: int) -> State:
    if (coord, city) not in home_spots(state):
        raise RuleError("illegal_token", f"{state.founding[0].corp} cannot have its home in {coord}")
    corp = state.founding[0].corp
    state = _placed(replace(state, board=BS.place_token(state, corp, coord, city)), corp, [coord])
    return _next(replace(state, founding=state.founding[1:]))


def pass_(state: State) -> State:
    if state.founding[0].kind != "home2":
        raise RuleError("cannot_pass", "the home token must be placed")
    return _next(replace(state, founding=state.founding[1:]))


def choose(state: State, count: int) -> State:
    options = token_choices(state)
    if count not in options:
        raise RuleError("bad_choice", f"choose a number of tokens among {sorted(options)}")
    corp = state.founding[0].corp
    total = options[count]
    money = state.money
    short = total - money.cash[corp]
    if short > 0:
        money = emergency_treasury_sale(money, corp, short)
    money = replace(money, cash=S.pay(money.cash, corp, S.BANK, total))
    state = replace(state, money=money, tokens={**state.tokens, corp: count})
    if short > 0:
        from shared.games.g1841.operating import recalculate_order
        state = recalculate_order(state)
    return _next(replace(state, founding=state.founding[1:]))


def emergency_treasury_sale(money, corp: str, short: int):
    """Sell enough treasury shares to the pool at half the price to cover `short`, the price
    dropping a row per share (G1841 `auto_emr`)."""
    price = money.price_of(corp)
    count = math.ceil(2 * short / price)
    certs = [c for c in money.book.certs_of(corp, corp) if not c.president][:count]
    if len(certs) < count:
        raise RuleError("cannot_raise", f"{corp} cannot raise {short}")
    amount = math.floor(len(certs) * price / 2)
    book = money.book.moved([c.id for c in certs], S.POOL)
    money = replace(money, book=book, cash=S.pay(money.cash, S.BANK, corp, amount))
    return money.move_price(corp, "down", len(certs))
