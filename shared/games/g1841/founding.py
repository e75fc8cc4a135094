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
from shared.games.g1841 import data as D
from shared.games.g1841 import holders as H
from shared.games.g1841.money import corp_info
from shared.games.g1841.state import Founding, State

replace = msgspec.structs.replace
TOKEN_RANGE = {"major": (2, 5), "minor": (1, 2)}


def begin(state: State, corp: str) -> State:
    info = corp_info(state.variant)[corp]
    if info.historical and not (corp == "SFMA" and not state.options.version_1):
        state = replace(state, board=BS.historical_homes(state, corp))
        return _next(replace(state, founding=[Founding(corp, "tokens")]))
    steps = [Founding(corp, "home")]
    if H.major(state, corp) and not info.historical:
        steps.append(Founding(corp, "home2"))
    return _next(replace(state, founding=[*steps, Founding(corp, "tokens")]))


def _next(state: State) -> State:
    """Skip a second home with nowhere to go; finish when nothing is left."""
    while state.founding and state.founding[0].kind == "home2" and not home_spots(state):
        state = replace(state, founding=state.founding[1:])
    if state.founding:
        return state
    from shared.games.g1841 import stock
    return stock.end_turn(state)


def _zones(state: State) -> list[list[str]]:
    return list(D.map_data(state.variant)["zones"].values())


def home_hexes(state: State, corp: str, second: bool) -> list[str]:
    data = D.map_data(state.variant)
    zones = _zones(state)
    everything = [h for z in zones for h in z]
    phase = H.phase(state)
    reserved = [*data["historical_cities"], data["lugano"]] if phase < 4 else [data["lugano"]]
    austrian = [*zones[3], *zones[4]] if phase < 4 and len(zones) > 4 else []
    if corp == "SFMA":
        return list(corp_info(state.variant)[corp].homes)
    if H.major(state, corp):
        pool = everything
        if second:
            home = BS.token_hexes(state, corp)[0]
            zone = next(i for i, z in enumerate(zones) if home in z)
            if phase < 4:
                pool = list(zones[zone])
            elif phase == 4 and len(zones) > 4:
                pool = [h for h in everything if h not in zones[4]] if zone < 4 else list(zones[4])
            pool = [h for h in pool if h != home]
        return [h for h in pool if h not in reserved and h not in austrian and h in BS.the_map(state).hexes]
    tokened = {h for h in everything if h in state.board.tokens and any(
        o != "" for slots in state.board.tokens[h] for o in slots)}
    return [h for h in everything if h not in reserved and h not in austrian and h not in data["major_cities"]
            and h not in tokened and h in BS.the_map(state).hexes]


def home_spots(state: State) -> list[tuple[str, int]]:
    step = state.founding[0]
    return BS.home_cities(state, step.corp, home_hexes(state, step.corp, step.kind == "home2"))


def token_price(state: State, corp: str) -> int:
    return BS.token_price(state, corp)


def token_choices(state: State) -> list[int]:
    corp = state.founding[0].corp
    low, high = TOKEN_RANGE[state.money.corps[corp].type]
    price = token_price(state, corp)
    cash = state.money.cash[corp]
    return [n for n in range(low, high + 1) if n == low or n * price <= cash]


def place(state: State, coord: str, city: int) -> State:
    if (coord, city) not in home_spots(state):
        raise RuleError("illegal_token", f"{state.founding[0].corp} cannot have its home in {coord}")
    board = BS.place_token(state, state.founding[0].corp, coord, city)
    return _next(replace(state, board=board, founding=state.founding[1:]))


def pass_(state: State) -> State:
    if state.founding[0].kind != "home2":
        raise RuleError("cannot_pass", "the home token must be placed")
    return _next(replace(state, founding=state.founding[1:]))


def choose(state: State, count: int) -> State:
    if count not in token_choices(state):
        raise RuleError("bad_choice", f"choose a number of tokens among {token_choices(state)}")
    corp = state.founding[0].corp
    total = count * token_price(state, corp)
    money = state.money
    short = total - money.cash[corp]
    if short > 0:
        money = emergency_treasury_sale(money, corp, short)
    money = replace(money, cash=S.pay(money.cash, corp, S.BANK, total))
    state = replace(state, money=money, tokens={**state.tokens, corp: count})
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
