"""A corporation's operating turn in 1841, declared as steps on the core's `Round`/`Step`
(18xx.games `G1841::Round::Operating` and its step list):

  discard   a corporation over its train limit after a phase change hands a train to the pool
            (it waits before anything else while any corporation is over)
  track     lay tiles: a major one per base in phase 2, at most two in phases 3-4, one later;
            a minor one (`num_possible_lays`); no hex twice except a new yellow lay
  token     place one of the tokens it owns in a reachable city with a free slot, or pass
  route     run its trains (when it has trains and a route)
  dividend  pay out or withhold; nothing earned is withheld automatically; the price moves
            right only when the revenue exceeds the share price, left when nothing is paid
  buy_train buy from the depot, the pool or another corporation; a corporation without a train
            and with a route must buy one: the chain of control pays what it lacks
            (the cheapest depot train only)
  shares    sell, then buy one certificate of another corporation, or pass

Steps are stateless; what each has done lives in the state's `Turn`.
"""

from __future__ import annotations

import operator
from typing import Any

import msgspec

from shared.engine import RuleError
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import routes as R
from shared.games.core18xx.board import state as B
from shared.games.core18xx.memo import Last
from shared.games.core18xx.money import control as C
from shared.games.core18xx.money import operating as O
from shared.games.core18xx.money import shares as S
from shared.games.core18xx.money import trains as T
from shared.games.core18xx.rounds.base import Round
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import emergency as EM
from shared.games.g1841 import holders as H
from shared.games.g1841 import stock as ST
from shared.games.g1841.money import price_after_run
from shared.games.g1841.state import State, Turn

replace = msgspec.structs.replace


def turn(state: State) -> Turn:
    op = state.operating
    assert op is not None and op.turn is not None
    return op.turn


def _with_turn(state: State, t: Turn) -> State:
    op = state.operating
    assert op is not None
    return replace(state, operating=replace(op, turn=t))


def _board_error(exc: B.BoardError) -> RuleError:
    return RuleError(exc.code, str(exc))


def _reached(game: State, name: str) -> bool:
    """Whether the turn has not yet gone past step `name` (18xx.games passes a step the round
    moves beyond: it never opens again in that turn)."""
    return turn(game).past <= ORDER[name]


def crowded(state: State) -> list[str]:
    # asked by who acts, the discard step and moving on, several times a decision
    held = (state.depot, state.money.corps)
    known = _CROWDED.get(held)
    if known is None:
        known = _CROWDED.put(held, T.over_limit(
            state.depot, {s: c.type for s, c in state.money.corps.items() if c.ipoed and not c.closed}))
    return list(known)


_CROWDED = Last()


class DiscardStep:
    name = "discard"
    kinds = frozenset({"discard_train"})

    def actions(self, game: State, entity: str) -> frozenset[str]:
        return frozenset({"discard_train"}) if entity in crowded(game) else frozenset()

    def blocking(self, game: State) -> bool:
        return bool(crowded(game))

    def process(self, game: State, action: A.DiscardTrain) -> State:
        if action.entity not in crowded(game):
            raise RuleError("not_crowded", f"{action.entity} is within its train limit")
        return replace(game, depot=T.discard(game.depot, str(action.entity), action.train))


