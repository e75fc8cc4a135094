"""Who acts and what is open to a seat now, as the contract's legal actions (families)."""

from __future__ import annotations

from typing import Any

from shared.engine import AmountRange, Choice, LegalAction
from shared.games.core18xx import actions as A
from shared.games.core18xx.choice import trie
from shared.games.g1841 import boardside as BS
from shared.games.g1841 import concessions as K
from shared.games.g1841 import emergency as EM
from shared.games.g1841 import eventrun as EV
from shared.games.g1841 import founding as F
from shared.games.g1841 import holders as H
from shared.games.g1841 import operating as OP
from shared.games.g1841 import stock as ST
from shared.games.g1841.state import State


def acting_entity(state: State) -> str | None:
    """The entity whose decision the game waits for: a player or a corporation."""
    if state.round == "over":
        return None
    if state.round == "auction":
        return K.to_act(state.auction) if state.auction else None
    if state.event is not None:
        return state.event.question.entity
    if state.founding:
        return state.founding[0].corp
    if state.round == "stock":
        return ST.current(state)
    if state.round == "operating" and state.operating and state.operating.turn:
        crowded = OP.crowded(state)
        return crowded[0] if crowded else state.operating.turn.corp
    return None


def acting_player(state: State) -> str | None:
    if state.event is not None and state.event.question.by:
        return state.event.question.by
    entity = acting_entity(state)
    return None if entity is None else H.decider(state, entity)


def active_seats(state: State) -> frozenset[int]:
    player = acting_player(state)
    return frozenset() if player is None else frozenset({H.seat_of(state, player)})


def for_seat(state: State, seat: int, only: str | None = None) -> list[LegalAction]:
    """The seat's legal actions; with `only` (an action type, e.g. "lay_tile"), those of that
    type at least (a family admits only its own type), the stock and operating rounds leaving
    the dear listings of other types out."""
    player = acting_player(state)
    if player is None or H.seat_of(state, player) != seat:
        return []
    if state.round == "auction":
        return _auction(state, player)
    if state.event is not None:
        return EV.legal(state)
    if state.founding:
        return _founding(state)
    if state.round == "stock":
        return _stock(state, player, only)
    return _operating(state, only)


def for_decision(state: State, seat: int, action: Any) -> list[LegalAction]:
    """Families of the seat's legal actions that include every one admitting `action` (what
    apply's check of one decision needs): those of its type, and for a lay only the lays of its
    hex, tile and track, not every legal lay of the position; for a merger only the partner or
    target it names (each one's foresight is a run of the whole merger)."""
    kind = type(action).__struct_config__.tag
    if isinstance(action, A.LayTile | A.Merge) and state.round == "operating" and state.event is None \
            and not state.founding:
        player = acting_player(state)
        if player is None or H.seat_of(state, player) != seat:
            return []
        return _operating(state, kind, probe=action)
    return for_seat(state, seat, only=kind)


def _who(entity: str) -> dict[str, Any]:
    return {"entity": entity, "entity_type": "player" if entity.isdigit() else "corporation"}


def _auction(state: State, player: str) -> list[LegalAction]:
    a = state.auction
    assert a is not None
    out = []
    for m in K.moves(a, player):
        if m.kind == "pass":
            out.append(LegalAction(action=A.Pass(**_who(player))))
        elif m.kind == "bid":
            out.append(LegalAction(action=A.Bid(**_who(player), company=m.concession, price=m.low),
                                   range=AmountRange(field="price", min=m.low, max=m.high, step=1)))
        else:
            n = len(a.concessions)
            suggestions = [[0] * n]
            for i in range(n):
                if m.low <= m.high:
                    suggestions.append([m.low if j == i else 0 for j in range(n)])
            out.append(LegalAction(action=A.BlindBid(**_who(player), bids=suggestions[0]),
                                   choices=Choice("bids", suggestions, open=True)))
    return out


