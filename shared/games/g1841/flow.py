"""The order of rounds in 1841 and what happens between decisions (18xx.games `G1841::Game`
`next_round!`, `finish_stock_round`, `Round::Stock#finish_round`, `Round::Operating`, the train
events, `GAME_END_CHECK`):

- The concession auction, then stock rounds and sets of operating rounds (the phase's count,
  fixed when the set begins). After a stock round the priority deal goes to the player after
  the last to act.
- Corporations operate in share-price order; a frozen one (no player at the top of its chain)
  moves left twice instead of operating.
- Train events: the first 4-train closes the concessions (an unfounded historical corporation
  closes with its concession), changes the borders, and brings the Ferdinandea secession and the
  Tuscan merge; the first 5-train changes the borders again.
- The end: a price on the end cell ends the game at the end of that turn; the bank broken ends
  it at the end of the operating round; all players but one bankrupt end it at once.
"""

from __future__ import annotations

import msgspec

from shared.games.core18xx.money import control as C
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money.state import MoneyState
from shared.games.core18xx.rounds.stock import seated
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import concessions as K
from shared.games.g1841 import emergency as EM
from shared.games.g1841 import holders as H
from shared.games.g1841 import operating as OP
from shared.games.g1841.money import BAYARD, company_revenue, concessions, corp_info
from shared.games.g1841.state import OperatingRound, State, StockRound, Turn

replace = msgspec.structs.replace
BANKRUPTCY_LOAN = 500


# --- the auction -------------------------------------------------------------------------------

def after_auction(state: State) -> State:
    a = state.auction
    assert a is not None and a.done
    companies = {c: a.owners.get(c, S.BANK) for c in a.concessions}
    cash = {**state.money.cash, **a.cash}
    cash[S.BANK] = state.money.cash[S.BANK] + sum(a.prices.values())
    money = replace(state.money, cash=cash, companies=companies, players=list(a.players))
    return start_stock(replace(state, money=money, auction=None))


def start_stock(state: State) -> State:
    state = replace(state, round="stock", stock=StockRound(), operating=None)
    order = seated(state.money)
    if not order:
        return game_over(state, "bankrupt")
    # the first player too is passed over when he has nothing to do (18xx.games skips him as
    # it skips the later ones; a round nobody can act in ends at once)
    from shared.games.g1841 import stock as ST
    if not ST.has_moves(state, order[0]):
        return ST.end_turn(replace(state, stock=StockRound(passed=[order[0]])))
    return state


# --- the stock round's end -------------------------------------------------------------------

def end_stock_round(state: State) -> State:
    money = state.money
    sr = state.stock
    assert sr is not None
    for sym in sorted((s for s, c in money.corps.items() if c.floated and not c.closed),
                      key=lambda s: _market_key(money, s)):
        holders = money.book.holders(sym)
        if holders.get(S.POOL, 0) == 0 and holders.get(sym, 0) == 0 and not C.frozen(money, sym):
            money = money.move_price(sym, "up")
        if holders.get(S.POOL, 0):
            money = money.move_price(sym, "down", 2 if C.frozen(money, sym) else 1)
    # Bayard (and any concession with revenue) pays its owner
    revenue = company_revenue(state.variant)
    for company, owner in money.companies.items():
        if revenue.get(company) and owner in money.players and owner not in money.bankrupt:
            money = replace(money, cash=S.pay(money.cash, S.BANK, owner, revenue[company]))
    # unused concessions go back to the bank
    companies = {c: (S.BANK if c != BAYARD and o in money.players and not money.corps[c].ipoed else o)
                 for c, o in money.companies.items()}
    # priority goes to the player after the one whose turn ended the round (18xx.games'
    # `:after_last_to_act` reads the round's entity index once moved on past him), which is not
    # the last buyer or seller when nobody traded
    order = seated(money)
    last = order[sr.index % len(order)]
    at = money.players.index(last)
    players = money.players[at + 1:] + money.players[:at + 1]
    money = replace(money, companies=companies, players=players)
    state = replace(state, money=money, stock=None)
    if state.end is not None and state.end[1] == "current_turn":
        return game_over(state, state.end[0])
    if did_not_finish(state):
        return game_over(state, "dnf")
    return start_operating(state, 1, state.depot.current_phase.operating_rounds)