class TrackStep:
    name = "track"
    rank = 0
    kinds = frozenset({"lay_tile", "pass"})

    def open(self, game: State) -> bool:
        t = turn(game)
        # open while a lay is left, legal or not: 18xx.games waits for a pass then too
        return _reached(game, self.name) and not t.track_done and BS.lays_left(game, t.corp, t.lays)

    def actions(self, game: State, entity: str) -> frozenset[str]:
        return frozenset({"lay_tile", "pass"}) if entity == turn(game).corp and self.open(game) else frozenset()

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: Any) -> State:
        t = turn(game)
        game_before = game
        if isinstance(action, A.Pass):
            return _with_turn(game, replace(t, track_done=True))
        name = action.tile.rsplit("-", 1)[0]
        try:
            laid = BS.check_lay(game, t.corp, action.hex, name, action.rotation)
            if laid.cost > game.money.cash[t.corp]:
                raise RuleError("cannot_afford", f"{t.corp} cannot pay {laid.cost} for that lay")
            instance = BS.tile_copy(game, name)
            if action.tile != instance and not B.in_supply(BS.the_map(game), game.board, action.tile):
                raise RuleError("no_such_tile", f"tile {action.tile} is not in the supply")
            board = BS.lay(game, action.hex, name, action.rotation, action.tile)
        except B.BoardError as exc:
            raise _board_error(exc) from None
        money = game.money
        if laid.cost:
            money = replace(money, cash=S.pay(money.cash, t.corp, S.BANK, laid.cost))
        game = replace(game, money=money, board=board)
        new = BS.new_offboards(game, t.corp)
        if new:
            game = replace(game, offboards=[*game.offboards, *sorted(new)])
        return _with_turn(game, replace(t, lays=t.lays + 1, laid=[*t.laid, action.hex], start=t.start or game_before.board))


class TokenStep:
    name = "token"
    rank = 1
    kinds = frozenset({"place_token", "pass"})

    def open(self, game: State) -> bool:
        # 18xx.games waits while `can_place_token?` holds: its graph's `can_token?` asks for a
        # reached city with a free slot and not G1841's `check_token_hex`, so a closed Firenze
        # keeps the step open for a pass
        t = turn(game)
        return _reached(game, self.name) and (not t.token_done and game.tokens.get(t.corp, 0) > BS.placed_tokens(game, t.corp)
                and bool(BS.token_spots(game, t.corp, firenze_too=True)))

    def actions(self, game: State, entity: str) -> frozenset[str]:
        return frozenset({"place_token", "pass"}) if entity == turn(game).corp and self.open(game) else frozenset()

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: Any) -> State:
        t = turn(game)
        if isinstance(action, A.Pass):
            return _with_turn(game, replace(t, token_done=True))
        if action.cost not in (None, 0) or action.tokener not in (None, t.corp) or action.token_type is not None:
            raise RuleError("not_allowed", "a corporation places one of its own tokens")
        try:
            coord, city = BS.find_node(game, action.city)
        except B.BoardError as exc:
            raise _board_error(exc) from None
        if not any(s.hex == coord and s.city == city for s in BS.token_spots(game, t.corp)):
            raise RuleError("illegal_token", f"{t.corp} cannot place a token there")
        order = {**game.token_order, t.corp: [*game.token_order.get(t.corp, []), coord]}
        game = replace(game, board=BS.place_token(game, t.corp, coord, city), token_order=order)
        return _with_turn(game, replace(t, token_done=True, track_done=True))


class RouteStep:
    name = "route"
    rank = 2
    kinds = frozenset({"run_routes"})

    def open(self, game: State) -> bool:
        t = turn(game)
        # 18xx.games' `can_run_route?`: the network, not a legal route, opens the step (a run
        # of no route, for nothing, is then the way on)
        return (_reached(game, self.name) and t.revenue is None and bool(game.depot.count_owned(t.corp))
                and BS.route_available(game, t.corp))

    def actions(self, game: State, entity: str) -> frozenset[str]:
        return frozenset({"run_routes"}) if entity == turn(game).corp and self.open(game) else frozenset()

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: A.RunRoutes) -> State:
        t = turn(game)
        if action.extra_revenue or action.subsidy:
            raise RuleError("bad_routes", "1841 has no extra revenue or subsidy")
        specs = []
        for r in action.routes:
            if not r.connections:
                raise RuleError("bad_routes", f"the route of {r.train} names no track")
            specs.append(R.RouteSpec(r.train, r.connections, r.nodes or []))
        try:
            results, total = BS.run(game, t.corp, specs)
        except B.BoardError as exc:
            raise _board_error(exc) from None
        for given, got in zip(action.routes, results, strict=False):
            if given.revenue is not None and given.revenue != got.revenue:
                raise RuleError("wrong_revenue", f"the route of {given.train} earns {got.revenue}, not {given.revenue}")
        game = _with_turn(game, replace(t, revenue=total, track_done=True, token_done=True))
        if total <= 0:
            return _pay(game, "withhold")
        return game