def _founding(state: State) -> list[LegalAction]:
    step = state.founding[0]
    who = _who(step.corp)
    if step.kind == "tokens":
        return [LegalAction(action=A.Choose(**who, choice=n)) for n in sorted(F.token_choices(state))]
    rows = [(BS.node_id(state, h, c), None) for h, c in F.home_spots(state)]
    out = []
    if rows:
        choices = trie(("city",), [(r[0],) for r in rows])
        out.append(LegalAction(action=A.PlaceToken(**who, city=rows[0][0]), choices=choices))
    if step.kind == "home2":
        out.append(LegalAction(action=A.Pass(**who)))
    return out


def _stock(state: State, player: str, only: str | None = None) -> list[LegalAction]:
    out: list[LegalAction] = []
    sr = state.stock
    assert sr is not None
    who = _who(player)
    sales = [LegalAction(action=A.SellShares(**who, shares=list(ids), percent=percent))
             for _sym, ids, percent in ST.sellable(state, player)] if only in (None, "sell_shares") else []
    if ST.must_sell(state, player):
        return sales
    out += sales
    if only in (None, "buy_shares"):
        for cid in ST.buyable(state, player):
            out.append(LegalAction(action=A.BuyShares(**who, shares=[cid],
                                                      percent=state.money.book.certs[cid].percent)))
        cash = state.money.cash[player]
        for _seller, _sym, ids, percent in ST.from_players(state, player):
            out.append(LegalAction(action=A.BuyShares(**who, shares=sorted(ids), percent=percent, total_price=1),
                                   range=AmountRange(field="total_price", min=1, max=cash, step=1)))
    if only in (None, "buy_company"):
        for company in ST.buyable_companies(state, player):
            low, high = ST.company_prices(state, player, company)
            out.append(LegalAction(action=A.BuyCompany(**who, company=company, price=low),
                                   range=None if low == high else AmountRange(field="price", min=low, max=high,
                                                                              step=1)))
    if only in (None, "par"):
        for sym in ST.parable(state, player):
            cells = ST.par_cells(state, player, sym)
            out.append(LegalAction(action=A.Par(**who, corporation=sym, share_price=cells[0]),
                                   choices=Choice("share_price", cells)))
    out.append(LegalAction(action=A.Pass(**who)))
    return out


def _types(state: State, entity: str, only: str | None) -> list[str]:
    """The action types open to `entity` now (with `only`: that one if open, asking only the
    steps that may give it)."""
    if only is None:
        return OP.ROUND.legal_types(state, entity)
    return [only] if OP.ROUND.offers(state, entity, only) else []


def _merge_named(state: State, entity: str, named: str) -> list[LegalAction] | None:
    """The family of a merger with `named` when the merge step takes it: the step open to the
    entity and `named`'s merger completing make the step the first to take a merge (what the
    general listing finds after trying every partner's foresight in turn); None: not known so."""
    step = OP.STEPS[OP.ORDER["merge"]]
    assert isinstance(step, OP.MergeStep)
    if entity != OP.turn(state).corp or step not in OP.ROUND.open_steps(state) or not step.open(state) \
            or not step.admits(state, named):
        return None
    return [LegalAction(action=A.Merge(**_who(entity), corporation=named))]


