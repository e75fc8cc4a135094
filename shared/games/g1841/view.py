"""What a seat sees of 1841: everything is public but the other players' sealed bids in
version_1's concession auction (a seat sees only that they have bid)."""

from __future__ import annotations

from typing import Any

from shared.games.g1841 import data as D
from shared.games.g1841 import holders as H
from shared.games.g1841.pageview import page_view
from shared.games.g1841.state import State


def view(state: State, seat: int | None) -> dict[str, Any]:
    money = state.money
    me = state.players[seat] if seat is not None and 0 <= seat < len(state.players) else None
    corps = {}
    for sym, c in money.corps.items():
        if not c.ipoed and not c.closed:
            continue
        corps[sym] = {
            "type": c.type, "closed": c.closed, "floated": c.floated,
            "price": money.price_of(sym) if c.price is not None else None,
            "cash": money.cash.get(sym, 0), "holders": money.book.holders(sym),
            "president": money.book.president_of(sym), "controller": H.decider(state, sym),
            "trains": [t.id for t in state.depot.owned_by(sym)],
            "tokens": state.tokens.get(sym, 0), "operated": sym in state.operated,
        }
    out: dict[str, Any] = {
        # what the 18xx page draws: players (a superset of id, name, cash, bankrupt), companies,
        # market, depot (the upcoming trains and the pool added below), board, position
        **page_view(state),
        "round": state.round,
        "phase": state.depot.current_phase.name,
        "variant": state.variant,
        "priority": list(money.players),
        "concessions": dict(money.companies),
        "corporations": corps,
        "tiles": {h: list(t) for h, t in state.board.tiles.items()},
        "tokens": {h: [list(s) for s in slots] for h, slots in state.board.tokens.items()},
        "end": list(state.end) if state.end else None,
        "moves": state.moves,
        "map": D.variant({"lite": state.options.lite, "version_1": state.options.version_1}),
        "closed_borders": len(state.board.closed),
    }
    out["depot"] = {**out["depot"], "upcoming": state.depot.upcoming[:3], "pool": list(state.depot.pool)}
    a = state.auction
    if a is not None:
        out["auction"] = {
            "kind": a.kind, "order": list(a.players), "auctioning": a.auctioning, "unsold": list(a.unsold),
            "bids": {c: [[b.player, b.price] for b in bids] for c, bids in a.bids.items()},
            "owners": dict(a.owners), "cash": dict(a.cash),
            "sealed": {p: (list(b) if p == me else True) for p, b in a.blind.items()},
        }
    if state.stock is not None:
        out["stock"] = {"passed": list(state.stock.passed), "started": state.stock.started}
    if state.founding:
        out["founding"] = [[f.corp, f.kind] for f in state.founding]
    ev = state.event
    if ev is not None:
        q = ev.question
        out["event"] = {"question": {"kind": q.kind, "topic": q.topic, "entity": q.entity, "text": q.text,
                                     "choices": list(q.choices), "spots": [list(x) for x in q.spots],
                                     "can_pass": q.can_pass,
                                     "sales": [[seller, list(ids), pc, price] for seller, ids, pc, price in q.sales]},
                        "log": list(ev.log)}
    if state.event_log:
        out["event_log"] = list(state.event_log)
    op = state.operating
    if op is not None:
        out["operating"] = {"number": op.number, "rounds": op.rounds, "order": list(op.order),
                            "corp": op.turn.corp if op.turn else None}
    return out