def _pay(game: State, kind: str) -> State:
    t = turn(game)
    revenue = t.revenue or 0
    money, _ = O.run_dividend(game.money, t.corp, revenue, kind)  # type: ignore[arg-type]
    money = price_after_run(money, t.corp, revenue, kind == "payout", H.phase(game))
    return _with_turn(replace(game, money=money), replace(t, paid=True, revenue=revenue))


class DividendStep:
    name = "dividend"
    rank = 3
    kinds = frozenset({"dividend"})

    def open(self, game: State) -> bool:
        t = turn(game)
        return _reached(game, self.name) and t.revenue is not None and not t.paid

    def actions(self, game: State, entity: str) -> frozenset[str]:
        return frozenset({"dividend"}) if entity == turn(game).corp and self.open(game) else frozenset()

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: A.Dividend) -> State:
        if action.kind not in ("payout", "withhold") or action.amount is not None:
            raise RuleError("bad_dividend", "pay out or withhold")
        return _pay(game, action.kind)


def _after_run(game: State) -> State:
    """No trains or no route: nothing is run, the turn goes on to the train purchase (and the
    price moves left as for a withheld run once, as 18xx.games' skipped dividend does not)."""
    return game


class BuyTokenStep:
    """Buy another corporation's token (G1841 `Step::BuyToken`): a corporation with a token
    still to place and any cash may replace, in a city it reaches, the token of a corporation
    that has more than one station, paying it any price from 1 to its cash; once a turn."""
    name = "buy_token"
    rank = 4
    kinds = frozenset({"buy_token", "pass"})

    def open(self, game: State) -> bool:
        t = turn(game)
        return (_reached(game, self.name) and not t.token_bought and game.money.cash[t.corp] >= 1
                and game.tokens.get(t.corp, 0) > BS.placed_tokens(game, t.corp)
                and BS.token_buy_stops(game, t.corp))

    def actions(self, game: State, entity: str) -> frozenset[str]:
        return frozenset({"buy_token", "pass"}) if entity == turn(game).corp and self.open(game) else frozenset()

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: Any) -> State:
        t = turn(game)
        if isinstance(action, A.Pass):
            return _with_turn(game, replace(t, token_bought=True))
        try:
            coord, city = BS.find_node(game, action.city)
        except B.BoardError as exc:
            raise _board_error(exc) from None
        offer = next((x for x in BS.buyable_tokens(game, t.corp)
                      if x.hex == coord and x.city == city and x.slot == action.slot), None)
        price = action.price or 0
        if offer is None or not 1 <= price <= game.money.cash[t.corp]:
            raise RuleError("cannot_buy_token", f"{t.corp} cannot buy that token for {price}")
        board = BS.buy_token(game, t.corp, coord, city, offer.slot)
        money = replace(game.money, cash=S.pay(game.money.cash, t.corp, offer.owner, price))
        order = {**game.token_order, t.corp: [*game.token_order.get(t.corp, []), coord],
                 offer.owner: [h for h in game.token_order.get(offer.owner, []) if h != coord]}
        game = replace(game, board=board, money=money, token_order=order)
        return _with_turn(game, replace(t, token_bought=True))


def must_buy(game: State, corp: str) -> bool:
    return not game.depot.count_owned(corp) and bool(game.depot.upcoming or game.depot.pool) and BS.route_available(game, corp)


