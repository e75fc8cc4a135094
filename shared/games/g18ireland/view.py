"""What everyone sees (18Ireland has no hidden information after the set-up's public draw):
players' cash, certificates and privates; companies' prices, treasuries, trains and tokens;
the depot and phase; the board; where the game stands and who acts."""

from __future__ import annotations

from typing import Any

from shared.games.core18xx import shares as S
from shared.games.core18xx.view import board_view
from shared.games.g18ireland import board_ops as BO
from shared.games.g18ireland.state import State


def _holdings(state: State, holder: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for cert in state.money.book.certs_of(holder):
        out[cert.corporation] = out.get(cert.corporation, 0) + cert.percent
    return out


def _position(state: State) -> dict[str, Any]:
    pos: dict[str, Any] = {"round": state.round, "turn": state.money.turn}
    if state.operating is not None:
        op = state.operating
        pos.update(operating=f"{op.number}/{op.rounds}", order=op.order,
                   company=op.turn.corp if op.turn else None, step=op.turn.stage if op.turn else None,
                   lays=op.turn.lays if op.turn else 0, revenue=op.turn.revenue if op.turn else None)
    if state.stock is not None and state.stock.auction is not None:
        a = state.stock.auction
        pos["minor_auction"] = {"minor": a.corporation, "bids": [[int(p), v] for p, v in a.bids]}
    if state.auction is not None:
        pos["privates"] = [{"company": o.company, "price": o.price} for o in state.auction.offers]
        pos["bids"] = [{"player": int(b.player), "company": b.company, "price": b.price}
                       for b in getattr(state.auction, "bids", [])]
    if state.merger is not None:
        mr = state.merger
        pos["merger"] = {"merging": mr.merging, "proposer": None if mr.proposer is None else int(mr.proposer),
                         "votes_for": mr.votes_for, "votes_against": mr.votes_against,
                         "votes_needed": mr.votes_needed, "outcome": mr.outcome}
    if state.pending:
        pos["token_to_place"] = {"company": state.pending[0].corp, "kind": state.pending[0].kind}
    return pos


def view(state: State) -> dict[str, Any]:
    money = state.money
    players = [{"seat": i, "name": state.seats[i], "cash": money.cash[p], "shares": _holdings(state, p),
                "privates": sorted(c for c, o in money.companies.items() if o == p),
                "bankrupt": p in money.bankrupt} for i, p in enumerate(state.players)]
    companies = {}
    for sym, corp in money.corps.items():
        if corp.closed and not corp.ipoed:
            continue
        companies[sym] = {
            "type": corp.type, "started": corp.ipoed, "floated": corp.floated, "closed": corp.closed,
            "price": money.price_of(sym) if corp.price is not None else None,
            "cash": money.cash.get(sym, 0), "treasury": _holdings(state, sym).get(sym, 0),
            "pool": _holdings(state, S.POOL).get(sym, 0),
            "president": (int(money.book.president_of(sym)) if corp.ipoed and not corp.closed
                          and money.book.president_of(sym) in state.players else None),
            "trains": [t.id for t in state.depot.owned_by(sym)],
            "privates": sorted(c for c, o in money.companies.items() if o == sym),
        }
    depot = state.depot
    return {
        "position": _position(state),
        "priority": [int(p) for p in money.players],
        "players": players,
        "companies": companies,
        "bank": money.cash.get(S.BANK, 0),
        "phase": BO.phase(state),
        "depot": {"next": depot.upcoming[0] if depot.upcoming else None, "remaining": len(depot.upcoming),
                  "pool": list(depot.pool)},
        "setup": {"privates": state.setup.companies, "removed_minor": state.setup.removed_minor,
                  "larger_bank": state.larger_bank},
        "assigned": {c: list(v) for c, v in state.assigned.items()},
        "end": list(state.end) if state.end else None,
        "board": board_view(BO.the_map(), state.board, BO.colors(state)),
    }
