"""ENGINE: 1841 under the engine contract (see docs/engine-contract.md and README.md).

Actions are 18xx.games' own (`core18xx.actions`), so an export's decisions apply as they are,
with player ids replaced by seat ids ("0", "1", ...).
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from shared.engine import LegalAction, Result, RuleError, TitleMeta
from shared.families import any_admits
from shared.games.core18xx import actions as A
from shared.games.core18xx.board import state as B
from shared.games.core18xx.legal import has_bookkeeping
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import concessions as K
from shared.games.g1841 import data as D
from shared.games.g1841 import eventrun as EV
from shared.games.g1841 import flow as FL
from shared.games.g1841 import founding as F
from shared.games.g1841 import from_18xx
from shared.games.g1841 import listing as L
from shared.games.g1841 import operating as OP
from shared.games.g1841 import preview as PR
from shared.games.g1841 import stock as ST
from shared.games.g1841.meta import META
from shared.games.g1841.money import concessions, initial, player_value
from shared.games.g1841.state import Options, State
from shared.games.g1841.view import view as build_view
from shared.rng import Rng

replace = msgspec.structs.replace
DECISION_TYPES = frozenset(A.GAME_ACTION_TYPES.values())


class G1841:
    meta: ClassVar[TitleMeta] = META
    title: ClassVar[str] = META.id
    action_type: ClassVar[Any] = A.GameAction
    state_type: ClassVar[type] = State
    from_18xx: ClassVar[Any] = from_18xx

    def setup(self, seats: list[str], options: dict[str, Any], seed: int) -> State:
        flags = {}
        for name in ("version_1", "lite", "sfli_run_variant", "p2p_purchases"):
            value = options.get(name, False)
            if type(value) is not bool:
                raise RuleError("bad_options", f"{name} must be true or false")
            flags[name] = value
        opts = Options(**flags)
        variant = D.variant(flags)
        low, high = D.entities(variant)["player_range"]
        if not low <= len(seats) <= high:
            raise RuleError("bad_seats", f"1841 ({variant}) takes {low} to {high} players")
        players = [str(i) for i in range(len(seats))]
        money, depot = initial(players, variant)
        auction = K.new_auction(players, {p: money.cash[p] for p in players}, concessions(variant),
                                blind=opts.version_1)
        return State(seats=list(seats), players=players, options=opts, variant=variant, money=money, depot=depot,
                     board=BS.initial(variant), round="auction", auction=auction)

    def active_seats(self, state: State) -> frozenset[int]:
        return L.active_seats(state)

    def legal_actions(self, state: State, seat: int) -> list[LegalAction]:
        return L.for_seat(state, seat)

    def apply(self, state: State, seat: int, action: Any) -> State:
        if state.round == "over":
            raise RuleError("game_over", "the game has ended")
        if not isinstance(action, A.Action) or type(action) not in DECISION_TYPES:
            raise RuleError("bad_action", f"{type(action).__name__} is not a 1841 action")
        if has_bookkeeping(action):
            raise RuleError("bad_action", "id, user, created_at and auto_actions are an export's, not a decision's")
        entity = L.acting_entity(state)
        player = L.acting_player(state)
        if player is None or state.players.index(player) != seat:
            raise RuleError("not_your_turn", f"seat {seat} is not to act now")
        if str(action.entity) != entity \
                and not (state.round == "operating" and not state.founding and str(action.entity) == player) \
                and not (state.round == "operating" and isinstance(action, A.SellShares)
                         and str(action.entity) in state.money.corps):
            raise RuleError("wrong_entity", f"{action.entity} is not to act now; {entity} is")
        canonical = _canonical(state, action)
        if not any_admits(L.for_decision(state, seat, canonical), canonical):
            raise RuleError("not_allowed", f"{type(action).__name__} is not open now")
        state = self._decide(state, player, action)
        state = FL.check_end(state)
        if state.round == "operating":
            state = FL.settle(state)
        return replace(state, moves=state.moves + 1)

    def _decide(self, state: State, player: str, action: Any) -> State:
        if state.round == "auction":
            a = state.auction
            assert a is not None
            if isinstance(action, A.Pass):
                a = K.pass_(a, player)
            elif isinstance(action, A.Bid) and action.company is not None:
                a = K.bid(a, player, action.company, action.price)
            elif isinstance(action, A.BlindBid):
                a = K.blind_bid(a, player, list(action.bids or []))
            else:
                raise RuleError("wrong_round", "bid on a concession or pass")
            state = replace(state, auction=a)
            return FL.after_auction(state) if a.done else state
        if state.event is not None:
            return EV.event_done(EV.process(state, action))
        if state.founding:
            if isinstance(action, A.Choose) and state.founding[0].kind == "tokens":
                return F.choose(state, int(action.choice))
            if isinstance(action, A.PlaceToken) and state.founding[0].kind != "tokens":
                try:
                    coord, city = B.find_node(D.the_map(state.variant), state.board, action.city)
                except B.BoardError as exc:
                    raise RuleError(exc.code, str(exc)) from None
                return F.place(state, coord, city)
            if isinstance(action, A.Pass):
                return F.pass_(state)
            raise RuleError("wrong_step", f"{state.founding[0].corp} must finish its founding first")
        if state.round == "stock":
            trader = str(action.entity)
            if isinstance(action, A.Pass):
                return ST.pass_(state, player)
            if isinstance(action, A.SellShares):
                return ST.done_if_stuck(ST.sell(state, player, trader, action.shares, action.percent), player)
            if isinstance(action, A.BuyShares):
                if _from_player(state, action):
                    return ST.buy_from_player(state, player, action.shares, action.percent, action.total_price)
                if len(action.shares) != 1:
                    raise RuleError("one_share", "buy one certificate at a time")
                return ST.buy(state, player, trader, action.shares[0])
            if isinstance(action, A.Par):
                return ST.par(state, player, trader, action.corporation, action.share_price)
            if isinstance(action, A.BuyCompany) and trader == player:
                return ST.buy_company(state, player, action.company, action.price)
            raise RuleError("wrong_round", f"{type(action).__name__} is not a stock-round action")
        return OP.process(state, action)

    def preview(self, state: State, seat: int, action: Any) -> dict[str, Any]:
        return PR.preview(self.apply, state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def redact(self, state: State, seat: int, seed: int) -> State:
        """Only version_1's sealed bids are secret: the others' are re-sampled (any bids within
        their cash), the seat's own kept."""
        a = state.auction
        if a is None or not a.blind or not K.in_blind_phase(a):
            return state
        me = state.players[seat] if 0 <= seat < len(state.players) else None
        rng = Rng.from_seed(seed)
        blind = {}
        for p, bids in a.blind.items():
            if p == me:
                blind[p] = bids
                continue
            out = []
            left = a.cash[p]
            for _ in bids:
                value, rng = rng.below(2)
                bid = K.MIN_BID if value and left >= K.MIN_BID else 0
                left -= bid
                out.append(bid)
            blind[p] = tuple(out)
        return replace(state, auction=replace(a, blind=blind))

    def sealed(self, action: Any) -> bool:
        return isinstance(action, A.BlindBid)

    def reveals(self, before: State, after: State) -> bool:
        a, z = before.auction, after.auction
        return a is not None and a.kind == "blind" and K.in_blind_phase(a) and (z is None or not K.in_blind_phase(z))

    def result(self, state: State) -> Result | None:
        if state.round != "over":
            return None
        scores = [player_value(state.money, p, state.loans, state.variant) for p in state.players]
        ranks = [1 + sum(1 for other in scores if other > s) for s in scores]
        winners = [i for i, r in enumerate(ranks) if r == 1]
        return Result(scores=scores, ranks=ranks, winners=winners, reason=state.over_reason or "unknown")