def chain_seller(game: State, action: A.SellShares) -> str:
    """Who sells in an emergency sale for a train: the player or corporation named, or, when the
    buying corporation names it (18xx.games' form), the owner of the certificates."""
    entity = str(action.entity)
    t = turn(game)
    if entity == t.corp and action.shares and action.shares[0] in game.money.book.owner:
        return game.money.book.owner[action.shares[0]]
    return entity


def chain_cash(game: State, corp: str) -> int:
    """What the corporation and its chain of control up to the player can put toward a forced
    purchase (18xx.games `sweep_cash` over `chain_of_control`)."""
    total = game.money.cash[corp]
    for holder in C.chain_of_control(game.money, corp):
        if holder is not None and holder in game.money.cash and holder not in (S.POOL, S.BANK):
            total += game.money.cash[holder]
    return total


def train_options(game: State, corp: str) -> list[tuple[str, int, int]]:
    """(train id, lowest price, highest price) the corporation may buy now."""
    depot, money = game.depot, game.money
    if depot.count_owned(corp) >= depot.train_limit(money.corps[corp].type):
        return []
    cash = money.cash[corp]
    out = []
    offered = depot.offered()
    for t in offered:
        price = depot.types[t.name].price
        if price <= cash:
            out.append((t.id, price, price))
    forced = must_buy(game, corp)
    emergency = game.operating is not None and game.operating.turn is not None and game.operating.turn.emergency
    if forced and emergency:
        out = []        # after an emergency sale: the cheapest depot train only
    if forced and not out and offered:
        cheapest = min(offered, key=lambda t: depot.types[t.name].price)
        price = depot.types[cheapest.name].price
        if chain_cash(game, corp) >= price and not EM.issuable(game, corp):
            out.append((cheapest.id, price, price))
    if forced and emergency:
        return out
    # another corporation's train, for what the corporation itself has (a forced buyer too,
    # before any emergency sale: G1841 `BuyTrain#process_buy_train`)
    if cash > 0:
        for t in depot.trains.values():
            if t.owner in money.corps and t.owner != corp and not money.corps[t.owner].closed:
                out.append((t.id, 1, cash))
    return out