def _operating(state: State, only: str | None = None, probe: A.LayTile | A.Merge | None = None) -> list[LegalAction]:
    entity = acting_entity(state)
    assert entity is not None
    if isinstance(probe, A.Merge):
        quick = _merge_named(state, entity, str(probe.corporation))
        if quick is not None:
            return quick
    kinds = _types(state, entity, only)
    who = _who(entity)
    out: list[LegalAction] = []
    player = H.decider(state, entity)
    if player is not None and only in (None, "sell_shares") and "sell_shares" in _types(state, player, "sell_shares"):
        for sym, ids, percent, _price in OP.BuyTrainStep().player_sales(state):
            out.append(LegalAction(action=A.SellShares(**_who(player), shares=list(ids), percent=percent,
                                                       share_price=EM.share_price(state, sym))))
    for kind in kinds:
        if kind == "discard_train":
            out += [LegalAction(action=A.DiscardTrain(**who, train=t.id)) for t in state.depot.owned_by(entity)]
        elif kind == "lay_tile":
            rows = []
            # checking one lay: the lays of its hex, tile and track only (those the others'
            # families could not admit are left out)
            lays = BS.legal_lays(state, entity) if not isinstance(probe, A.LayTile) else \
                BS.lays_at(state, entity, probe.hex, probe.tile.rsplit("-", 1)[0], probe.rotation)
            for lay in lays:
                copy = BS.tile_copy(state, lay.tile)
                if copy is not None:
                    rows.append((lay.hex, copy, lay.rotation))
            choices = trie(("hex", "tile", "rotation"), rows)
            if choices is not None:
                out.append(LegalAction(action=A.LayTile(**who, hex=rows[0][0], tile=rows[0][1], rotation=rows[0][2]),
                                       choices=choices))
        elif kind == "place_token":
            rows2 = [(BS.node_id(state, s.hex, s.city),) for s in BS.token_spots(state, entity)]
            choices = trie(("city",), rows2)
            if choices is not None:
                out.append(LegalAction(action=A.PlaceToken(**who, city=rows2[0][0]), choices=choices))
        elif kind == "run_routes":
            # the routes are an open choice (any routes are admitted, the step checks them):
            # checking a decision needs no best set as the family's example
            best = BS.best(state, entity).routes if only is None else []
            routes = [A.Route(train=r.train, connections=[list(c) for c in r.connections], nodes=list(r.stops),
                              revenue=r.revenue) for r in best]
            out.append(LegalAction(action=A.RunRoutes(**who, routes=routes), choices=Choice("routes", [routes], open=True)))
        elif kind == "dividend":
            out += [LegalAction(action=A.Dividend(**who, kind=k)) for k in ("payout", "withhold")]
        elif kind == "buy_train":
            for tid, lo, hi in OP.train_options(state, entity):
                if lo == hi:
                    out.append(LegalAction(action=A.BuyTrain(**who, train=tid, price=lo)))
                else:
                    out.append(LegalAction(action=A.BuyTrain(**who, train=tid, price=lo),
                                           range=AmountRange(field="price", min=lo, max=hi, step=1)))
        elif kind == "buy_token":
            cash = state.money.cash[entity]
            for x in BS.buyable_tokens(state, entity):
                out.append(LegalAction(action=A.BuyToken(**who, city=BS.node_id(state, x.hex, x.city), slot=x.slot, price=1),
                                       range=AmountRange(field="price", min=1, max=cash, step=1)))
        elif kind == "bankrupt":
            out += [LegalAction(action=A.Bankrupt(**who, option=o)) for o in (0, 1)]
        elif kind == "sell_shares" and OP.ROUND.route_action(state, entity, "sell_shares").name == "buy_train":
            # the buyer names the sale, whichever corporation of its chain sells (18xx.games'
            # `BuyTrain#actions` answers the current entity only; the seller is the bundle's owner)
            for _seller, (sym, ids, percent, _price) in EM.issuable(state, entity):
                out.append(LegalAction(action=A.SellShares(**who, shares=list(ids), percent=percent,
                                                           share_price=EM.share_price(state, sym))))
        elif kind == "sell_shares":
            for _sym, ids, percent in ST.sellable(OP.as_stock(state), entity, own=True):
                out.append(LegalAction(action=A.SellShares(**who, shares=list(ids), percent=percent)))
        elif kind == "buy_shares":
            for cid in ST.buyable(OP.as_stock(state), entity):
                out.append(LegalAction(action=A.BuyShares(**who, shares=[cid],
                                                          percent=state.money.book.certs[cid].percent)))
        elif kind == "par":
            view = OP.as_stock(state)
            for sym in ST.parable(view, entity):
                cells = ST.par_cells(view, entity, sym)
                out.append(LegalAction(action=A.Par(**who, corporation=sym, share_price=cells[0]),
                                       choices=Choice("share_price", cells)))
        elif kind == "merge":
            step = OP.ROUND.route_action(state, entity, "merge")
            assert isinstance(step, OP.MergeStep | OP.TransformStep), "the steps that take a merge"
            if isinstance(probe, A.Merge) and isinstance(step, OP.MergeStep):
                named = str(probe.corporation)
                syms = [named] if step.admits(state, named) else []
            else:
                syms = step.choices(state)
            for sym in syms:
                out.append(LegalAction(action=A.Merge(**who, corporation=sym)))
        elif kind == "pass":
            out.append(LegalAction(action=A.Pass(**who)))
    return out