def _from_player(state: State, action: A.BuyShares) -> bool:
    """A purchase of certificates another player holds (`p2p_purchases`)."""
    book = state.money.book
    return bool(action.shares) and action.shares[0] in book.certs and book.owner[action.shares[0]] in state.players


def _canonical(state: State, action: Any) -> Any:
    """A purchase of any certificate as good as the one offered (same corporation, holder and
    size) is checked as that one; a purchase from a player as the bundle offered (listed with its
    certificates sorted), whatever per-share price 18xx.games' client derived from the price named."""
    if isinstance(action, A.SellShares) and state.event is not None and state.event.question.kind == "sell":
        return replace(action, shares=sorted(action.shares))
    if isinstance(action, A.SellShares) and state.round == "operating" and state.operating is not None \
            and state.operating.turn is not None and str(action.entity) in state.money.corps \
            and str(action.entity) != state.operating.turn.corp and not state.founding \
            and getattr(OP.ROUND.active_step(state), "name", None) == "buy_train":
        # a corporation of the chain naming its own emergency sale: as the buyer names it
        return replace(action, entity=state.operating.turn.corp)
    if isinstance(action, A.BuyShares) and _from_player(state, action):
        return replace(action, shares=sorted(action.shares), share_price=None)
    if not isinstance(action, A.BuyShares) or len(action.shares) != 1:
        return action
    book = state.money.book
    cert = book.certs.get(action.shares[0])
    if cert is None or cert.president:
        return action
    holder = book.owner[cert.id]
    same = [c for c in book.certs_of(holder, cert.corporation) if not c.president and c.percent == cert.percent]
    offered = book.smallest_plain(holder, cert.corporation)
    if offered is not None and offered.percent == cert.percent and same:
        return replace(action, shares=[offered.id])
    return action


ENGINE = G1841()