class BuyTrainStep:
    name = "buy_train"
    rank = 6
    kinds = frozenset({"buy_train", "pass", "sell_shares", "bankrupt"})

    def open(self, game: State) -> bool:
        t = turn(game)
        return _reached(game, self.name) and not t.train_done and (bool(train_options(game, t.corp)) or must_buy(game, t.corp))

    def actions(self, game: State, entity: str) -> frozenset[str]:
        t = turn(game)
        if not self.open(game):
            return frozenset()
        if entity != t.corp:
            # the controlling player's own emergency sales
            if entity == H.decider(game, t.corp) and self.player_sales(game):
                return frozenset({"sell_shares"})
            if must_buy(game, t.corp) and any(s == entity for s, _ in EM.issuable(game, t.corp)):
                return frozenset({"sell_shares"})     # a corporation above it sells
            return frozenset()
        kinds = {"buy_train"} if train_options(game, t.corp) else set()
        if not must_buy(game, t.corp):
            kinds.add("pass")
            return frozenset(kinds)
        if EM.issuable(game, t.corp):
            kinds.add("sell_shares")
        if (not kinds and EM.can_go_bankrupt(game, t.corp)) or EM.may_declare_bankruptcy(game, t.corp):
            kinds.add("bankrupt")
        return frozenset(kinds)

    def player_sales(self, game: State) -> list:
        """The player's emergency sales, open once the chain has nothing left to sell and the
        money still does not reach the cheapest depot train."""
        corp = turn(game).corp
        if not must_buy(game, corp) or EM.issuable(game, corp) or chain_cash(game, corp) >= EM.cheapest(game):
            return []
        return EM.player_bundles(game, corp)

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: Any) -> State:
        t = turn(game)
        if isinstance(action, A.Pass):
            if must_buy(game, t.corp):
                raise RuleError("must_buy_train", f"{t.corp} must buy a train")
            return _with_turn(game, replace(t, train_done=True))
        if isinstance(action, A.Bankrupt):
            from shared.games.g1841 import flow
            return flow.bankrupt(game, t.corp, action.option or 0)
        if isinstance(action, A.SellShares):
            seller = chain_seller(game, action)
            if seller == H.decider(game, t.corp):
                game = EM.sell(game, seller, t.corp, action.shares, self.player_sales(game))
                return _with_turn(game, replace(turn(game), emergency=True))
            bundles = [b for s, b in EM.issuable(game, t.corp) if s == seller]
            # any emergency sale, the chain's too, leaves only the cheapest depot train
            # (G1841 `BuyTrain#process_sell_shares` sets `@emr_triggered` for every seller)
            game = EM.sell(game, seller, t.corp, action.shares, bundles)
            return _with_turn(game, replace(turn(game), emergency=True))
        offers = {tid: (lo, hi) for tid, lo, hi in train_options(game, t.corp)}
        if action.train not in offers:
            raise RuleError("cannot_buy_train", f"{t.corp} cannot buy {action.train} now")
        lo, hi = offers[action.train]
        if not lo <= action.price <= hi or action.exchange is not None:
            raise RuleError("wrong_price", f"{action.train} costs {lo}" + (f" to {hi}" if hi != lo else ""))
        money = game.money
        short = action.price - money.cash[t.corp]
        cash = dict(money.cash)
        if short > 0:
            for holder in C.chain_of_control(money, t.corp):
                if short <= 0 or holder is None or holder not in cash or holder in (S.POOL, S.BANK):
                    continue
                take = min(short, cash[holder])
                cash[holder] -= take
                cash[t.corp] += take
                short -= take
        from shared.games.g1841 import flow
        purchase = T.buy_train(game.depot, cash, t.corp, action.train, action.price)
        game = replace(game, depot=purchase.depot, money=replace(money, cash=purchase.cash))
        game = _with_turn(game, replace(t, bought_train=True))
        if purchase.new_phase or purchase.events:
            game = flow.phase_changed(game, purchase.events)
        return game


class SharesStep:
    """Corporate sell then buy (18xx.games `CorporateBuySellParShares`): the corporation sells
    certificates of others, then may buy one; a purchase ends the step."""
    name = "shares"
    rank = 7
    kinds = frozenset({"sell_shares", "pass", "buy_shares", "par"})

    def open(self, game: State) -> bool:
        t = turn(game)
        if t.shares_done or H.decider(game, t.corp) is None or not _reached(game, self.name):
            return False
        view = as_stock(game)
        return bool(ST.buyable(view, t.corp) or ST.sellable(view, t.corp, own=True) or ST.offers_par(view, t.corp))

    def actions(self, game: State, entity: str) -> frozenset[str]:
        if entity != turn(game).corp or not self.open(game):
            return frozenset()
        t = turn(game)
        view = as_stock(game)
        if ST.must_sell(view, t.corp):
            return frozenset({"sell_shares"})
        kinds = {"pass"}
        if ST.buyable(view, t.corp):
            kinds.add("buy_shares")
        if ST.sellable(view, t.corp, own=True):
            kinds.add("sell_shares")
        if ST.can_par(view, t.corp):
            kinds.add("par")
        return frozenset(kinds)

    def offers(self, game: State, entity: str, kind: str) -> bool:
        """`kind in actions(game, entity)`, asking only what that kind hangs on."""
        if kind not in self.kinds or entity != turn(game).corp or not self.open(game):
            return False
        view = as_stock(game)
        corp = turn(game).corp
        if ST.must_sell(view, corp):
            return kind == "sell_shares"
        if kind == "pass":
            return True
        if kind == "buy_shares":
            return bool(ST.buyable(view, corp))
        if kind == "sell_shares":
            return bool(ST.sellable(view, corp, own=True))
        return ST.can_par(view, corp)

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: Any) -> State:
        t = turn(game)
        player = H.decider(game, t.corp) or ""
        if isinstance(action, A.Pass):
            if t.started is not None:
                game = _founded(ST.finish_founding(as_stock(game)))
            return _with_turn(game, replace(turn(game), shares_done=True, started=None))
        if isinstance(action, A.Par):
            after = ST.par(as_stock(game), player, t.corp, action.corporation, action.share_price)
            started = after.stock.started if after.stock else None
            return _with_turn(_founded(after), replace(t, share_bought=True, started=started,
                                                       shares_done=started is None))
        if isinstance(action, A.SellShares):
            after = ST.sell(as_stock(game), player, t.corp, action.shares, action.percent)
            sold = after.stock.sold.get(t.corp, []) if after.stock else []
            return _with_turn(replace(after, stock=None), replace(t, share_sold=list(sold)))
        if len(action.shares) != 1:
            raise RuleError("one_share", "buy one certificate at a time")
        after = ST.buy(as_stock(game), player, t.corp, action.shares[0], ends_turn=False)
        started = after.stock.started if after.stock else None
        return _with_turn(_founded(after), replace(t, shares_done=started is None, share_bought=True, started=started))