DNF_TURN = 100      # 18xx.games `Game::Base`: a round that ends in stock-round turn 100 ends the game


def did_not_finish(state: State) -> bool:
    """18xx.games ends a game as "dnf" when a round finishes with its turn counter (stock
    rounds begun) at 100 (tables whose players cannot act, e.g. all broke after the auction,
    go round by round on Bayard's income)."""
    return state.money.turn >= DNF_TURN


def _market_key(money, sym: str) -> tuple:
    order = money.operating_order()
    return (order.index(sym) if sym in order else len(order), sym)


# --- operating rounds ----------------------------------------------------------------------------

def start_operating(state: State, number: int, rounds: int) -> State:
    order = state.money.operating_order()
    op = OperatingRound(number=number, rounds=rounds, order=order, index=0)
    state = replace(state, round="operating", operating=op)
    return _begin_turn(state)


def _begin_turn(state: State) -> State:
    """Start the corporation at the round's index, skipping closed and frozen ones (a frozen
    corporation's price moves left twice: G1841 `frozen_operation`)."""
    while True:
        op = state.operating
        assert op is not None
        if op.index >= len(op.order):
            return end_operating(state)
        corp = op.order[op.index]
        c = state.money.corps[corp]
        if c.closed or not c.floated or corp in op.done:
            state = replace(state, operating=replace(op, index=op.index + 1, turn=None))
            continue
        if C.controller(state.money, corp) is None:
            money = circular_sales(state.money.move_price(corp, "left", 2), corp)
            state = replace(state, money=money, operating=replace(op, index=op.index + 1, turn=None))
            state = _done_operating(state, corp)
            if state.round == "over":
                return state
            continue
        state = OP.skip_dividend(replace(state, operating=replace(op, turn=Turn(corp=corp))))
        if OP.finished(state):
            state = _done_operating(state, corp)
            if state.round == "over":
                return state
            op = state.operating
            assert op is not None
            state = replace(state, operating=replace(op, index=op.index + 1, turn=None))
            continue
        return state