def mergeable(game: State, corp: str) -> bool:
    """May `corp` merge (`mergeable?`): a general corporation, or a historical one from phase
    4, that has operated, is not frozen and not closed."""
    c = game.money.corps[corp]
    return (c.ipoed and not c.closed and (not H.historical(game, corp) or H.phase(game) >= 4)
            and corp in game.operated and not C.frozen(game.money, corp))


def merge_targets(game: State) -> list[str]:
    """General majors not started: what a merger or a transformation forms (`merge_target?`)."""
    return [s for s, c in game.money.corps.items()
            if c.type == "major" and not c.ipoed and not c.closed and not H.historical(game, s)]


def merge_candidates(game: State, corp: str) -> list[str]:
    """Corporations of its type `corp` may merge with: a token in a city its region graph
    reaches (`mergeable_candidates`)."""
    found = BS.merge_partners(game, corp)
    kind = game.money.corps[corp].type
    return [s for s in game.money.corps if s in found and game.money.corps[s].type == kind and mergeable(game, s)]


class MergeStep:
    """Merge with a connected corporation of the same type into a general major (G1841
    `Step::Merge`): first the partner, then the corporation to form; a pass before the
    partner. 18xx.games passes the step by itself when there is no partner."""
    name = "merge"
    rank = 8
    kinds = frozenset({"merge", "pass"})

    def open(self, game: State) -> bool:
        t = turn(game)
        if t.merge_done or not _reached(game, self.name) or not mergeable(game, t.corp) or not merge_targets(game):
            return False
        return t.merging is not None or bool(merge_candidates(game, t.corp))

    def actions(self, game: State, entity: str) -> frozenset[str]:
        if entity != turn(game).corp or not self.open(game):
            return frozenset()
        if not self.any_choice(game):
            return frozenset({"pass"})
        return frozenset({"merge"}) if turn(game).merging else frozenset({"merge", "pass"})

    def offers(self, game: State, entity: str, kind: str) -> bool:
        """`kind in actions(game, entity)`, the dear foresight (`choices`) asked only when the
        answer hangs on it: a pass before the partner is chosen is open either way."""
        if kind not in self.kinds or entity != turn(game).corp or not self.open(game):
            return False
        if kind == "pass" and not turn(game).merging:
            return True
        return kind in self.actions(game, entity)

    def choices(self, game: State) -> list[str]:
        """Partners, then targets, whose merger some answers of its holders can complete with a
        president and no new circular chain (18xx.games raises at the exchange's end and asks
        for an undo; a general major formed is as good as another for that)."""
        return [c for c in self._options(game) if self._completes(game, c)]

    def any_choice(self, game: State) -> bool:
        """`bool(choices(game))`, each foresight run only until one completes (one already
        found to complete, as the decision's check finds the one it names, first)."""
        from shared.games.g1841 import eventrun
        options = self._options(game)
        if any(eventrun.known_to_complete(game, [self._event(game, c)], []) for c in options):
            return True
        return any(self._completes(game, c) for c in options)

    def admits(self, game: State, other: str) -> bool:
        """`other in choices(game)`, with the foresight of `other` alone."""
        return other in self._options(game) and self._completes(game, other)

    def _options(self, game: State) -> list[str]:
        t = turn(game)
        return merge_candidates(game, t.corp) if not t.merging else merge_targets(game)

    def _event(self, game: State, other: str) -> str:
        t = turn(game)
        return f"merge:{t.corp}:{other}:{merge_targets(game)[0]}" if not t.merging else \
            f"merge:{t.corp}:{t.merging}:{other}"

    def _completes(self, game: State, other: str) -> bool:
        from shared.games.g1841 import eventrun
        return eventrun.completes(game, [self._event(game, other)], [])

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: Any) -> State:
        t = turn(game)
        if isinstance(action, A.Pass):
            return _with_turn(game, replace(t, merge_done=True))
        other = str(action.corporation)
        if not self.admits(game, other):
            raise RuleError("cannot_merge", f"{t.corp} cannot merge with {other}" if not t.merging
                            else f"{other} is not available to merge into")
        if not t.merging:
            return _with_turn(game, replace(t, merging=other))
        from shared.games.g1841 import eventrun
        game = _with_turn(game, replace(t, merge_done=True, transform_done=True))
        return eventrun.start(game, [f"merge:{t.corp}:{t.merging}:{other}"])


class TransformStep:
    """A minor (a historical one from phase 4) becomes a general major (G1841 `Step::Transform`)."""
    name = "transform"
    rank = 9
    kinds = frozenset({"merge", "pass"})

    def open(self, game: State) -> bool:
        t = turn(game)
        c = game.money.corps[t.corp]
        return (not t.transform_done and _reached(game, self.name) and c.type == "minor"
                and (not H.historical(game, t.corp) or H.phase(game) >= 4) and bool(merge_targets(game)))

    def actions(self, game: State, entity: str) -> frozenset[str]:
        return frozenset({"merge", "pass"}) if entity == turn(game).corp and self.open(game) else frozenset()

    def choices(self, game: State) -> list[str]:
        return merge_targets(game)

    def blocking(self, game: State) -> bool:
        return self.open(game)

    def process(self, game: State, action: Any) -> State:
        t = turn(game)
        if isinstance(action, A.Pass):
            return _with_turn(game, replace(t, transform_done=True))
        target = str(action.corporation)
        if target not in merge_targets(game):
            raise RuleError("cannot_transform", f"{target} is not available to transform into")
        from shared.games.g1841 import eventrun
        game = _with_turn(game, replace(t, transform_done=True))
        return eventrun.start(game, [f"transform:{t.corp}:{target}"])


def _founded(game: State) -> State:
    """Back from the stock round's rules to the operating turn."""
    return replace(game, stock=None)


def as_stock(game: State) -> State:
    """The state as the stock round's purchase and sale rules read it for the corporation's
    share step: what it bought and sold this turn (one view per state, so what the rules keep
    per state serves every question of the step)."""
    known = _VIEW.get((game,))
    if known is not None:
        return known
    from shared.games.g1841.state import StockRound
    t = turn(game)
    return _VIEW.put((game,), replace(game, stock=StockRound(bought=t.share_bought, sold={t.corp: t.share_sold},
                                                              started=t.started)))


_VIEW = Last()


# each step's `kinds`: every action type its `actions` may give (routing and apply's check of
# a decision ask only the steps that may take its type); its `rank`: its place here (the round
# asks no step the turn's `past` is beyond, which `_reached` would close). G1841's operating
# steps put `DiscardTrain` after `BuyToken`: a corporation over its limit at the start of a
# turn (a merger's, carried into the next round) lays, runs and pays first
STEPS: tuple[Any, ...] = (TrackStep(), TokenStep(), RouteStep(), DividendStep(), BuyTokenStep(), DiscardStep(),
                          BuyTrainStep(), SharesStep(), MergeStep(), TransformStep())