def circular_sales(money: MoneyState, corp: str) -> MoneyState:
    """A frozen corporation whose chain of control loops sells, one certificate at a time at
    the market price, each moving its price down a row a share, every certificate it holds of
    a corporation in that chain (G1841 `Round::Operating#frozen_operation`; 18xx.games names
    the chain kept from when it froze, and its call there is misspelt, so it never runs: we
    read the chain as it stands)."""
    chain = C.chain_of_control(money, corp)
    if not chain or chain[-1] is not None:
        return money
    looped = {h for h in chain if h is not None and h in money.corps}
    for cert in [c for c in money.book.certs_of(corp) if c.corporation in looped and c.corporation != corp]:
        sym = cert.corporation
        # the presidency changes whatever the phase (`allow_president_change: true`)
        presidents = money.presidents(sym)
        before = money.book.president_of(sym)
        book = money.book.moved([cert.id], S.POOL)
        if before in presidents:
            book = S.settle_presidency(book, sym, presidents, before)
        cash = S.pay(money.cash, S.BANK, corp, money.cert_price(sym, cert.percent))
        money = replace(money, book=book, cash=cash).move_price(sym, "down", cert.percent // book.normal_percent(sym))
    return money


def _done_operating(state: State, corp: str) -> State:
    # a corporation merged or transformed away in its turn has not operated (G1841
    # `done_operating!` returns for one `done_this_round`; `restart_corporation!` cleared it)
    c = state.money.corps[corp]
    if corp not in state.operated and c.ipoed and not c.closed:
        state = replace(state, operated=[*state.operated, corp])
    if state.end is not None and state.end[1] == "current_turn":
        return game_over(state, state.end[0])
    return state


def settle(state: State) -> State:
    """After a decision in an operating round: the next corporation once this one's turn is
    over, and the end of the round after the last."""
    if (state.round != "operating" or state.operating is None or state.operating.turn is None or state.founding
            or state.event is not None):
        return state
    if not OP.finished(state):
        return state
    corp = state.operating.turn.corp
    state = _done_operating(state, corp)
    if state.round == "over":
        return state
    op = state.operating
    assert op is not None
    state = _begin_turn(replace(state, operating=replace(op, index=op.index + 1, turn=None)))
    if state.end is not None and state.end[1] == "immediate" and state.round != "over":
        return game_over(state, state.end[0])
    return state


def end_operating(state: State) -> State:
    op = state.operating
    assert op is not None
    if state.end is not None:
        return game_over(state, state.end[0])
    if did_not_finish(state):
        return game_over(state, "dnf")
    if op.number < op.rounds:
        return start_operating(state, op.number + 1, op.rounds)
    money = replace(state.money, turn=state.money.turn + 1)
    return start_stock(replace(state, money=money, operating=None))


# --- phases and events ---------------------------------------------------------------------------

def phase_changed(state: State, events: list[str]) -> State:
    """A new train's events (`trainevents.py`); the secession and the Tuscan merge may stop
    at a question (`state.event`)."""
    from shared.games.g1841 import eventrun
    return eventrun.start(state, events) if events else state


def close_concessions(state: State) -> State:
    """Every concession closes; a historical corporation not yet founded closes with it, one
    founded settles its presidency (`event_close_companies!`: `deferred_president_change`)."""
    money = state.money
    for company in list(money.companies):
        if company in money.corps and not money.corps[company].ipoed:
            state = close_unstarted(state, [company])
            money = state.money
    # (18xx.games goes over every concession, whoever holds it)
    for company in concessions(state.variant):
        if company in money.corps and money.corps[company].ipoed and not money.corps[company].closed:
            money = deferred_president_change(money, company)
    state = replace(state, money=money)
    money = replace(state.money, companies={})
    return replace(state, money=money)


def deferred_president_change(money: MoneyState, sym: str) -> MoneyState:
    """The presidency a historical corporation could not change before phase 4 goes, once its
    concession closes, to the holder with most of it if its president is none of them: a
    player or (1841's `corporation_can_ipo`) another corporation, G1841
    `deferred_president_change` over `player_share_holders`; ties by
    `player_distance_for_president` from the president. The certificate's holder takes
    shares worth it (`change_president`)."""
    book = money.book
    presidents = money.presidents(sym)
    holders = [p for p in presidents if p not in money.bankrupt and p != sym]
    pres = book.president_cert(sym)
    previous = book.owner[pres.id]
    percents = {p: book.percent_of(p, sym) for p in holders}
    best = max(percents.values(), default=0)
    if best == 0 or percents.get(previous) == best:
        return money
    candidates = [p for p in holders if percents[p] == best and best >= pres.percent]
    if not candidates:
        return money
    new = min(candidates, key=lambda p: S.seat_distance(presidents, previous, p))
    return replace(money, book=S.swap_presidency(book, sym, new, previous))


def close_unstarted(state: State, syms: list[str]) -> State:
    """Corporations that were never founded close (their home reservations go)."""
    for sym in syms:
        corp = state.money.corps.get(sym)
        if corp is None or corp.closed or corp.ipoed:
            continue
        corps = {**state.money.corps, sym: replace(corp, closed=True)}
        state = replace(state, money=replace(state.money, corps=corps), board=BS.unreserve(state, sym))
    return state


# --- the end -------------------------------------------------------------------------------------

def check_end(state: State) -> State:
    """The end triggers (18xx.games `GAME_END_CHECK`, `GAME_END_TIMING_PRIORITY`): the bank
    broken ends the game at the end of the operating round, a price on the end cell or every
    off-board group reached at the end of the turn; of several, the soonest, in that table's
    order (bankrupt, bank, stock_market, offboards). Each trigger stays once pulled."""
    if state.round == "over":
        return state
    found = [state.end] if state.end else []
    if O.bank_broken(state.money):
        found.append(("bank", "current_or"))
    if state.money.max_reached:
        found.append(("stock_market", "current_turn"))
    if BS.all_offboards_connected(state.variant, state.offboards):
        found.append(("offboards", "current_turn"))
    if not found:
        return state
    order = ("bankrupt", "bank", "stock_market", "offboards")
    best = min(found, key=lambda e: (TIMINGS.index(e[1]), order.index(e[0])))
    return state if best == state.end else replace(state, end=best)


TIMINGS = ("immediate", "current_turn", "current_or")


def bankrupt(state: State, corp: str, option: int) -> State:
    """The president of a corporation that must buy a train and cannot raise the money goes
    bankrupt (G1841 `Step::Bankrupt`): his shares are sold at half price, his cash goes to the
    corporation, his concessions to the bank; with option 1 he takes a L.500 loan and plays on.
    The corporation's turn is over (18xx.games `done_this_round`: no train, share, merge or
    transformation step acts for it again this round)."""
    player = C.controller(state.money, corp)
    if player is None or option not in (0, 1):
        from shared.engine import RuleError
        raise RuleError("bad_bankruptcy", "declare bankruptcy with option 0 or 1")
    state = EM.bankruptcy_sales(state, player, corp)
    money = state.money
    for sym in [s for s in money.book.by_company(player) if s in money.corps]:
        certs = money.book.certs_of(player, sym)
        if not certs or money.corps[sym].price is None:
            continue
        percent = sum(c.percent for c in certs)
        amount = EM.half_price(money, sym, percent)
        book = money.book.moved([c.id for c in certs], S.POOL)
        if H.pres_change_ok(state, sym):
            # the bankrupt is the previous president: ties go to the nearest after him
            book = S.settle_presidency(book, sym, money.presidents(sym), player)
        money = replace(money, book=book, cash=S.pay(money.cash, S.BANK, player, amount))
    if money.cash[player] > 0:
        money = replace(money, cash=S.pay(money.cash, player, corp, money.cash[player]))
    companies = {c: (S.BANK if o == player else o) for c, o in money.companies.items()}
    money = replace(money, companies=companies)
    loans = dict(state.loans)
    if option == 0:
        money = replace(money, bankrupt=[*money.bankrupt, player])
    else:
        money = replace(money, cash=S.pay(money.cash, S.BANK, player, BANKRUPTCY_LOAN))
        loans[player] = loans.get(player, 0) + BANKRUPTCY_LOAN
    state = replace(state, money=money, loans=loans)
    op = state.operating
    if op is not None and op.turn is not None:
        t = op.turn
        # its turn is over, merge and transformation too (G1841 `Step::Bankrupt`:
        # `done_operating!` and `done_this_round`)
        state = replace(state, operating=replace(op, turn=replace(t, train_done=True, shares_done=True,
                                                                    track_done=True, token_done=True,
                                                                    paid=True, revenue=t.revenue or 0,
                                                                    merge_done=True, transform_done=True,
                                                                    over=True)))
    if len([p for p in money.players if p not in money.bankrupt]) <= 1:
        # an immediate end, checked once the round has moved on to the next decision
        # (18xx.games' `game_end_check` follows the round's processing: the corporations
        # passed over on the way, frozen ones' operation among them, have had their turns)
        return replace(state, end=("bankrupt", "immediate"))
    return state


def game_over(state: State, reason: str) -> State:
    return replace(state, round="over", over_reason=reason, operating=state.operating, stock=None)


def concession_holders(state: State) -> dict[str, str]:
    return dict(state.money.companies)


def historical_unfounded(state: State) -> list[str]:
    return [s for s, i in corp_info(state.variant).items() if i.historical and not state.money.corps[s].ipoed]


def new_auction(state_players: list[str], cash: dict[str, int], concessions: list[str], blind: bool) -> K.Auction:
    return K.new_auction(state_players, cash, concessions, blind)