ORDER = {step.name: i for i, step in enumerate(STEPS)}
# what the steps read of a state: all of it but the move counter apply bumps last (the round
# then answers which step waits once per position, not per copy of it)
step_inputs = operator.attrgetter(*(f for f in State.__struct_fields__ if f != "moves"))
assert all(getattr(s, "rank", i) == i for i, s in enumerate(STEPS)), "a step's rank is its place"


def _progress(game: State) -> int:
    # every step but the discard (unranked) opens only while `_reached`: the round need not ask
    # the steps the turn has gone past
    op = game.operating
    return op.turn.past if op is not None and op.turn is not None else 0


ROUND: Round[State] = Round("operating", STEPS, version=step_inputs, progress=_progress)
KINDS: dict[type, str] = {A.LayTile: "lay_tile", A.PlaceToken: "place_token", A.RunRoutes: "run_routes",
                          A.Dividend: "dividend",
         A.BuyTrain: "buy_train", A.DiscardTrain: "discard_train", A.Pass: "pass", A.Bankrupt: "bankrupt",
         A.BuyShares: "buy_shares", A.SellShares: "sell_shares", A.BuyToken: "buy_token", A.Par: "par",
         A.Merge: "merge"}


def skip_dividend(game: State) -> State:
    """A corporation that runs nothing withholds nothing: once its turn is past the dividend
    step without a run, its price moves left as for a withheld run (18xx.games' `Dividend#skip!`
    processes a withhold of 0)."""
    if game.operating is None or game.operating.turn is None or crowded(game):
        return game
    t = turn(game)
    if t.revenue is not None:
        return game
    active = ROUND.active_step(game)
    if active is not None and ORDER[active.name] <= ORDER["dividend"]:
        return game
    game = _with_turn(game, replace(t, revenue=0))
    return _pay(game, "withhold")


def recalculate_order(game: State) -> State:
    """After a sale in an operating round the corporations still to operate are put in price
    order again (18xx.games `recalculate_order` after every sale there)."""
    op = game.operating
    if op is None:
        return game
    rest = set(op.order[op.index + 1:])
    order = [*op.order[:op.index + 1], *(c for c in game.money.operating_order() if c in rest)]
    order += [c for c in op.order[op.index + 1:] if c not in order]
    return replace(game, operating=replace(op, order=order))


def process(game: State, action: Any) -> State:
    kind = KINDS.get(type(action))
    if kind is None:
        raise RuleError("wrong_round", f"{type(action).__name__} is not an operating-round action")
    step = ROUND.route_action(game, str(action.entity), kind)
    game = _past(game, step.name)
    game = step.process(game, action)
    if isinstance(action, A.SellShares):
        game = recalculate_order(game)
    if game.event is not None:
        return game     # a train event asks first; its end finishes this (eventrun.event_done)
    if game.operating is not None and game.operating.turn is not None:
        game = _past(game, step.name)
    return skip_dividend(game)


def _past(game: State, name: str) -> State:
    """The turn gone as far as step `name` (the discard aside). A state already there is kept as
    it is: what was found of it (the step's check of the decision) holds for its processing."""
    t = turn(game)
    if name == "discard" or t.past >= ORDER[name]:
        return game
    return _with_turn(game, replace(t, past=ORDER[name]))


def finished(game: State) -> bool:
    # A corporation closed in its own turn (merged away by the Tuscan merge its train set off),
    # or left with nobody at the top of its chain, acts no more: 18xx.games' round moves on when
    # the entity's controller is no player (G1841 `Round::Operating#after_process`).
    t = turn(game)
    return (t.over or game.money.corps[t.corp].closed or H.decider(game, t.corp) is None
            or ROUND.finished(game))
